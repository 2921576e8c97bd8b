import type { Core } from '../core/core.js';
import { isTemplate } from '../core/template-text.js';
import type { Registries } from '../registry/index.js';
import { zoneOffsets } from '../util/time-zone.js';
import { UTC_OFFSETS } from '../util/tzif.js';
import { type RenderSource, type SourceOptions, TemplateBudget } from './budget.js';
import { bareMessage, compileTemplate } from './compile.js';
import type { PyZone } from './datetime.js';
import { environmentFor } from './environment.js';
import { TemplateError, TemplateFault } from './errors.js';
import { FORBIDDEN_NAMES } from './forbidden.js';
import type { HomeLocation } from './functions-geo.js';
import { parseResult } from './literal.js';
import { LiveVariable } from './live.js';
import type { NjEnvironment, NjTemplate } from './nunjucks.js';
import { RenderInfo } from './render-info.js';
import { inScope, type RenderScope } from './scope.js';
import { warmUp } from './warm-up.js';

/** The engine's bounds on what a template may cost (docs/templates.md, "Time budget"). */
export interface TemplateLimits {
  /**
   * A render running longer is stopped (two in a row suspend its source): nunjucks renders synchronously, so
   * this bounds how long one render holds the event loop.
   */
  readonly renderMs: number;
  /**
   * The limit of a render that compiles its template first, compiling and rendering together: a long template
   * takes longer to compile than to render, and a template's first render runs code V8 compiles on first use.
   */
  readonly compileMs: number;
  /** Renders that can wait start only while the current turn of the event loop has rendered for less than this minus renderMs. */
  readonly turnMs: number;
  /** What one source (an automation, a template entity, a subscription's connection...) may render in any second. */
  readonly sourceShareMs: number;
  /** What all templates together may render in any second. */
  readonly hubShareMs: number;
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
  renderMs: 20,
  compileMs: 50,
  turnMs: 25,
  sourceShareMs: 100,
  hubShareMs: 500,
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
  /**
   * The hub's home, for distance() and closest() (and the unit lengths are given in); default: the
   * latitude and longitude of `zone.home`, in km.
   */
  readonly location?: () => HomeLocation | undefined;
  readonly limits?: Partial<TemplateLimits>;
  /**
   * false: every render still stops at renderMs, but nothing is suspended, shared out or deferred (the
   * benchmark's reference for what the budget costs). Default true.
   */
  readonly budget?: boolean;
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

/**
 * A compiled template, the text itself when it has no `{{`, `{%` or `{#` (Home Assistant's is_static), or the
 * syntax error it compiles to (kept, so that sending it again costs no second compile).
 */
type Compiled =
  | { readonly kind: 'static' }
  | { readonly kind: 'compiled'; readonly template: NjTemplate }
  | { readonly kind: 'error'; readonly error: TemplateError };

/** What an engine and the engines bound to sources (withSource) share: nunjucks' environment, the cache, the budget. */
interface Shared {
  env: NjEnvironment | undefined;
  readonly cache: Map<string, Compiled>;
  readonly budget: TemplateBudget;
}

/**
 * Home Assistant's templates for one hub: compile (cached), render in the sandbox with the hub's states,
 * registries and time zone, and report what each render read. The entry point for the API, automations and
 * template entities.
 */
export class TemplateEngine {
  readonly limits: TemplateLimits;
  /** Whose budget this engine's renders count against (undefined: the hub's alone). */
  readonly source: RenderSource | undefined;
  private readonly shared: Shared;
  private readonly budgeted: boolean;

  constructor(
    private readonly options: TemplateEngineOptions,
    /** An engine bound to a source (withSource): the same environment, cache and budget as the hub's. */
    bound?: { readonly shared: Shared; readonly source: RenderSource },
  ) {
    this.limits = { ...DEFAULT_TEMPLATE_LIMITS, ...options.limits };
    this.shared = bound?.shared ?? {
      env: undefined,
      cache: new Map(),
      budget: new TemplateBudget(this.limits, (err) => options.core.log.error({ err }, 'a template job failed')),
    };
    this.source = bound?.source;
    this.budgeted = options.budget !== false;
  }

  get budget(): TemplateBudget {
    return this.shared.budget;
  }

  /** This engine, its renders counted against a new source (an automation, an entity, a subscription). */
  forSource(options: SourceOptions): TemplateEngine {
    return this.withSource(this.shared.budget.source(options));
  }

  withSource(source: RenderSource): TemplateEngine {
    return new TemplateEngine(this.options, { shared: this.shared, source });
  }

  /** Runs `job`, which renders for this engine's source, now if the budget has room, else once it has (each job queued once). */
  schedule(job: () => void): void {
    if (this.budgeted) this.shared.budget.run(this.source, job);
    else job();
  }

  /** Whether a render of this engine's source may start now (room in the turn and in every share). */
  canStart(): boolean {
    return !this.budgeted || this.shared.budget.canStart(this.source);
  }

  /** Forgets a scheduled job that has not run yet. */
  cancel(job: () => void): void {
    this.shared.budget.cancel(job);
  }

  /** undefined when this engine's source may render now, else a promise for when it may (runs await it between steps). */
  ready(): Promise<void> | undefined {
    return this.budgeted ? this.shared.budget.ready(this.source) : undefined;
  }

  /** The source's input or configuration changed: a suspended source renders again. */
  resume(): void {
    this.source?.resume();
  }

  /** Made on the first template that is not static: a hub without templates never loads nunjucks. */
  private get env(): NjEnvironment {
    if (this.shared.env === undefined) {
      const name = this.options.timeZone ?? 'UTC';
      const zone: PyZone = { name, offsets: zoneOffsets(name) ?? UTC_OFFSETS };
      const { core, registries, location } = this.options;
      const env = environmentFor({ core, registries, zone, home: location ?? (() => homeOf(core)) });
      this.shared.env = env;
      warmUp(env);
    }
    return this.shared.env;
  }

  /** How many compiled templates are cached (bounded by limits.cachedTemplates). */
  get cachedCount(): number {
    return this.shared.cache.size;
  }

  /** Compiles without rendering (and without a deadline: configuration is checked as it loads); throws a TemplateError for a syntax problem. */
  check(source: string, name = 'template'): void {
    const compiled = this.cached(source) ?? this.compile(source, name, undefined);
    if (compiled.kind === 'error') throw renamed(compiled.error, name);
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

  /**
   * Renders to text; throws a TemplateError. The render counts against its source's budget: it fails at once
   * while the source is suspended or out of its share, and stops at the deadline (compiling included); two
   * stopped there in a row suspend the source.
   */
  renderText(source: string, name: string, info: RenderInfo, options: RenderOptions = {}): string {
    const owner = this.source;
    if (this.budgeted && owner?.suspension !== undefined) throw new TemplateError('TimeoutError', owner.suspension, name, undefined);
    let compiled = this.cached(source);
    if (compiled?.kind === 'static' || (compiled === undefined && !isTemplate(source))) return source;
    if (compiled?.kind === 'error') throw renamed(compiled.error, name);
    const env = this.env;
    const start = performance.now();
    const budget = this.shared.budget;
    if (this.budgeted && owner !== undefined) {
      const refused = budget.refusal(owner, start);
      if (refused !== undefined) {
        owner.warn(`${owner.name}: a template was ${refused}`);
        throw new TemplateError('TimeoutError', refused, name, undefined);
      }
    }
    const { renderMs, compileMs } = this.limits;
    const limitMs = Math.min(
      compiled === undefined ? Math.max(compileMs, renderMs) : renderMs,
      options.limitMs ?? Number.POSITIVE_INFINITY,
    );
    const scope: RenderScope = {
      info,
      templateName: name,
      nowUs: this.options.core.clock.now(),
      strict: options.strict === true,
      start,
      deadline: start + limitMs,
      limitMs,
      maxOutputChars: this.limits.outputChars,
      maxStringChars: this.limits.stringChars,
      steps: 0,
      outputChars: 0,
      lastMissing: undefined,
    };
    try {
      compiled ??= this.compile(source, name, scope, env);
      if (compiled.kind === 'error') throw renamed(compiled.error, name);
      if (compiled.kind === 'static') return source;
      const template = compiled.template;
      const variables: Record<string, unknown> = {};
      // A variable named __proto__ would become the variables' prototype when copied; such names are never variables.
      for (const [k, v] of Object.entries(options.variables ?? {})) {
        if (!FORBIDDEN_NAMES.has(k)) variables[k] = v instanceof LiveVariable ? v.read() : v;
      }
      const text = inScope(scope, () => template.render(variables));
      if (text.length > this.limits.outputChars) {
        throw new TemplateError('OutputTooLarge', `the output is over the limit of ${this.limits.outputChars} characters`, name, undefined);
      }
      if (this.budgeted) owner?.succeeded();
      return text.trim();
    } catch (err) {
      const error = toTemplateError(err, name);
      if (this.budgeted && error.templateKind === 'TimeoutError') owner?.timedOut();
      throw error;
    } finally {
      if (this.budgeted) {
        const end = performance.now();
        budget.charge(owner, end, end - start);
      }
    }
  }

  /** Renders and reads the result as Home Assistant does (a number, list, dict, bool or None when it parses as one). */
  renderValue(source: string, options: RenderOptions = {}): { value: unknown; info: RenderInfo } {
    const info = new RenderInfo();
    const text = this.renderText(source, options.name ?? 'template', info, options);
    return { value: parseResult(text), info };
  }

  /** A cached compile, moved to the end (least recently used first out). */
  private cached(source: string): Compiled | undefined {
    const { cache } = this.shared;
    const hit = cache.get(source);
    if (hit !== undefined) {
      cache.delete(source);
      cache.set(source, hit);
    }
    return hit;
  }

  /**
   * Compiles and caches; a syntax error is cached as the outcome, a timeout is not (the source is suspended
   * instead). With a scope, compiling counts against its deadline.
   */
  private compile(source: string, name: string, scope: RenderScope | undefined, env = this.env): Compiled {
    let compiled: Compiled;
    if (source.length > this.limits.sourceChars) {
      compiled = {
        kind: 'error',
        error: new TemplateError(
          'TemplateSyntaxError',
          `a template may have at most ${this.limits.sourceChars} characters`,
          name,
          undefined,
        ),
      };
    } else if (!isTemplate(source)) compiled = { kind: 'static' };
    else {
      try {
        const template =
          scope === undefined ? compileTemplate(env, source, name) : inScope(scope, () => compileTemplate(env, source, name));
        compiled = { kind: 'compiled', template };
      } catch (err) {
        const error = toTemplateError(err, name);
        if (error.templateKind === 'TimeoutError') throw error;
        compiled = { kind: 'error', error };
      }
    }
    const { cache } = this.shared;
    if (cache.size >= this.limits.cachedTemplates) {
      const oldest = cache.keys().next();
      if (oldest.done !== true) cache.delete(oldest.value);
    }
    cache.set(source, compiled);
    return compiled;
  }
}

/** The home zone's coordinates, as the hub's location (HA's hass.config.latitude/longitude). */
function homeOf(core: Core): HomeLocation | undefined {
  const home = core.states.get('zone.home');
  const { latitude, longitude } = home?.attributes ?? {};
  return typeof latitude === 'number' && typeof longitude === 'number' ? { latitude, longitude } : undefined;
}

/** A cached syntax error, naming the template as this caller names it. */
function renamed(error: TemplateError, name: string): TemplateError {
  return error.templateName === name ? error : new TemplateError(error.templateKind, error.detail, name, error.position, error.limitMs);
}

/** Any error out of a render as a TemplateError with the kind, the message and the position nunjucks knew. */
function toTemplateError(err: unknown, name: string): TemplateError {
  if (err instanceof TemplateError) return err;
  const e = err instanceof Error ? err : new Error(String(err));
  const { cause, lineno, colno } = e as Error & { cause?: unknown; lineno?: unknown; colno?: unknown };
  const inner = cause instanceof Error ? cause : e;
  const position =
    typeof lineno === 'number' && lineno >= 0 ? { line: lineno + 1, column: (typeof colno === 'number' ? colno : 0) + 1 } : undefined;
  if (inner instanceof TemplateFault) return new TemplateError(inner.kind, inner.message, name, position, inner.limitMs);
  if (inner instanceof RangeError) {
    const message = /call stack/i.test(inner.message) ? 'the template recursed too deeply' : 'a value grew too large';
    return new TemplateError('TemplateRuntimeError', message, name, position);
  }
  return new TemplateError('TemplateRuntimeError', bareMessage(inner), name, position);
}
