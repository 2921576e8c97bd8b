import { isoFromMicros, type Micros } from '../../core/clock.js';
import { domainByName } from '../../domains/index.js';
import type { HistoryReader } from '../../recorder/types.js';
import { JsonBytes } from './json-bytes.js';

export interface HistoryOptions {
  readonly startUs: Micros;
  readonly endUs: Micros;
  /** The state each entity was in at the start, stamped with the start (Home Assistant's synthetic first point). */
  readonly includeStartState: boolean;
  readonly significantChangesOnly: boolean;
  readonly minimalResponse: boolean;
  readonly noAttributes: boolean;
}

/**
 * One entity's history as Home Assistant's _sorted_states_to_dict renders it, written to `out` as JSON (no
 * object or string per state: a day of one-second changes is 86,400 of them). `compressed` is the WebSocket
 * form (`s`, `a`, `lu`, `lc` in float seconds); otherwise the REST form (full states, or `state` and
 * `last_changed` for the middle of a minimal response). Returns how many entries were written.
 */
export function writeEntityHistory(
  reader: HistoryReader,
  entityId: string,
  o: HistoryOptions,
  compressed: boolean,
  out: JsonBytes,
): number {
  const domain = entityId.slice(0, entityId.indexOf('.'));
  const facts = domainByName(domain);
  const significantAttrs = facts?.significantAttributes === true;
  const minimal = o.minimalResponse && facts?.needsAttributes !== true;
  // Home Assistant reads last_changed only when every change is asked for; otherwise it equals last_updated.
  const withLastChanged = !o.significantChangesOnly;
  const head = `{"entity_id":${JSON.stringify(entityId)},"state":`;
  let n = 0;
  let prev: string | undefined;
  reader.forEachState(entityId, o.startUs, o.endUs, o.includeStartState, (state, attrs, lcUs, luUs) => {
    let lu = luUs;
    let lc = withLastChanged ? lcUs : luUs;
    if (luUs < o.startUs) {
      lu = o.startUs;
      lc = o.startUs;
    } else if (o.significantChangesOnly && !significantAttrs && lcUs !== luUs) return;
    if (minimal && n > 0 && state === prev) return;
    if (n > 0) out.ascii(',');
    if (minimal && n > 0) {
      if (compressed) {
        out.ascii('{"s":');
        out.jsonString(state);
        out.ascii(',"lu":');
        out.seconds(lu);
        out.ascii('}');
      } else {
        out.ascii('{"state":');
        out.jsonString(state);
        out.ascii(`,"last_changed":"${isoFromMicros(lu)}"}`);
      }
    } else if (compressed) {
      out.ascii('{"s":');
      out.jsonString(state);
      if (!o.noAttributes) {
        out.ascii(',"a":');
        out.repeated(attrs);
      }
      out.ascii(',"lu":');
      out.seconds(lu);
      if (lc !== lu) {
        out.ascii(',"lc":');
        out.seconds(lc);
      }
      out.ascii('}');
    } else {
      out.utf8(head);
      out.jsonString(state);
      out.ascii(',"attributes":');
      if (o.noAttributes) out.ascii('{}');
      else out.repeated(attrs);
      out.ascii(`,"last_changed":"${isoFromMicros(lc)}","last_updated":"${isoFromMicros(lu)}"}`);
    }
    prev = state;
    n++;
  });
  return n;
}

/**
 * Each entity's list, in the order asked, between `open` and `close`; an entity without history is left out
 * (its opening is taken back).
 */
function writeLists(
  reader: HistoryReader,
  entityIds: readonly string[],
  o: HistoryOptions,
  compressed: boolean,
  out: JsonBytes,
  brackets: string,
): void {
  out.ascii(brackets[0] as string);
  let first = true;
  for (const id of entityIds) {
    const mark = out.length;
    if (!first) out.ascii(',');
    if (compressed) out.utf8(`${JSON.stringify(id)}:`);
    out.ascii('[');
    if (writeEntityHistory(reader, id, o, compressed, out) === 0) {
      out.length = mark;
      continue;
    }
    out.ascii(']');
    first = false;
  }
  out.ascii(brackets[1] as string);
}

/** `{"<entity_id>": [...], ...}` for the WebSocket commands, as UTF-8; entities without history are left out. */
export function compressedHistoryJson(
  reader: HistoryReader,
  entityIds: readonly string[],
  o: HistoryOptions,
  out = new JsonBytes(),
): JsonBytes {
  writeLists(reader, entityIds, o, true, out, '{}');
  return out;
}

/** `[[...], [...]]` for REST: one array per entity with history, in the order asked. */
export function restHistoryJson(reader: HistoryReader, entityIds: readonly string[], o: HistoryOptions): Buffer {
  const out = new JsonBytes();
  writeLists(reader, entityIds, o, false, out, '[]');
  return out.view();
}
