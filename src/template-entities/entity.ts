import { errorText, levelFor, resultAsBoolean, type TemplateVars, templateState } from '../automation/templating.js';
import type { Context } from '../core/context.js';
import type { Core } from '../core/core.js';
import type { Entity } from '../core/entities.js';
import type { JsonValue } from '../core/json.js';
import type { Logger } from '../core/log.js';
import { setOwn } from '../core/own-keys.js';
import { DEFAULT_NUMBER_MAX, DEFAULT_NUMBER_MIN, type NumberRange, numberState } from '../domains/number.js';
import { parseResult, RenderInfo, type TemplateEngine } from '../template/index.js';
import type { TemplateEntityDefinition } from './config.js';

export const TEMPLATE_OWNER = 'template';

/**
 * What a render gave: the state (null is unknown, undefined unavailable), the attributes, and for a number its range
 * and for a select its options (each rendered from its own template).
 */
export interface Rendered {
  readonly state: string | null | undefined;
  readonly attributes: Record<string, JsonValue>;
  readonly range?: NumberRange;
  readonly options?: readonly string[];
  /** cover, light, fan and lock: each of their own templates' result (None is null). */
  readonly values?: ReadonlyMap<string, JsonValue>;
}

/** A state and attributes as a domain presents a render (or an optimistic change) to the entity. */
export interface Presented {
  readonly state: string | null;
  readonly attributes: Record<string, JsonValue>;
}

/** A rendered min, max or step as vol.Coerce(float) reads it; the default when it is not a number. */
function renderedNumber(value: unknown, fallback: number | undefined): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : fallback;
}

/** Rendered options as cv.ensure_list and [cv.string] read them. */
function renderedOptions(value: unknown): string[] {
  if (value === null || value === undefined || value === '') return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((o) => (typeof o === 'string' ? o : JSON.stringify(o)));
}

/**
 * One template entity's rendering, as Home Assistant's template entities render: availability first (false is
 * unavailable), then the state, icon, picture and attributes; a render error makes the entity unavailable and is
 * logged once, until a render succeeds again. What the renders read is kept (RenderInfo) for the re-render, also
 * what a failed render read: when it changes, the entity renders again (and a suspended one resumes).
 */
export class TemplateRenderer {
  /** Everything the last render read. */
  info = new RenderInfo();
  private failing: string | undefined;

  constructor(
    /** The hub's engine bound to this entity: its templates are one source of the template budget. */
    readonly engine: TemplateEngine,
    private readonly log: Logger,
    readonly def: TemplateEntityDefinition,
    readonly entityId: string,
  ) {}

  render(core: Core, extra: TemplateVars, optimistic: string | null): Rendered {
    const info = new RenderInfo();
    const variables = { ...extra, this: templateState(core.states.get(this.entityId)) };
    const one = (source: string, key: string): string => {
      const out = this.engine.tryRender(source, { name: `${this.entityId} ${key}`, variables });
      for (const id of out.info.entities) info.entity(id);
      for (const d of out.info.domains) info.domain(d);
      if (out.info.all) info.all = true;
      if (out.info.time) info.time = true;
      if (!out.ok) throw out.error;
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
        setOwn(attributes, key, parseResult(one(source, `attributes.${key}`)) as JsonValue);
      const state = def.state === undefined ? optimistic : this.stateOf(one(def.state, 'state'));
      const range =
        def.domain === 'number'
          ? {
              min: renderedNumber(parseResult(one(def.min ?? '0', 'min')), DEFAULT_NUMBER_MIN) ?? DEFAULT_NUMBER_MIN,
              max: renderedNumber(parseResult(one(def.max ?? '100', 'max')), DEFAULT_NUMBER_MAX) ?? DEFAULT_NUMBER_MAX,
              step: renderedNumber(parseResult(one(def.step ?? '1', 'step')), undefined),
            }
          : undefined;
      const options = def.domain === 'select' ? renderedOptions(parseResult(one(def.options ?? '[]', 'options'))) : undefined;
      let values: Map<string, JsonValue> | undefined;
      if (def.device !== undefined) {
        values = new Map();
        for (const [key, source] of def.device.templates) values.set(key, parseResult(one(source, key)) as JsonValue);
      }
      this.info = info;
      this.failing = undefined;
      return { state, attributes, range, options, values };
    } catch (err) {
      this.info = info;
      const message = errorText(err);
      // The template budget's errors were warned about once already, for the entity.
      if (this.failing !== message)
        this.log[levelFor(err, 'error')]({ entity_id: this.entityId }, `${this.entityId}: Error rendering template: %s`, message);
      this.failing = message;
      return { state: undefined, attributes: {} };
    }
  }

  /** The state as each domain reads the text (template sensor, binary_sensor, switch, number and select). */
  private stateOf(text: string): string | null {
    const value = parseResult(text);
    if (value === null) return null;
    switch (this.def.domain) {
      case 'sensor':
      case 'select':
      case 'button':
      // Each of these reads its state text itself (with its other templates).
      case 'cover':
      case 'light':
      case 'fan':
      case 'lock':
        return text;
      case 'number':
        // vol.Coerce(float): the state is Python's str() of a float.
        return numberState(renderedNumber(value, undefined) ?? null, true);
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
  private lastAttributes: Record<string, JsonValue> = {};

  constructor(
    private readonly entity: Entity,
    private readonly def: TemplateEntityDefinition,
    /** Hands a render to the entity's domain, which presents it (a select reads the state with its options). */
    private readonly adapt?: (result: Rendered) => Presented,
  ) {}

  write(result: Rendered, context?: Context): void {
    const { attributes } = result;
    if (result.state === undefined) {
      this.cancel();
      this.entity.markUnavailable(context);
      return;
    }
    const presented = this.adapt === undefined ? { state: result.state, attributes } : this.adapt(result);
    const state = presented.state;
    this.lastAttributes = presented.attributes;
    const delay = state === 'on' ? this.def.delayOnMs : state === 'off' ? this.def.delayOffMs : undefined;
    const current = this.entity.state;
    if (state === null || delay === undefined || delay === 0 || current === undefined || current === state || current === 'unavailable') {
      this.cancel();
      this.entity.report(state, presented.attributes, context);
      return;
    }
    if (this.pendingState === state) return;
    this.cancel();
    this.pendingState = state;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.pendingState = undefined;
      this.entity.report(state, presented.attributes, context);
    }, delay);
  }

  /** An optimistic state with a state template: written at once with the last attributes, until the next render. */
  writeState(state: string | null, context?: Context): void {
    this.writePresented({ state, attributes: this.lastAttributes }, context);
  }

  /** An optimistic change a domain presents itself (cover, light, fan), until the next render. */
  writePresented(presented: Presented, context?: Context): void {
    if (!this.entity.available) return;
    this.cancel();
    this.lastAttributes = presented.attributes;
    this.entity.report(presented.state, presented.attributes, context);
  }

  cancel(): void {
    clearTimeout(this.pending);
    this.pending = undefined;
    this.pendingState = undefined;
  }
}
