import { type ConfigIssue, type ConfigPath, ConfigReader, kindOf } from '../config/reader.js';
import { isValidEntityId, MAX_STATE_LENGTH, slugify } from '../core/entity-id.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { setOwn } from '../core/own-keys.js';
import { DEFAULT_STORED_TRACES } from '../trace/store.js';
import { finishReader, isObjectId, readMapping, refuseTemplates } from './config-values.js';
import {
  type AutomationDefinition,
  DEFAULT_MAX_RUNS,
  MAX_EXCEEDED_LEVELS,
  MAX_MAX_RUNS,
  MAX_STORED_TRACES,
  RUN_MODES,
  type RunPolicy,
  type SceneDefinition,
  type SceneEntityState,
  type ScriptDefinition,
  type ScriptField,
} from './model.js';
import { parseActions } from './parse-actions.js';
import { parseConditions } from './parse-conditions.js';
import { parseTriggers } from './parse-triggers.js';
import { checkTemplates } from './templating.js';

/** `variables:` of an automation or script (a mapping whose templates render at each run), or `trigger_variables:`. */
function readVariables(r: ConfigReader, key = 'variables'): JsonObject {
  const values = readMapping(r, key) ?? {};
  checkTemplates(values, [...r.path, key], r.issues);
  return values;
}

/**
 * Parsers for the `automation:`, `script:` and `scene:` sections. The config validators and the extension
 * use the same functions, so what check-config accepts is exactly what runs.
 */

/** Upper bound for the entities of one scene (config, `scene.apply`, `scene.create`). */
export const MAX_SCENE_ENTITIES = 1024;

/** Each script is also the service `script.<name>`, so it cannot take the name of the domain's own services. */
const RESERVED_SCRIPT_NAMES = ['turn_on', 'turn_off', 'toggle', 'reload'];

function readPolicy(r: ConfigReader): RunPolicy {
  const mode = r.oneOf('mode', RUN_MODES, 'single');
  const max = r.number('max', { integer: true, min: 1, max: MAX_MAX_RUNS });
  if (max !== undefined && mode !== 'queued' && mode !== 'parallel') {
    r.problem('max', `max only applies to the queued and parallel modes (this one is ${mode})`);
  }
  return { mode, max: max ?? DEFAULT_MAX_RUNS, maxExceeded: r.oneOf('max_exceeded', MAX_EXCEEDED_LEVELS, 'warning') };
}

/** Reads the new plural key or the legacy singular one. */
function readEither(
  r: ConfigReader,
  plural: string,
  singular: string,
  required: boolean,
): { value: JsonValue | undefined; path: ConfigPath } {
  const hasPlural = r.has(plural);
  const hasSingular = r.has(singular);
  if (hasPlural && hasSingular) r.problem(singular, `give either ${plural}: or the legacy ${singular}:, not both`);
  if (!hasPlural && !hasSingular) {
    if (required) r.problem(plural, `is required (or the legacy ${singular}:)`);
    r.raw(plural);
    r.raw(singular);
    return { value: undefined, path: [...r.path, plural] };
  }
  const key = hasPlural ? plural : singular;
  const value = r.raw(key);
  r.raw(hasPlural ? singular : plural);
  return { value, path: [...r.path, key] };
}

/** `trace: {stored_traces: N}`: how many runs keep their trace (Home Assistant's default, 5). */
function readStoredTraces(r: ConfigReader): number {
  const trace = r.child('trace');
  if (trace === undefined) return DEFAULT_STORED_TRACES;
  const n = trace.number('stored_traces', { integer: true, min: 0, max: MAX_STORED_TRACES });
  trace.rejectUnknown();
  return n ?? DEFAULT_STORED_TRACES;
}

/** Gives each entity a unique object id: `name`, then `name_2`, `name_3`, ... as Home Assistant's registry does. */
export function uniqueObjectId(base: string, taken: Set<string>): string {
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
  taken.add(id);
  return id;
}

/**
 * The entity's object id as Home Assistant gives it: the slug of the alias (or name); the `id` is the unique id
 * (the one the UI writes, a number) and names the entity only when there is no alias.
 */
export function objectIdFrom(id: string | undefined, name: string | undefined, fallback: string): string {
  if (name !== undefined && slugify(name) !== '') return slugify(name);
  if (id !== undefined && isObjectId(id)) return id;
  if (id !== undefined && slugify(id) !== '') return slugify(id);
  return fallback;
}

export function parseAutomations(section: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): AutomationDefinition[] {
  if (section === undefined || section === null) return [];
  const items = Array.isArray(section) ? (section as JsonValue[]) : undefined;
  if (items === undefined) {
    issues.push({ path, message: `expected a list of automations, got ${kindOf(section)}` });
    return [];
  }
  const out: AutomationDefinition[] = [];
  const objectIds = new Set<string>();
  const uniqueIds = new Set<string>();
  items.forEach((item, i) => {
    const r = ConfigReader.of(item, [...path, i], issues);
    if (r.has('use_blueprint')) {
      r.problem('use_blueprint', 'blueprints are not supported; write the automation out');
      return;
    }
    const uniqueId = r.string('id');
    if (uniqueId !== undefined) {
      if (uniqueIds.has(uniqueId)) r.problem('id', `${JSON.stringify(uniqueId)} is used by another automation; ids must be unique`);
      uniqueIds.add(uniqueId);
    }
    const alias = r.string('alias');
    const policy = readPolicy(r);
    const triggers = readEither(r, 'triggers', 'trigger', true);
    const conditions = readEither(r, 'conditions', 'condition', false);
    const actions = readEither(r, 'actions', 'action', true);
    const definition: AutomationDefinition = {
      ...policy,
      objectId: uniqueObjectId(objectIdFrom(uniqueId, alias, `automation_${i}`), objectIds),
      uniqueId,
      alias: alias ?? uniqueId ?? `automation ${i}`,
      description: r.string('description'),
      initialState: r.boolean('initial_state', true),
      variables: readVariables(r),
      triggerVariables: readVariables(r, 'trigger_variables'),
      triggers: parseTriggers(triggers.value, triggers.path, issues),
      conditions: parseConditions(conditions.value, conditions.path, issues),
      actions: parseActions(actions.value, actions.path, issues),
      storedTraces: readStoredTraces(r),
      config: isJsonObject(item) ? item : {},
    };
    finishReader(r);
    out.push(definition);
  });
  return out;
}

function parseFields(r: ConfigReader): Record<string, ScriptField> {
  const fields = r.child('fields');
  const out: Record<string, ScriptField> = {};
  if (fields === undefined) return out;
  for (const key of Object.keys(fields.value)) {
    const f = fields.child(key);
    if (f === undefined) continue;
    setOwn(out, key, {
      name: f.string('name'),
      description: f.string('description'),
      required: f.boolean('required', false),
      advanced: f.boolean('advanced', false),
      example: f.raw('example'),
      default: f.raw('default'),
    });
    f.raw('selector');
    f.rejectUnknown();
  }
  return out;
}

export function parseScripts(section: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): ScriptDefinition[] {
  if (section === undefined || section === null) return [];
  if (!isJsonObject(section)) {
    issues.push({ path, message: `expected a mapping of script names to scripts, got ${kindOf(section)}` });
    return [];
  }
  const out: ScriptDefinition[] = [];
  for (const [objectId, value] of Object.entries(section)) {
    const itemPath = [...path, objectId];
    if (!isObjectId(objectId)) {
      issues.push({
        path: itemPath,
        message: `${JSON.stringify(objectId)} is not a valid script name: use lower-case letters, digits and single underscores (e.g. ${slugify(objectId)})`,
      });
      continue;
    }
    if (RESERVED_SCRIPT_NAMES.includes(objectId)) {
      issues.push({
        path: itemPath,
        message: `a script cannot be named ${objectId}: ${RESERVED_SCRIPT_NAMES.join(', ')} are the script domain's own services`,
      });
      continue;
    }
    const r = ConfigReader.of(value, itemPath, issues);
    if (r.has('use_blueprint')) {
      r.problem('use_blueprint', 'blueprints are not supported; write the script out');
      continue;
    }
    if (!r.has('sequence')) r.problem('sequence', 'is required: expected a list of actions');
    const definition: ScriptDefinition = {
      ...readPolicy(r),
      objectId,
      alias: r.string('alias') ?? objectId,
      icon: r.string('icon'),
      description: r.string('description'),
      fields: parseFields(r),
      variables: readVariables(r),
      sequence: parseActions(r.raw('sequence'), [...itemPath, 'sequence'], issues),
      storedTraces: readStoredTraces(r),
      config: isJsonObject(value) ? value : {},
    };
    finishReader(r);
    out.push(definition);
  }
  return out;
}

/** One scene entity's desired state: a state string, or `{state, ...attributes}`. */
function parseSceneState(value: JsonValue, path: ConfigPath, issues: ConfigIssue[]): SceneEntityState | undefined {
  let state: JsonValue | undefined = value;
  let attributes: JsonObject = {};
  if (isJsonObject(value)) {
    const { state: s, ...rest } = value;
    state = s;
    attributes = rest;
    if (s === undefined) {
      issues.push({ path: [...path, 'state'], message: 'is required: expected the state the entity should have' });
      return undefined;
    }
  }
  if (typeof state === 'boolean') return { state: state ? 'on' : 'off', attributes };
  if (typeof state === 'number' || (typeof state === 'string' && state.length <= MAX_STATE_LENGTH)) {
    return { state: String(state), attributes };
  }
  issues.push({ path, message: `expected a state (a string) or a mapping with state and attributes, got ${kindOf(state)}` });
  return undefined;
}

/** `entity_id: state` pairs of a scene, as config and `scene.apply`/`scene.create` give them. */
export function parseSceneEntities(value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): Map<string, SceneEntityState> {
  const out = new Map<string, SceneEntityState>();
  if (!isJsonObject(value)) {
    issues.push({ path, message: `expected a mapping of entity ids to states, got ${kindOf(value)}` });
    return out;
  }
  const entries = Object.entries(value);
  if (entries.length > MAX_SCENE_ENTITIES) {
    issues.push({ path, message: `a scene may hold at most ${MAX_SCENE_ENTITIES} entities; got ${entries.length}` });
    return out;
  }
  for (const [key, item] of entries) {
    const entityId = key.trim().toLowerCase();
    if (!isValidEntityId(entityId)) {
      issues.push({ path: [...path, key], message: `${JSON.stringify(key)} is not an entity id: expected <domain>.<object_id>` });
      continue;
    }
    const state = parseSceneState(item, [...path, key], issues);
    if (state !== undefined) out.set(entityId, state);
  }
  return out;
}

export function parseScenes(section: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): SceneDefinition[] {
  if (section === undefined || section === null) return [];
  refuseTemplates(section, path, issues);
  if (!Array.isArray(section)) {
    issues.push({ path, message: `expected a list of scenes, got ${kindOf(section)}` });
    return [];
  }
  const out: SceneDefinition[] = [];
  const objectIds = new Set<string>();
  (section as JsonValue[]).forEach((item, i) => {
    const r = ConfigReader.of(item, [...path, i], issues);
    const uniqueId = r.string('id');
    const name = r.string('name', { required: true });
    if (!r.has('entities')) r.problem('entities', 'is required: expected a mapping of entity ids to states');
    const entities = r.has('entities') ? parseSceneEntities(r.raw('entities'), [...path, i, 'entities'], issues) : new Map();
    out.push({
      objectId: uniqueObjectId(objectIdFrom(uniqueId, name, `scene_${i}`), objectIds),
      uniqueId,
      name,
      icon: r.string('icon'),
      entities,
    });
    r.raw('metadata');
    finishReader(r);
  });
  return out;
}
