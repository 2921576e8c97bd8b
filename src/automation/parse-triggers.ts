import { type ConfigIssue, type ConfigPath, ConfigReader, kindOf } from '../config/reader.js';
import { isValidEntityId, MAX_EVENT_TYPE_LENGTH } from '../core/entity-id.js';
import type { JsonValue } from '../core/json.js';
import {
  finishReader,
  isTemplate,
  listItems,
  parseTimeOfDay,
  present,
  readEntityIds,
  readMapping,
  readStringOrList,
  TEMPLATE_NOT_ALLOWED,
  TIME_ENTITY,
} from './config-values.js';
import { readDurationOrTemplate } from './durations.js';
import { type NumericBound, TRIGGER_KINDS, type Trigger } from './model.js';

import { parseSunTrigger } from './sun-rules.js';
import { checkTemplate, checkTemplates } from './templating.js';
import { parseTimePattern } from './time-pattern.js';
import { parseZoneTrigger } from './zone-rules.js';

/** `for:` as a fixed duration or a template rendered when the trigger fires. */
export function forOf(r: ConfigReader): { forMs?: number; forTemplate?: JsonValue } {
  const d = readDurationOrTemplate(r, 'for');
  return d.template === undefined ? { forMs: d.ms } : { forTemplate: d.template };
}

/** A key that holds a template (value_template, wait_template): required or not, compiled at load. */
export function readTemplate(r: ConfigReader, key: string, required: boolean): string | undefined {
  const v = r.raw(key);
  if (v === undefined) {
    if (required) r.problem(key, "is required: expected a template, e.g. \"{{ is_state('sun.sun', 'above_horizon') }}\"");
    return undefined;
  }
  if (typeof v === 'boolean') return v ? '{{ true }}' : '{{ false }}';
  if (typeof v !== 'string' && typeof v !== 'number') {
    r.problem(key, `expected a template (a string), got ${kindOf(v)}`);
    return undefined;
  }
  const text = String(v);
  checkTemplate(text, [...r.path, key], r.issues);
  return text;
}

/** An MQTT subscription filter: `+` and `#` only as whole levels, `#` last. */
const MQTT_FILTER = /^(?:[^+#/]*|\+)(?:\/(?:[^+#/]*|\+))*(?:\/#)?$|^#$/;

/** Reads the type key of a trigger or condition: the 2024.10+ key, or the legacy one. */
export function readKind(r: ConfigReader, newKey: string, legacyKey: string | undefined, what: string, kinds: readonly string[]) {
  const hasNew = r.has(newKey);
  const hasLegacy = legacyKey !== undefined && r.has(legacyKey);
  if (hasNew && hasLegacy) {
    r.problem(legacyKey, `give either ${newKey}: or the legacy ${legacyKey}:, not both`);
  }
  const key = hasNew || !hasLegacy ? newKey : (legacyKey as string);
  const v = r.raw(key);
  if (v === undefined) {
    const legacy = legacyKey === undefined ? '' : ` (or the legacy ${legacyKey}: <type>)`;
    r.problem(undefined, `a ${what} needs a type: give ${newKey}: <type>${legacy}, one of ${kinds.join(', ')}`);
    return undefined;
  }
  if (isTemplate(v)) {
    r.problem(key, TEMPLATE_NOT_ALLOWED);
    return undefined;
  }
  if (typeof v !== 'string' || !kinds.includes(v)) {
    r.problem(key, `unknown ${what} type ${JSON.stringify(v)}; supported: ${kinds.join(', ')}`);
    return undefined;
  }
  return { kind: v, key };
}

/** above/below: a number, or the entity whose numeric state is the bound. */
export function readBound(r: ConfigReader, key: string): NumericBound | undefined {
  const v = r.raw(key);
  if (v === undefined) return undefined;
  if (isTemplate(v)) {
    r.problem(key, TEMPLATE_NOT_ALLOWED);
    return undefined;
  }
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string') {
    const id = v.trim().toLowerCase();
    if (id !== '' && Number.isFinite(Number(id))) return Number(id);
    if (isValidEntityId(id)) return { entityId: id };
  }
  r.problem(key, `${JSON.stringify(v)} is not allowed: expected a number or the entity id of a numeric entity`);
  return undefined;
}

/** Checks that above < below when both are numbers. */
export function checkBounds(r: ConfigReader, above: NumericBound | undefined, below: NumericBound | undefined): void {
  if (above === undefined && below === undefined) {
    r.problem(undefined, 'must contain at least one of above, below');
  } else if (typeof above === 'number' && typeof below === 'number' && above >= below) {
    r.problem('above', `above (${above}) must be less than below (${below}): no value could ever match`);
  }
}

function readStateMatch(r: ConfigReader, key: string): readonly string[] | undefined {
  if (!present(r, key) || r.value[key] === null) {
    r.raw(key);
    return undefined;
  }
  return readStringOrList(r, key, 'a state');
}

/** Parses one trigger; undefined after reporting a problem. */
export function parseTrigger(value: JsonValue, path: ConfigPath, issues: ConfigIssue[], index: number): Trigger | undefined {
  const r = ConfigReader.of(value, path, issues);
  const kind = readKind(r, 'trigger', 'platform', 'trigger', TRIGGER_KINDS);
  if (kind === undefined) return undefined;
  const id = r.string('id') ?? String(index);
  r.string('alias');
  const enabled = r.boolean('enabled', true);
  r.raw('variables');
  const base = { id, index, enabled };
  let trigger: Trigger | undefined;
  switch (kind.kind) {
    case 'state': {
      const matchAll = !['from', 'to', 'not_from', 'not_to'].some((k) => present(r, k));
      const from = readStateMatch(r, 'from');
      const to = readStateMatch(r, 'to');
      const notFrom = readStateMatch(r, 'not_from');
      const notTo = readStateMatch(r, 'not_to');
      if (from !== undefined && notFrom !== undefined) r.problem('not_from', 'give either from or not_from, not both');
      if (to !== undefined && notTo !== undefined) r.problem('not_to', 'give either to or not_to, not both');
      trigger = {
        ...base,
        kind: 'state',
        entityIds: readEntityIds(r, 'entity_id', { required: true }),
        from,
        to,
        notFrom,
        notTo,
        attribute: r.string('attribute'),
        matchAll,
        ...forOf(r),
      };
      break;
    }
    case 'numeric_state': {
      const above = readBound(r, 'above');
      const below = readBound(r, 'below');
      checkBounds(r, above, below);
      trigger = {
        ...base,
        kind: 'numeric_state',
        entityIds: readEntityIds(r, 'entity_id', { required: true }),
        above,
        below,
        attribute: r.string('attribute'),
        valueTemplate: readTemplate(r, 'value_template', false),
        ...forOf(r),
      };
      break;
    }
    case 'template': {
      const template = readTemplate(r, 'value_template', true) ?? '';
      trigger = { ...base, kind: 'template', template, ...forOf(r) };
      break;
    }
    case 'time': {
      const at: number[] = [];
      const entities: string[] = [];
      const raw = r.raw('at');
      if (raw === undefined)
        r.problem('at', 'is required: expected a time of day "HH:MM[:SS]", an input_datetime or timestamp sensor, or a list of them');
      for (const item of listItems(raw, [...path, 'at'])) {
        if (typeof item.value === 'string' && TIME_ENTITY.test(item.value.trim())) {
          entities.push(item.value.trim());
          continue;
        }
        const t = parseTimeOfDay(item.value, item.path, issues);
        if (t !== undefined) at.push(t);
      }
      trigger = { ...base, kind: 'time', at, entities };
      break;
    }
    case 'time_pattern':
      trigger = parseTimePattern(r, base);
      break;
    case 'sun':
      trigger = parseSunTrigger(r, base);
      break;
    case 'zone':
      trigger = parseZoneTrigger(r, base);
      break;
    case 'event': {
      const types = readStringOrList(r, 'event_type', 'an event type') ?? [];
      if (!r.has('event_type')) r.problem('event_type', 'is required: expected an event type or a list of them');
      for (const t of types) {
        if (t === '' || t.length > MAX_EVENT_TYPE_LENGTH) {
          r.problem('event_type', `${JSON.stringify(t)} is not allowed: expected 1 to ${MAX_EVENT_TYPE_LENGTH} characters`);
        }
      }
      const eventData = readMapping(r, 'event_data');
      checkTemplates(eventData, [...path, 'event_data'], issues);
      trigger = { ...base, kind: 'event', eventTypes: types, eventData };
      break;
    }
    case 'homeassistant': {
      const event = r.oneOf('event', ['start', 'shutdown'] as const);
      if (event === undefined && !r.has('event')) r.problem('event', 'is required: expected one of start, shutdown');
      trigger = { ...base, kind: 'homeassistant', event: event ?? 'start' };
      break;
    }
    case 'mqtt': {
      const topic = r.string('topic', {
        required: true,
        pattern: MQTT_FILTER,
        patternText: 'an MQTT topic; + and # only as whole levels, # last',
      });
      const payload = r.string('payload');
      const valueTemplate = readTemplate(r, 'value_template', false);
      r.oneOf('encoding', ['utf-8', '']);
      r.number('qos', { min: 0, max: 2, integer: true });
      trigger = { ...base, kind: 'mqtt', topic, payload, valueTemplate };
      break;
    }
  }
  finishReader(r);
  return trigger;
}

/** Parses a list of triggers (a single mapping counts as a list of one). */
export function parseTriggers(value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): Trigger[] {
  if (typeof value === 'string') {
    issues.push({ path, message: `expected a list of triggers, got ${isTemplate(value) ? 'a template' : kindOf(value)}` });
    return [];
  }
  const out: Trigger[] = [];
  listItems(value, path).forEach((item, i) => {
    const t = parseTrigger(item.value, item.path, issues, i);
    if (t !== undefined) out.push(t);
  });
  return out;
}
