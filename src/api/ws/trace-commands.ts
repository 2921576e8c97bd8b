import { HubError } from '../../core/errors.js';
import type { TraceReader } from '../../http/context.js';
import { command, requireAdmin } from './command.js';
import type { Command, Connection } from './connection.js';
import { oneOf, optional, required, str } from './schema.js';

/**
 * Home Assistant's trace WebSocket API (components/trace/websocket_api.py): the stored traces of automation and
 * script runs, for admins only. The debugger commands (breakpoints, step) are not offered.
 */

const TRACE_DOMAINS = ['automation', 'script'] as const;
const domain = oneOf(TRACE_DOMAINS);

/** A hub without automations has no traces: the lists are empty and every run unknown. */
const NONE: TraceReader = { list: () => [], get: () => undefined, contexts: () => ({}) };

function tracesOf(conn: Connection): TraceReader {
  return conn.env.ctx.traces ?? NONE;
}

/** vol.Inclusive: `domain` and `item_id` come together or not at all; the message names the missing one. */
function inclusive(msg: { domain?: string; item_id?: string }): void {
  if ((msg.domain === undefined) === (msg.item_id === undefined)) return;
  const missing = msg.domain === undefined ? 'domain' : 'item_id';
  throw new HubError('invalid_format', `some but not all values in the same group of inclusion 'id' @ data['${missing}']`);
}

/** `trace/list`: the summaries of one item's runs, or of every item of the domain (of both domains without one). */
const traceList = command({ domain: optional(domain), item_id: optional(str) }, (conn, msg, id) => {
  requireAdmin(conn);
  if (msg.item_id !== undefined && msg.domain === undefined) {
    throw new HubError('invalid_format', `required key not provided with item_id @ data['domain']`);
  }
  conn.sendResult(id, JSON.stringify(tracesOf(conn).list(msg.domain, msg.item_id)));
});

/** `trace/get`: one run in full; `not_found` when it is not (or no longer) kept. */
const traceGet = command({ domain: required(domain), item_id: required(str), run_id: required(str) }, (conn, msg, id) => {
  requireAdmin(conn);
  const trace = tracesOf(conn).get(msg.domain, msg.item_id, msg.run_id);
  if (trace === undefined) throw new HubError('not_found', 'The trace could not be found');
  // Serialized here, when someone reads it: recording keeps references only.
  conn.sendResult(id, JSON.stringify(trace));
});

/** `trace/contexts`: context id -> {run_id, domain, item_id} of the runs kept. */
const traceContexts = command({ domain: optional(domain), item_id: optional(str) }, (conn, msg, id) => {
  requireAdmin(conn);
  inclusive(msg);
  conn.sendResult(id, JSON.stringify(tracesOf(conn).contexts(msg.domain, msg.item_id)));
});

export const TRACE_COMMANDS: readonly [string, Command][] = [
  ['trace/list', traceList],
  ['trace/get', traceGet],
  ['trace/contexts', traceContexts],
];
