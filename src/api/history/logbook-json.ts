import { entityFilter } from '../../config/entity-filter.js';
import type { HubConfig } from '../../config/types.js';
import { isoFromMicros, type Micros } from '../../core/clock.js';
import type { Context } from '../../core/context.js';
import type { Core } from '../../core/core.js';
import type { JsonObject } from '../../core/json.js';
import type { EntityFilterSection } from '../../recorder/config.js';
import type { EntityFilterConfig, HistoryReader } from '../../recorder/types.js';

export interface LogbookOptions {
  readonly startUs: Micros;
  readonly endUs: Micros;
  /** Only these entities (and the events that name them); undefined: everything. */
  readonly entityIds: readonly string[] | undefined;
  /** Only entries caused by this context. */
  readonly contextId: string | undefined;
  /** REST carries `when` as ISO 8601, the WebSocket API as float seconds. */
  readonly when: 'iso' | 'seconds';
  /** The `logbook:` section's include/exclude, when no entities are asked for (as Home Assistant applies it). */
  readonly filter?: (entityId: string) => boolean;
}

/** What caused a change, found by its context id: an automation, a script, or a service call. */
interface Origin {
  readonly type: string;
  readonly data: JsonObject;
}

interface Entry {
  readonly t: Micros;
  readonly json: string;
}

function whenJson(t: Micros, o: LogbookOptions): string {
  return o.when === 'iso' ? `"${isoFromMicros(t)}"` : String(t / 1_000_000);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Continuous entities (a unit or a state class) are left out of the logbook, as Home Assistant does. */
function isContinuous(attrsJson: string): boolean {
  return attrsJson.includes('"unit_of_measurement"') || attrsJson.includes('"state_class"');
}

function friendlyName(core: Core, entityId: string, attrsJson: string): string {
  const now = core.states.get(entityId)?.attributes.friendly_name;
  if (typeof now === 'string') return now;
  try {
    const name = (JSON.parse(attrsJson) as JsonObject).friendly_name;
    if (typeof name === 'string') return name;
  } catch {
    // Recorded attributes are always JSON; a name is a nicety.
  }
  return entityId;
}

/** Home Assistant's context_* keys for a change caused by something the logbook knows. */
function contextParts(core: Core, ctx: Context | null, origins: ReadonlyMap<string, Origin>): string {
  if (ctx === null) return '';
  let out = '';
  if (ctx.user_id !== null) out += `,"context_user_id":${JSON.stringify(ctx.user_id)}`;
  const origin = origins.get(ctx.id);
  if (origin === undefined) return out;
  out += `,"context_event_type":${JSON.stringify(origin.type)}`;
  const d = origin.data;
  if (origin.type === 'call_service') {
    out += `,"context_domain":${JSON.stringify(str(d.domain) ?? '')},"context_service":${JSON.stringify(str(d.service) ?? '')}`;
    return out;
  }
  const entityId = str(d.entity_id);
  const domain = origin.type === 'automation_triggered' ? 'automation' : 'script';
  out += `,"context_domain":"${domain}"`;
  if (entityId !== undefined) {
    out += `,"context_entity_id":${JSON.stringify(entityId)},"context_entity_id_name":${JSON.stringify(friendlyName(core, entityId, '{}'))}`;
  }
  if (str(d.name) !== undefined) out += `,"context_name":${JSON.stringify(d.name)}`;
  const source = str(d.source);
  out += `,"context_message":${JSON.stringify(source === undefined ? (domain === 'automation' ? 'triggered' : 'started') : `triggered by ${source}`)}`;
  if (source !== undefined) out += `,"context_source":${JSON.stringify(source)}`;
  return out;
}

/** An entry for an event the logbook describes (automation, script, start and stop, logbook_entry). */
function eventEntry(type: string, d: JsonObject, ctx: Context, t: Micros, o: LogbookOptions): string | undefined {
  const when = `"when":${whenJson(t, o)}`;
  const user = ctx.user_id !== null ? `,"context_user_id":${JSON.stringify(ctx.user_id)}` : '';
  const entity = str(d.entity_id);
  if (o.entityIds !== undefined && (entity === undefined || !o.entityIds.includes(entity))) return undefined;
  switch (type) {
    case 'homeassistant_start':
    case 'homeassistant_stop':
      return `{${when},"name":"Home Assistant","message":"${type === 'homeassistant_start' ? 'started' : 'stopped'}","domain":"homeassistant"${user}}`;
    case 'automation_triggered': {
      const source = str(d.source);
      const message = source === undefined ? 'triggered' : `triggered by ${source}`;
      const src = source === undefined ? '' : `,"source":${JSON.stringify(source)}`;
      return `{${when},"name":${JSON.stringify(str(d.name) ?? entity ?? '')},"message":${JSON.stringify(message)}${src},"entity_id":${JSON.stringify(entity ?? null)},"context_id":${JSON.stringify(ctx.id)},"domain":"automation"${user}}`;
    }
    case 'script_started':
      return `{${when},"name":${JSON.stringify(str(d.name) ?? entity ?? '')},"message":"started","entity_id":${JSON.stringify(entity ?? null)},"context_id":${JSON.stringify(ctx.id)},"domain":"script"${user}}`;
    case 'logbook_entry':
      return `{${when},"name":${JSON.stringify(str(d.name) ?? '')},"message":${JSON.stringify(str(d.message) ?? '')},"domain":${JSON.stringify(str(d.domain) ?? (entity === undefined ? null : entity.split('.')[0]))},"entity_id":${JSON.stringify(entity ?? null)}${user}}`;
    default:
      return undefined;
  }
}

/** The state-change entry of one entity, with what caused it. */
export function stateEntry(
  core: Core,
  entityId: string,
  state: string,
  attrsJson: string,
  t: Micros,
  ctx: Context | null,
  origins: ReadonlyMap<string, Origin>,
  o: LogbookOptions,
): string {
  return `{"when":${whenJson(t, o)},"state":${JSON.stringify(state)},"entity_id":${JSON.stringify(entityId)},"name":${JSON.stringify(friendlyName(core, entityId, attrsJson))}${contextParts(core, ctx, origins)}}`;
}

/**
 * The logbook of a period as Home Assistant's logbook processor answers it: state changes of non-continuous
 * entities (a change of state, not of attributes only), and the events it describes, oldest first, each
 * change with what caused it (`context_user_id`, and the automation, script or service call of its context).
 */
export function logbookJson(core: Core, reader: HistoryReader, o: LogbookOptions): string {
  const origins = new Map<string, Origin>();
  const entries: Entry[] = [];
  reader.forEachEvent(o.startUs, o.endUs, (type, dataJson, t, ctx) => {
    let data: JsonObject;
    try {
      data = JSON.parse(dataJson) as JsonObject;
    } catch {
      return;
    }
    if (type === 'call_service' || type === 'automation_triggered' || type === 'script_started') {
      // The script or automation a call started names the cause better than the call (`script.turn_on`).
      const known = origins.get(ctx.id);
      if (known === undefined || (known.type === 'call_service' && type !== 'call_service')) origins.set(ctx.id, { type, data });
    }
    if (o.contextId !== undefined && ctx.id !== o.contextId) return;
    if (o.entityIds === undefined && o.filter !== undefined && typeof data.entity_id === 'string' && !o.filter(data.entity_id)) return;
    const json = eventEntry(type, data, ctx, t, o);
    if (json !== undefined) entries.push({ t, json });
  });
  const ids = o.entityIds ?? reader.entitiesDuring(o.startUs, o.endUs).filter((id) => o.filter?.(id) ?? true);
  for (const id of ids) {
    let prev: string | undefined;
    let continuous: boolean | undefined;
    reader.forEachState(id, o.startUs, o.endUs, true, (state, attrs, lc, lu, ctx) => {
      if (continuous === undefined) continuous = isContinuous(attrs);
      if (continuous) return;
      if (lc !== lu || state === prev) return;
      prev = state;
      if (lu < o.startUs) return; // The state in force at the start: not a change within.
      if (o.contextId !== undefined && ctx?.id !== o.contextId) return;
      entries.push({ t: lu, json: stateEntry(core, id, state, attrs, lu, ctx, origins, o) });
    });
  }
  entries.sort((a, b) => a.t - b.t);
  return `[${entries.map((e) => e.json).join(',')}]`;
}

const filters = new WeakMap<object, ((entityId: string) => boolean) | undefined>();

const union = (a: readonly string[], b: readonly string[]): string[] => [...new Set([...a, ...b])];

/** Each list of both filters, joined (recorder/filters.py merge_include_exclude_filters). */
function merged(a: EntityFilterConfig, b: EntityFilterConfig): EntityFilterConfig {
  return {
    domains: union(a.domains, b.domains),
    entities: union(a.entities, b.entities),
    entityGlobs: union(a.entityGlobs, b.entityGlobs),
  };
}

const isEmpty = (f: EntityFilterConfig) => f.domains.length + f.entities.length + f.entityGlobs.length === 0;

/**
 * The logbook's entity filter of a configuration, undefined when it has none: as Home Assistant's logbook sets it up,
 * the `recorder:` section's include/exclude merged with the `logbook:` section's, list by list, then read by the
 * entityfilter rules. The REST and WebSocket logbook apply it when no entity is asked for.
 */
export function logbookFilter(config: HubConfig): ((entityId: string) => boolean) | undefined {
  if (filters.has(config)) return filters.get(config);
  const sections = ['recorder', 'logbook']
    .map((name) => config.parsed.get(name) as EntityFilterSection | undefined)
    .filter((s): s is EntityFilterSection => s !== undefined);
  const [first, ...rest] = sections;
  let filter: ((entityId: string) => boolean) | undefined;
  if (first !== undefined) {
    const include = rest.reduce((acc, s) => merged(acc, s.include), first.include);
    const exclude = rest.reduce((acc, s) => merged(acc, s.exclude), first.exclude);
    if (!isEmpty(include) || !isEmpty(exclude)) filter = entityFilter(include, exclude);
  }
  filters.set(config, filter);
  return filter;
}
