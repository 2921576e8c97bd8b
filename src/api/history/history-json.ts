import { isoFromMicros, type Micros } from '../../core/clock.js';
import type { HistoryReader } from '../../recorder/types.js';

/** Domains whose attribute-only changes are significant (recorder/history/const.py). */
const SIGNIFICANT_DOMAINS: ReadonlySet<string> = new Set(['climate', 'device_tracker', 'humidifier', 'thermostat', 'water_heater']);
/** Domains that keep full states even in a minimal response. */
const NEED_ATTRIBUTE_DOMAINS: ReadonlySet<string> = new Set(['climate', 'humidifier', 'input_datetime', 'thermostat', 'water_heater']);

export interface HistoryOptions {
  readonly startUs: Micros;
  readonly endUs: Micros;
  /** The state each entity was in at the start, stamped with the start (Home Assistant's synthetic first point). */
  readonly includeStartState: boolean;
  readonly significantChangesOnly: boolean;
  readonly minimalResponse: boolean;
  readonly noAttributes: boolean;
}

function seconds(us: Micros): string {
  return String(us / 1_000_000);
}

/**
 * One entity's history as Home Assistant's _sorted_states_to_dict renders it, appended to `out` as JSON text
 * (no object per state: a day of one-second changes is 86,400 of them). `compressed` is the WebSocket form
 * (`s`, `a`, `lu`, `lc` in float seconds); otherwise the REST form (full states, or `state` and `last_changed`
 * for the middle of a minimal response). Returns how many entries were written.
 */
export function writeEntityHistory(reader: HistoryReader, entityId: string, o: HistoryOptions, compressed: boolean, out: string[]): number {
  const domain = entityId.slice(0, entityId.indexOf('.'));
  const significantAttrs = SIGNIFICANT_DOMAINS.has(domain);
  const minimal = o.minimalResponse && !NEED_ATTRIBUTE_DOMAINS.has(domain);
  // Home Assistant reads last_changed only when every change is asked for; otherwise it equals last_updated.
  const withLastChanged = !o.significantChangesOnly;
  const idJson = JSON.stringify(entityId);
  let n = 0;
  let prev: string | undefined;
  reader.forEachState(entityId, o.startUs, o.endUs, o.includeStartState, (state, attrs, lcUs, luUs) => {
    let lu = luUs;
    let lc = withLastChanged ? lcUs : luUs;
    if (luUs < o.startUs) {
      lu = o.startUs;
      lc = o.startUs;
    } else if (o.significantChangesOnly && !significantAttrs && lcUs !== luUs) return;
    const stateJson = JSON.stringify(state);
    if (minimal && n > 0) {
      if (state === prev) return;
      out.push(compressed ? `{"s":${stateJson},"lu":${seconds(lu)}}` : `{"state":${stateJson},"last_changed":"${isoFromMicros(lu)}"}`);
    } else if (compressed) {
      const a = o.noAttributes ? '' : `"a":${attrs},`;
      const lcPart = lc !== lu ? `,"lc":${seconds(lc)}` : '';
      out.push(`{"s":${stateJson},${a}"lu":${seconds(lu)}${lcPart}}`);
    } else {
      const a = o.noAttributes ? '{}' : attrs;
      out.push(
        `{"entity_id":${idJson},"state":${stateJson},"attributes":${a},"last_changed":"${isoFromMicros(lc)}","last_updated":"${isoFromMicros(lu)}"}`,
      );
    }
    prev = state;
    n++;
  });
  return n;
}

/** `{"<entity_id>": [...], ...}` for the WebSocket commands; entities without history are left out. */
export function compressedHistoryJson(reader: HistoryReader, entityIds: readonly string[], o: HistoryOptions): string {
  const parts: string[] = [];
  for (const id of entityIds) {
    const entries: string[] = [];
    if (writeEntityHistory(reader, id, o, true, entries) > 0) parts.push(`${JSON.stringify(id)}:[${entries.join(',')}]`);
  }
  return `{${parts.join(',')}}`;
}

/** `[[...], [...]]` for REST: one array per entity with history, in the order asked. */
export function restHistoryJson(reader: HistoryReader, entityIds: readonly string[], o: HistoryOptions): string {
  const lists: string[] = [];
  for (const id of entityIds) {
    const entries: string[] = [];
    if (writeEntityHistory(reader, id, o, false, entries) > 0) lists.push(`[${entries.join(',')}]`);
  }
  return `[${lists.join(',')}]`;
}
