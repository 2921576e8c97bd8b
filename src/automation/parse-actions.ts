import { type ConfigIssue, type ConfigPath, ConfigReader, kindOf } from '../config/reader.js';
import { MAX_EVENT_TYPE_LENGTH } from '../core/entity-id.js';
import { TARGET_KEYS } from '../core/fields.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { finishReader, isTemplate, listItems, parseDuration, readEntityIds, readMapping, TEMPLATE_NOT_ALLOWED } from './config-values.js';
import { readDurationOrTemplate } from './durations.js';
import type { Action, Condition } from './model.js';
import { parseCondition, parseConditions } from './parse-conditions.js';
import { parseParallel, parseRepeat } from './parse-loops.js';
import { parseTriggers, readTemplate } from './parse-triggers.js';
import { checkTemplate, checkTemplates, hasTemplate } from './templating.js';

/** `timeout:` as a fixed duration or a template rendered when the wait starts. */
function timeoutOf(r: ConfigReader): { timeoutMs?: number; timeoutTemplate?: JsonValue } {
  const d = readDurationOrTemplate(r, 'timeout');
  return d.template === undefined ? { timeoutMs: d.ms } : { timeoutTemplate: d.template };
}

/** Which key makes an action of which kind (checked in this order, as Home Assistant does). */
const ACTION_KEYS = [
  'action',
  'service',
  'delay',
  'event',
  'condition',
  'wait_for_trigger',
  'wait_template',
  'stop',
  'variables',
  'scene',
  'if',
  'choose',
  'sequence',
  'repeat',
  'parallel',
] as const;
const UNSUPPORTED_ACTIONS: Readonly<Record<string, string>> = {
  device_id: 'device actions are not supported; call a service instead',
  set_conversation_response: 'conversation responses are not supported',
};
const SERVICE_NAME = /^[a-z0-9_]+\.[a-z0-9_]+$/;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function readVariableName(r: ConfigReader, key: string): string | undefined {
  return r.string(key, { pattern: VARIABLE_NAME, patternText: 'a variable name (letters, digits and _)' });
}

function readTarget(r: ConfigReader): JsonObject | undefined {
  const rawTarget = r.value.target;
  if (hasTemplate(rawTarget) || hasTemplate(r.value.entity_id)) {
    // Rendered per run; the service checks what the templates give.
    const target = readMapping(r, 'target') ?? {};
    const topLevel = r.raw('entity_id');
    checkTemplates(target, [...r.path, 'target'], r.issues);
    checkTemplates(topLevel, [...r.path, 'entity_id'], r.issues);
    return topLevel === undefined ? target : { ...target, entity_id: topLevel };
  }
  const t = r.child('target');
  const rawTop = r.value.entity_id;
  // `all` and `none` are the two words an entity_id may hold besides ids, at the top level as in target.
  const topLevel =
    rawTop === 'all' || rawTop === 'none' ? (r.raw('entity_id') as string) : r.has('entity_id') ? readEntityIds(r, 'entity_id') : undefined;
  if (t === undefined) return topLevel === undefined ? undefined : { entity_id: topLevel };
  const out: Record<string, JsonValue> = {};
  for (const key of TARGET_KEYS) {
    if (!t.has(key)) continue;
    if (key === 'entity_id') {
      const raw = t.value.entity_id;
      out.entity_id = raw === 'all' || raw === 'none' ? (t.raw(key) as string) : readEntityIds(t, key);
    } else {
      const ids = t.raw(key);
      const list = typeof ids === 'string' ? [ids] : ids;
      if (!Array.isArray(list) || list.some((v) => typeof v !== 'string')) {
        t.problem(key, `expected an id or a list of ids, got ${kindOf(ids)}`);
      } else out[key] = list;
    }
  }
  t.rejectUnknown();
  if (topLevel !== undefined) {
    if (out.entity_id !== undefined) r.problem('entity_id', 'give entity_id either in target or at the top level, not both');
    else out.entity_id = topLevel;
  }
  return out;
}

function parseService(
  r: ConfigReader,
  nameKey: 'action' | 'service',
  base: { continueOnError: boolean; alias?: string },
): Action | undefined {
  if (r.has('action') && r.has('service')) r.problem('service', 'give either action: or the legacy service:, not both');
  const name = r.raw(nameKey);
  let nameTemplate: string | undefined;
  if (isTemplate(name)) {
    nameTemplate = name as string;
    checkTemplate(nameTemplate, [...r.path, nameKey], r.issues);
  } else if (typeof name !== 'string' || !SERVICE_NAME.test(name)) {
    r.problem(nameKey, `${JSON.stringify(name)} is not a service: expected <domain>.<service>, e.g. light.turn_on`);
    return undefined;
  }
  r.raw('metadata');
  const [domain, service] = nameTemplate === undefined ? ((name as string).split('.') as [string, string]) : ['', ''];
  if (r.has('data') && r.has('data_template')) r.problem('data_template', 'give either data: or the legacy data_template:, not both');
  const dataKey = r.has('data_template') ? 'data_template' : 'data';
  const data = readMapping(r, dataKey) ?? {};
  checkTemplates(data, [...r.path, dataKey], r.issues);
  return {
    ...base,
    kind: 'service',
    domain,
    service,
    nameTemplate,
    data,
    target: readTarget(r),
    responseVariable: readVariableName(r, 'response_variable'),
  };
}

function parseActionKind(
  kind: Exclude<(typeof ACTION_KEYS)[number], 'condition'>,
  r: ConfigReader,
  base: { continueOnError: boolean; alias?: string },
): Action | undefined {
  const { path, issues } = r;
  switch (kind) {
    case 'action':
    case 'service':
      return parseService(r, kind, base);
    case 'delay': {
      const raw = r.raw('delay');
      if (hasTemplate(raw)) {
        checkTemplates(raw, [...path, 'delay'], issues);
        return { ...base, kind: 'delay', ms: 0, template: raw };
      }
      const ms = parseDuration(raw, [...path, 'delay'], issues);
      return ms === undefined ? undefined : { ...base, kind: 'delay', ms };
    }
    case 'event': {
      const eventType = r.string('event', { required: true });
      if (isTemplate(eventType)) r.problem('event', TEMPLATE_NOT_ALLOWED);
      else if (eventType.length === 0 || eventType.length > MAX_EVENT_TYPE_LENGTH) {
        r.problem('event', `expected an event type of 1 to ${MAX_EVENT_TYPE_LENGTH} characters`);
      }
      if (r.has('event_data') && r.has('event_data_template')) {
        r.problem('event_data_template', 'give either event_data: or the legacy event_data_template:, not both');
      }
      const dataKey = r.has('event_data_template') ? 'event_data_template' : 'event_data';
      const eventData = readMapping(r, dataKey) ?? {};
      checkTemplates(eventData, [...path, dataKey], issues);
      return { ...base, kind: 'event', eventType, eventData };
    }
    case 'wait_for_trigger': {
      const triggers = parseTriggers(r.raw('wait_for_trigger'), [...path, 'wait_for_trigger'], issues);
      return {
        ...base,
        kind: 'wait_for_trigger',
        triggers,
        ...timeoutOf(r),
        continueOnTimeout: r.boolean('continue_on_timeout', true),
      };
    }
    case 'wait_template':
      return {
        ...base,
        kind: 'wait_template',
        template: readTemplate(r, 'wait_template', true) ?? '',
        ...timeoutOf(r),
        continueOnTimeout: r.boolean('continue_on_timeout', true),
      };
    case 'stop': {
      const reason = r.raw('stop');
      if (typeof reason !== 'string') r.problem('stop', `expected a reason (a string), got ${kindOf(reason)}`);
      return {
        ...base,
        kind: 'stop',
        reason: typeof reason === 'string' ? reason : '',
        error: r.boolean('error', false),
        responseVariable: readVariableName(r, 'response_variable'),
      };
    }
    case 'variables': {
      const values = readMapping(r, 'variables') ?? {};
      checkTemplates(values, [...path, 'variables'], issues);
      for (const key of Object.keys(values)) {
        if (!VARIABLE_NAME.test(key))
          r.issues.push({ path: [...path, 'variables', key], message: 'is not a variable name (letters, digits and _)' });
      }
      return { ...base, kind: 'variables', values };
    }
    case 'scene': {
      const [entityId] = readEntityIds(r, 'scene', { required: true, domain: 'scene' });
      return entityId === undefined ? undefined : { ...base, kind: 'scene', entityId };
    }
    case 'if': {
      const conditions = parseConditions(r.raw('if'), [...path, 'if'], issues);
      if (!r.has('then')) r.problem('then', 'is required: expected a list of actions');
      const then = parseActions(r.raw('then'), [...path, 'then'], issues);
      const otherwise = r.has('else') ? parseActions(r.raw('else'), [...path, 'else'], issues) : undefined;
      return { ...base, kind: 'if', conditions, then, else: otherwise };
    }
    case 'choose': {
      const options: { conditions: Condition[]; sequence: Action[] }[] = [];
      for (const item of listItems(r.raw('choose'), [...path, 'choose'])) {
        const o = ConfigReader.of(item.value, item.path, issues);
        o.string('alias');
        if (!o.has('conditions')) o.problem('conditions', 'is required: expected a list of conditions');
        if (!o.has('sequence')) o.problem('sequence', 'is required: expected a list of actions');
        const conditions = parseConditions(o.raw('conditions'), [...item.path, 'conditions'], issues);
        const sequence = parseActions(o.raw('sequence'), [...item.path, 'sequence'], issues);
        finishReader(o);
        options.push({ conditions, sequence });
      }
      const fallback = r.has('default') ? parseActions(r.raw('default'), [...path, 'default'], issues) : undefined;
      return { ...base, kind: 'choose', options, default: fallback };
    }
    case 'sequence':
      return { ...base, kind: 'sequence', actions: parseActions(r.raw('sequence'), [...path, 'sequence'], issues) };
    case 'repeat':
      return parseRepeat(r, base, parseActions);
    case 'parallel':
      return parseParallel(r, base, parseActions);
  }
}

/** Parses one action; undefined when disabled (`enabled: false`) or after reporting a problem. */
export function parseAction(value: JsonValue, path: ConfigPath, issues: ConfigIssue[]): Action | undefined {
  if (!isJsonObject(value)) {
    issues.push({ path, message: `expected an action mapping, got ${isTemplate(value) ? 'a template' : kindOf(value)}` });
    return undefined;
  }
  for (const [key, message] of Object.entries(UNSUPPORTED_ACTIONS)) {
    if (value[key] !== undefined) {
      issues.push({ path: [...path, key], message });
      return undefined;
    }
  }
  const isCondition = 'condition' in value || 'and' in value || 'or' in value || 'not' in value;
  const legacyName = value.service_template !== undefined && value.service === undefined && value.action === undefined;
  if (legacyName) {
    // service_template: the legacy key of a templated service name.
    const { service_template: name, ...rest } = value;
    return parseAction({ ...rest, service: name ?? null }, path, issues);
  }
  const kind = isCondition ? 'condition' : ACTION_KEYS.find((k) => value[k] !== undefined);
  if (kind === undefined) {
    issues.push({
      path,
      message: `unknown action: expected one of the keys ${ACTION_KEYS.join(', ')} (action: is a service call, service: its legacy name)`,
    });
    return undefined;
  }
  if (kind === 'condition') {
    // The action is itself a condition (alias and enabled included); it stops the run when false.
    const { continue_on_error: _ignored, ...condition } = value;
    const c = parseCondition(condition, path, issues);
    return c === undefined ? undefined : { kind: 'condition', condition: c, continueOnError: false };
  }
  const r = ConfigReader.of(value, path, issues);
  const alias = r.string('alias');
  const enabled = r.boolean('enabled', true);
  const base = { alias, continueOnError: r.boolean('continue_on_error', false) };
  const action = parseActionKind(kind, r, base);
  finishReader(r);
  return enabled ? action : undefined;
}

/** Parses a list of actions (a single mapping counts as a list of one). */
export function parseActions(value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): Action[] {
  const out: Action[] = [];
  listItems(value, path).forEach((item, i) => {
    const a = parseAction(item.value, item.path, issues);
    if (a !== undefined) out.push(i === out.length ? a : { ...a, pos: i });
  });
  return out;
}
