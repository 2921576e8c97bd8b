import type { Core } from '../core/core.js';
import type { Registries } from '../registry/index.js';
import { readSystemZone, UTC_OFFSETS } from '../util/tzif.js';
import { bareMessage, compileTemplate } from './compile.js';
import type { PyZone } from './datetime.js';
import { environmentFor } from './environment.js';
import { TemplateError, TemplateFault } from './errors.js';
import { FORBIDDEN_NAMES } from './forbidden.js';
import { parseResult } from './literal.js';
import { LiveVariable } from './live.js';
import type { NjEnvironment, NjTemplate } from './nunjucks.js';
import { RenderInfo } from './render-info.js';
import { inScope, type RenderScope } from './scope.js';

/** The engine's bounds on what a template may cost. */
export interface TemplateLimits {
  /** A render running longer is stopped (nunjucks renders synchronously, so this bounds the event loop's stall). */
  readonly renderMs: number;
  /** Output longer than this is an error (Home Assistant's MAX_TEMPLATE_OUTPUT, 256 KiB). */
  readonly outputChars: number;
  /** No string built inside a render may be longer (`'x' * n`, joins, replaces). */
  readonly stringChars: number;
  /** Longer templates are refused before they are parsed. */
  readonly sourceChars: number;
  /** Compiled templates kept, least recently used dropped first. */
  readonly cachedTemplates: number;
}

export const DEFAULT_TEMPLATE_LIMITS: TemplateLimits = {
  renderMs: 1000,
  outputChars: 256 * 1024,
  stringChars: 1024 * 1024,
  sourceChars: 256 * 1024,
  cachedTemplates: 512,
};

export interface TemplateEngineOptions {
  readonly core: Core;
  /** Areas, devices and labels for area_entities and friends; without them those find nothing. */
  readonly registries?: Registries;
  /** The hub's IANA time zone, for now(), as_local and today_at (default UTC). */
  readonly timeZone?: string;
  readonly limits?: Partial<TemplateLimits>;
}

export interface RenderOptions {
  /** The template's name in error messages (`POST /api/template`, `automations.yaml:12 value_template`). */
  readonly name?: string;
  /** Variables the template sees (`trigger`, `this`, an automation's variables). */
  readonly variables?: Readonly<Record<string, unknown>>;
  /** Undefined values are errors where they are used (output, attribute, call), as Jinja's StrictUndefined. */
  readonly strict?: boolean;
  /** A lower time limit for this render (render_template's `timeout`). */
  readonly limitMs?: number;
}

export type RenderOutcome =
  | { readonly ok: true; readonly text: string; readonly info: RenderInfo }
  | { readonly ok: false; readonly error: TemplateError; readonly info: RenderInfo };

/** A compiled template, or the text itself when it has no `{{`, `{%` or `{#` (Home Assistant's is_static). */
type Compiled = { readonly kind: 'static' } | { readonly kind: 'compiled'; readonly template: NjTemplate };

const DELIMITERS = /\{%|\{\{|\{#/;

/**
 * Home Assistant's templates for one hub: compile (cached), render in the sandbox with the hub's states,
 * registries and time zone, and report what each render read. The entry point for the API, automations and
 * template entities.
 */
export class TemplateEngine {
  readonly limits: TemplateLimits;
  private envCache: NjEnvironment | undefined;
  private readonly cache = new Map<string, Compiled>();

  constructor(private readonly options: TemplateEngineOptions) {
    this.limits = { ...DEFAULT_TEMPLATE_LIMITS, ...options.limits };
  }

  /** Made on the first template that is not static: a hub without templates never loads nunjucks. */
  private get env(): NjEnvironment {
    if (this.envCache === undefined) {
      const name = this.options.timeZone ?? 'UTC';
      const zone: PyZone = { name, offsets: name === 'UTC' ? UTC_OFFSETS : (readSystemZone(name) ?? UTC_OFFSETS) };
      this.envCache = environmentFor({ core: this.options.core, registries: this.options.registries, zone });
    }
    return this.envCache;
  }

  /** How many compiled templates are cached (bounded by limits.cachedTemplates). */
  get cachedCount(): number {
    return this.cache.size;
  }

  /** Compiles without rendering; throws a TemplateError for a syntax problem. */
  check(source: string, name = 'template'): void {
    this.compiled(source, name);
  }

  /** Renders to text (stripped, as Home Assistant's render); never throws. */
  tryRender(source: string, options: RenderOptions = {}): RenderOutcome {
    const info = new RenderInfo();
    const name = options.name ?? 'template';
    try {
      return { ok: true, text: this.renderText(source, name, info, options), info };
    } catch (err) {
      return { ok: false, error: toTemplateError(err, name), info };
    }
  }

  /** Renders to text; throws a TemplateError. */
  renderText(source: string, name: string, info: RenderInfo, options: RenderOptions = {}): string {
    const compiled = this.compiled(source, name);
    if (compiled.kind === 'static') return source;
    const limitMs = Math.min(this.limits.renderMs, options.limitMs ?? Number.POSITIVE_INFINITY);
    const scope: RenderScope = {
      info,
      templateName: name,
      nowUs: this.options.core.clock.now(),
      strict: options.strict === true,
      deadline: performance.now() + limitMs,
      limitMs,
      maxOutputChars: this.limits.outputChars,
      maxStringChars: this.limits.stringChars,
      steps: 0,
      outputChars: 0,
      lastMissing: undefined,
    };
    const variables: Record<string, unknown> = {};
    // A variable named __proto__ would become the variables' prototype when copied; such names are never variables.
    for (const [k, v] of Object.entries(options.variables ?? {})) {
      if (!FORBIDDEN_NAMES.has(k)) variables[k] = v instanceof LiveVariable ? v.read() : v;
    }
    const text = inScope(scope, () => compiled.template.render(variables));
    if (text.length > this.limits.outputChars) {
      throw new TemplateError('OutputTooLarge', `the output is over the limit of ${this.limits.outputChars} characters`, name, undefined);
    }
    return text.trim();
  }

  /** Renders and reads the result as Home Assistant does (a number, list, dict, bool or None when it parses as one). */
  renderValue(source: string, options: RenderOptions = {}): { value: unknown; info: RenderInfo } {
    const info = new RenderInfo();
    const text = this.renderText(source, options.name ?? 'template', info, options);
    return { value: parseResult(text), info };
  }

  private compiled(source: string, name: string): Compiled {
    const hit = this.cache.get(source);
    if (hit !== undefined) {
      // Least recently used first out: a hit moves to the end.
      this.cache.delete(source);
      this.cache.set(source, hit);
      return hit;
    }
    if (source.length > this.limits.sourceChars) {
      throw new TemplateError('TemplateSyntaxError', `a template may have at most ${this.limits.sourceChars} characters`, name, undefined);
    }
    const compiled: Compiled = DELIMITERS.test(source)
      ? { kind: 'compiled', template: compileTemplate(this.env, source, name) }
      : { kind: 'static' };
    if (this.cache.size >= this.limits.cachedTemplates) {
      const oldest = this.cache.keys().next();
      if (oldest.done !== true) this.cache.delete(oldest.value);
    }
    this.cache.set(source, compiled);
    return compiled;
  }
}

/** Whether a text holds template syntax at all. */
export function isTemplate(text: string): boolean {
  return DELIMITERS.test(text);
}

/** Any error out of a render as a TemplateError with the kind, the message and the position nunjucks knew. */
function toTemplateError(err: unknown, name: string): TemplateError {
  if (err instanceof TemplateError) return err;
  const e = err instanceof Error ? err : new Error(String(err));
  const { cause, lineno, colno } = e as Error & { cause?: unknown; lineno?: unknown; colno?: unknown };
  const inner = cause instanceof Error ? cause : e;
  const position =
    typeof lineno === 'number' && lineno >= 0 ? { line: lineno + 1, column: (typeof colno === 'number' ? colno : 0) + 1 } : undefined;
  if (inner instanceof TemplateFault) return new TemplateError(inner.kind, inner.message, name, position);
  if (inner instanceof RangeError) {
    const message = /call stack/i.test(inner.message) ? 'the template recursed too deeply' : 'a value grew too large';
    return new TemplateError('TemplateRuntimeError', message, name, position);
  }
  return new TemplateError('TemplateRuntimeError', bareMessage(inner), name, position);
}
