import type { Core } from '../core/core.js';
import type { Registries } from '../registry/index.js';
import { TemplateEngine } from './engine.js';
import { RenderInfo } from './render-info.js';

const engines = new WeakMap<Core, TemplateEngine>();

/**
 * The hub's one template engine: the API, MQTT and automations render through it and so share its cache of
 * compiled templates and its time budget. Made on first use, with the hub's states, registries and time zone.
 */
export function templateEngineFor(core: Core, registries: Registries, timeZone: string | undefined): TemplateEngine {
  let engine = engines.get(core);
  if (engine === undefined) {
    engine = new TemplateEngine({ core, registries, timeZone });
    engines.set(core, engine);
  }
  return engine;
}

type Variables = Readonly<Record<string, unknown>>;

/** A render to text; throws a TemplateError. */
export interface TextRenderer {
  (template: string, variables: Variables): string;
  /** A renderer whose renders count as one source of the template budget (an adopted MQTT entity). */
  scoped(name: string, onWarning: (message: string) => void): ScopedTextRenderer;
}

/** A renderer of one source: its renders, and the handling of messages gated by the budget's room. */
export interface ScopedTextRenderer {
  (template: string, variables: Variables): string;
  gate(job: () => void): void;
  close(): void;
}

/** Jobs of one scoped renderer waiting for room in the budget (oldest dropped past it). */
const MAX_WAITING = 64;

/**
 * Renders to text for a caller that only needs the text (MQTT payloads and value templates). Renders of the
 * renderer itself (mqtt.publish payloads) count as one source named `name`, never suspended (each call may be
 * another template); `scoped` makes one per configured thing, suspended until its configuration changes.
 */
export function textRenderer(engine: TemplateEngine, name: string): TextRenderer {
  const own = engine.forSource({ name, suspends: false });
  const render = ((template: string, variables: Variables) =>
    own.renderText(template, name, new RenderInfo(), { variables })) as TextRenderer & { scoped: TextRenderer['scoped'] };
  const scoped: TextRenderer['scoped'] = (sourceName, onWarning) =>
    scopedRenderer(engine.forSource({ name: sourceName, until: 'its configuration changes', onWarning }), name);
  render.scoped = scoped;
  return render;
}

function scopedRenderer(engine: TemplateEngine, name: string): ScopedTextRenderer {
  const waiting: (() => void)[] = [];
  let closed = false;
  // Runs the waiting jobs in order while the budget has room; queued again (once) when it has none.
  const drain = (): void => {
    while (waiting.length > 0 && !closed) {
      if (!engine.canStart()) {
        engine.schedule(drain);
        return;
      }
      (waiting.shift() as () => void)();
    }
  };
  const render = ((template: string, variables: Variables) =>
    engine.renderText(template, name, new RenderInfo(), { variables })) as ScopedTextRenderer & {
    gate: ScopedTextRenderer['gate'];
    close: ScopedTextRenderer['close'];
  };
  const gate: ScopedTextRenderer['gate'] = (job) => {
    if (closed) return;
    if (waiting.length === 0 && engine.canStart()) {
      job();
      return;
    }
    if (waiting.length >= MAX_WAITING) waiting.shift();
    waiting.push(job);
    engine.schedule(drain);
  };
  const close: ScopedTextRenderer['close'] = () => {
    closed = true;
    waiting.length = 0;
    engine.cancel(drain);
  };
  render.gate = gate;
  render.close = close;
  return render;
}
