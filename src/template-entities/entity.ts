import { errorText, render, resultAsBoolean, type TemplateVars, templateState } from '../automation/templating.js';
import type { Context } from '../core/context.js';
import type { Core } from '../core/core.js';
import type { Entity } from '../core/entities.js';
import type { JsonValue } from '../core/json.js';
import type { Logger } from '../core/log.js';
import { parseResult, RenderInfo, type TemplateEngine } from '../template/index.js';
import type { TemplateEntityDefinition } from './config.js';

export const TEMPLATE_OWNER = 'template';

/** What a render gave: the state (null is unknown, undefined unavailable) and the attributes. */
interface Rendered {
  readonly state: string | null | undefined;
  readonly attributes: Record<string, JsonValue>;
}

/**
 * One template entity's rendering, as Home Assistant's template entities render: availability first (false is
 * unavailable), then the state, icon, picture and attributes; a render error makes the entity unavailable and is
 * logged once, until a render succeeds again. What the renders read is kept (RenderInfo) for the re-render.
 */
export class TemplateRenderer {
  /** Everything the last render read. */
  info = new RenderInfo();
  private failing: string | undefined;

  constructor(
    private readonly engine: TemplateEngine,
    private readonly log: Logger,
    readonly def: TemplateEntityDefinition,
    readonly entityId: string,
  ) {}

  render(core: Core, extra: TemplateVars, optimistic: string | null): Rendered {
    const info = new RenderInfo();
    const variables = { ...extra, this: templateState(core.states.get(this.entityId)) };
    const one = (source: string, key: string): string => {
      const out = render(this.engine, source, `${this.entityId} ${key}`, variables);
      for (const id of out.info.entities) info.entity(id);
      for (const d of out.info.domains) info.domain(d);
      if (out.info.all) info.all = true;
      if (out.info.time) info.time = true;
      return out.text;
    };
    try {
      const { def } = this;
      if (def.availability !== undefined && !resultAsBoolean(parseResult(one(def.availability, 'availability')))) {
        this.info = info;
        this.failing = undefined;
        return { state: undefined, attributes: {} };
      }
      const attributes: Record<string, JsonValue> = {};
      if (def.icon !== undefined) attributes.icon = one(def.icon, 'icon');
      if (def.picture !== undefined) attributes.entity_picture = one(def.picture, 'picture');
      for (const [key, source] of Object.entries(def.attributes))
        attributes[key] = parseResult(one(source, `attributes.${key}`)) as JsonValue;
      const state = def.state === undefined ? optimistic : this.stateOf(one(def.state, 'state'));
      this.info = info;
      this.failing = undefined;
      return { state, attributes };
    } catch (err) {
      this.info = info;
      const message = errorText(err);
      if (this.failing !== message) this.log.error({ entity_id: this.entityId }, `${this.entityId}: Error rendering template: ${message}`);
      this.failing = message;
      return { state: undefined, attributes: {} };
    }
  }

  /** The state as each domain reads the text (template sensor, binary_sensor and switch). */
  private stateOf(text: string): string | null {
    const value = parseResult(text);
    if (value === null) return null;
    switch (this.def.domain) {
      case 'sensor':
        return text;
      case 'binary_sensor':
        return resultAsBoolean(value) ? 'on' : 'off';
      case 'switch': {
        const lower = text.toLowerCase();
        if (lower === 'true' || lower === 'on') return 'on';
        if (lower === 'false' || lower === 'off') return 'off';
        return null;
      }
    }
  }
}

/** Writes a rendered result to the entity; binary sensors hold a change to on (off) for delay_on (delay_off). */
export class TemplateWriter {
  private pending: NodeJS.Timeout | undefined;
  private pendingState: string | undefined;

  constructor(
    private readonly entity: Entity,
    private readonly def: TemplateEntityDefinition,
  ) {}

  write(result: Rendered, context?: Context): void {
    const { state, attributes } = result;
    if (state === undefined) {
      this.cancel();
      this.entity.markUnavailable(context);
      return;
    }
    const delay = state === 'on' ? this.def.delayOnMs : state === 'off' ? this.def.delayOffMs : undefined;
    const current = this.entity.state;
    if (state === null || delay === undefined || delay === 0 || current === undefined || current === state || current === 'unavailable') {
      this.cancel();
      this.entity.report(state, attributes, context);
      return;
    }
    if (this.pendingState === state) return;
    this.cancel();
    this.pendingState = state;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.pendingState = undefined;
      this.entity.report(state, attributes, context);
    }, delay);
  }

  cancel(): void {
    clearTimeout(this.pending);
    this.pending = undefined;
    this.pendingState = undefined;
  }
}
