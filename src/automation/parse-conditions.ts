import { type ConfigIssue, type ConfigPath, ConfigReader, kindOf } from '../config/reader.js';
import type { JsonValue } from '../core/json.js';
import { finishReader, isTemplate, listItems, parseTimeBound, readEntityIds, readStringOrList } from './config-values.js';
import { CONDITION_KINDS, type Condition } from './model.js';
import { checkBounds, forOf, readBound, readKind, readTemplate } from './parse-triggers.js';
import { parseSunCondition } from './sun-rules.js';
import { checkTemplate } from './templating.js';
import { parseZoneCondition } from './zone-rules.js';

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const LOGICAL = ['and', 'or', 'not'] as const;

/** The shorthand `- or: [...]` (no `condition:` key) is accepted as Home Assistant does. */
function shorthandKind(value: JsonValue): 'and' | 'or' | 'not' | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || 'condition' in value) return undefined;
  return LOGICAL.find((k) => k in value);
}

/** Parses one condition; undefined when disabled (`enabled: false`) or after reporting a problem. */
export function parseCondition(value: JsonValue, path: ConfigPath, issues: ConfigIssue[]): Condition | undefined {
  if (typeof value === 'string') {
    // The shorthand `- "{{ ... }}"`: a template condition.
    if (!isTemplate(value)) {
      issues.push({ path, message: `expected a condition mapping or a template, got ${kindOf(value)}` });
      return undefined;
    }
    checkTemplate(value, path, issues);
    return { kind: 'template', template: value };
  }
  const r = ConfigReader.of(value, path, issues);
  const short = shorthandKind(value);
  let kind: string | undefined;
  let nestedKey = 'conditions';
  if (short !== undefined) {
    kind = short;
    nestedKey = short;
  } else {
    kind = readKind(r, 'condition', undefined, 'condition', CONDITION_KINDS)?.kind;
    if (kind === undefined) return undefined;
  }
  r.string('alias');
  const enabled = r.boolean('enabled', true);
  let condition: Condition | undefined;
  switch (kind) {
    case 'state': {
      const states = readStringOrList(r, 'state', 'a state');
      if (states === undefined) r.problem('state', 'is required: expected a state or a list of states');
      condition = {
        kind: 'state',
        entityIds: readEntityIds(r, 'entity_id', { required: true }),
        states: states ?? [],
        attribute: r.string('attribute'),
        ...forOf(r),
        matchAny: r.oneOf('match', ['all', 'any'] as const, 'all') === 'any',
      };
      break;
    }
    case 'numeric_state': {
      const above = readBound(r, 'above');
      const below = readBound(r, 'below');
      checkBounds(r, above, below);
      condition = {
        kind: 'numeric_state',
        entityIds: readEntityIds(r, 'entity_id', { required: true }),
        above,
        below,
        attribute: r.string('attribute'),
        valueTemplate: readTemplate(r, 'value_template', false),
      };
      break;
    }
    case 'template':
      condition = { kind: 'template', template: readTemplate(r, 'value_template', true) ?? '' };
      break;
    case 'time': {
      const after = r.raw('after');
      const before = r.raw('before');
      const days = readStringOrList(r, 'weekday', 'a weekday');
      const weekdays: number[] = [];
      for (const d of days ?? []) {
        const i = WEEKDAYS.indexOf(d);
        if (i < 0) r.problem('weekday', `${JSON.stringify(d)} is not allowed: expected one of ${WEEKDAYS.join(', ')}`);
        else weekdays.push(i);
      }
      if (after === undefined && before === undefined && days === undefined) {
        r.problem(undefined, 'must contain at least one of after, before, weekday');
      }
      condition = {
        kind: 'time',
        after: after === undefined ? undefined : parseTimeBound(after, [...path, 'after'], issues),
        before: before === undefined ? undefined : parseTimeBound(before, [...path, 'before'], issues),
        weekdays: days === undefined ? undefined : weekdays,
      };
      break;
    }
    case 'and':
    case 'or':
    case 'not': {
      const raw = r.raw(nestedKey);
      if (raw === undefined) r.problem(nestedKey, `is required: expected a list of conditions`);
      condition = { kind, conditions: parseConditions(raw, [...path, nestedKey], issues) };
      break;
    }
    case 'sun':
      condition = parseSunCondition(r);
      break;
    case 'zone':
      condition = parseZoneCondition(r);
      break;
    case 'trigger': {
      const ids = readStringOrList(r, 'id', 'a trigger id');
      if (ids === undefined) r.problem('id', 'is required: expected a trigger id or a list of them');
      condition = { kind: 'trigger', ids: ids ?? [] };
      break;
    }
  }
  finishReader(r);
  return enabled ? condition : undefined;
}

/** Parses a list of conditions (a single mapping counts as a list of one). */
export function parseConditions(value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): Condition[] {
  if (typeof value === 'string') {
    const c = parseCondition(value, path, issues);
    return c === undefined ? [] : [c];
  }
  const out: Condition[] = [];
  for (const item of listItems(value, path)) {
    const c = parseCondition(item.value, item.path, issues);
    if (c !== undefined) out.push(c);
  }
  return out;
}
