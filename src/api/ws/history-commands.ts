import type { Micros } from '../../core/clock.js';
import { HubError } from '../../core/errors.js';
import type { HubEvent } from '../../core/event-bus.js';
import type { HistoryReader } from '../../recorder/types.js';
import { compressedHistoryJson, type HistoryOptions } from '../history/history-json.js';
import { JsonBytes } from '../history/json-bytes.js';
import { type LogbookOptions, logbookFilter, logbookJson, stateEntry } from '../history/logbook-json.js';
import { checkOrder, endTime, startTime } from '../history/period.js';
import { command, userOf } from './command.js';
import type { Command, Connection } from './connection.js';
import { bool, entityIds, optional, required, str } from './schema.js';

const MAX_IDS = 16_384;

function historyOf(conn: Connection): HistoryReader {
  const history = conn.env.ctx.history;
  // Without the recorder these commands do not exist, as in Home Assistant without it.
  if (history === undefined) throw new HubError('unknown_command', 'Unknown command.');
  return history;
}

function period(msg: { start_time: string; end_time?: string }): { startUs: Micros; endUs: Micros | undefined } {
  const startUs = startTime(msg.start_time);
  const endUs = msg.end_time === undefined ? undefined : endTime(msg.end_time);
  if (endUs !== undefined) checkOrder(startUs, endUs);
  return { startUs, endUs };
}

function eventMessage(id: number, eventJson: string): string {
  return `{"id":${id},"type":"event","event":${eventJson}}`;
}

const historySchema = {
  start_time: required(str),
  end_time: optional(str),
  entity_ids: required(entityIds(MAX_IDS)),
  include_start_time_state: optional(bool),
  significant_changes_only: optional(bool),
  minimal_response: optional(bool),
  no_attributes: optional(bool),
};

type HistoryMsg = {
  start_time: string;
  end_time?: string;
  entity_ids: string[];
  include_start_time_state?: boolean;
  significant_changes_only?: boolean;
  minimal_response?: boolean;
  no_attributes?: boolean;
};

function historyOptions(msg: HistoryMsg, startUs: Micros, endUs: Micros): HistoryOptions {
  return {
    startUs,
    endUs,
    includeStartState: msg.include_start_time_state ?? true,
    significantChangesOnly: msg.significant_changes_only ?? true,
    minimalResponse: msg.minimal_response ?? false,
    noAttributes: msg.no_attributes ?? false,
  };
}

/** `history/history_during_period`: `{"<entity_id>": [compressed states]}`; a future start is `{}`. */
const historyDuringPeriod = command(historySchema, (conn, msg, id) => {
  userOf(conn);
  const history = historyOf(conn);
  const now = conn.env.ctx.core.clock.now();
  const { startUs, endUs } = period(msg);
  if (startUs > now) {
    conn.sendResult(id, '{}');
    return;
  }
  // Megabytes for a day of one-second changes: built as bytes, with the result's envelope around them.
  const out = new JsonBytes();
  out.ascii(`{"id":${id},"type":"result","success":true,"result":`);
  compressedHistoryJson(history, msg.entity_ids, historyOptions(msg, startUs, endUs ?? now + 1), out);
  out.ascii('}');
  conn.outbox.push(out.view());
});

/**
 * `history/stream`, the subscription Home Assistant's frontend draws its graphs from: the result, then one
 * event with the history so far (`states`, `start_time`, `end_time` in float seconds), then each new state of
 * the entities as it happens (`{"states": {"<id>": [state]}}`), until unsubscribed. With an end in the past it
 * sends the history and ends there.
 */
const historyStream = command(historySchema, (conn, msg, id) => {
  userOf(conn);
  const history = historyOf(conn);
  const core = conn.env.ctx.core;
  const now = core.clock.now();
  const { startUs, endUs } = period(msg);
  const options = historyOptions(msg, startUs, Math.min(endUs ?? now + 1, now + 1));
  conn.sendResult(id, 'null');
  const past = new JsonBytes();
  past.ascii(`{"id":${id},"type":"event","event":{"states":`);
  compressedHistoryJson(history, msg.entity_ids, options, past);
  past.ascii(`,"start_time":${startUs / 1e6},"end_time":${options.endUs / 1e6}}}`);
  conn.outbox.push(past.view());
  if (endUs !== undefined && endUs <= now) return;
  const wanted = new Set(msg.entity_ids);
  const off = core.bus.on(conn.owner, 'state_changed', (event: HubEvent<'state_changed'>) => {
    const s = event.data.new_state;
    if (s === null || !wanted.has(s.entity_id)) return;
    if (options.significantChangesOnly && s.lastChangedUs !== s.lastUpdatedUs && !s.entity_id.startsWith('climate.')) return;
    const a = options.minimalResponse || options.noAttributes ? '' : `"a":${s.attributesJson},`;
    const lc = s.lastChangedUs !== s.lastUpdatedUs ? `,"lc":${s.lastChangedUs / 1e6}` : '';
    conn.send(
      eventMessage(
        id,
        `{"states":{${JSON.stringify(s.entity_id)}:[{"s":${JSON.stringify(s.state)},${a}"lu":${s.lastUpdatedUs / 1e6}${lc}}]}}`,
      ),
    );
  });
  conn.addSubscription(id, { stop: off });
});

const logbookSchema = {
  start_time: required(str),
  end_time: optional(str),
  entity_ids: optional(entityIds(MAX_IDS)),
  context_id: optional(str),
};

/** `logbook/get_events`: the logbook entries of a period, `when` in float seconds. */
const logbookGetEvents = command(logbookSchema, (conn, msg, id) => {
  userOf(conn);
  const history = historyOf(conn);
  const core = conn.env.ctx.core;
  const now = core.clock.now();
  const { startUs, endUs } = period(msg);
  if (startUs > now) {
    conn.sendResult(id, '[]');
    return;
  }
  const options: LogbookOptions = {
    startUs,
    endUs: endUs ?? now + 1,
    entityIds: msg.entity_ids,
    contextId: msg.context_id,
    when: 'seconds',
    filter: logbookFilter(conn.env.ctx.config),
  };
  conn.sendResult(id, logbookJson(core, history, options));
});

/**
 * `logbook/event_stream`: the result, the entries so far as one event (`events`, `start_time`, `end_time`), then
 * new entries as they happen, until unsubscribed (or at once, with an end in the past).
 */
const logbookEventStream = command(logbookSchema, (conn, msg, id) => {
  userOf(conn);
  const history = historyOf(conn);
  const core = conn.env.ctx.core;
  const now = core.clock.now();
  const { startUs, endUs } = period(msg);
  const end = Math.min(endUs ?? now + 1, now + 1);
  // Home Assistant's filter applies to the whole stream when no entity is asked for.
  const filter = msg.entity_ids === undefined ? logbookFilter(conn.env.ctx.config) : undefined;
  const options: LogbookOptions = { startUs, endUs: end, entityIds: msg.entity_ids, contextId: msg.context_id, when: 'seconds', filter };
  conn.sendResult(id, 'null');
  conn.send(eventMessage(id, `{"events":${logbookJson(core, history, options)},"start_time":${startUs / 1e6},"end_time":${end / 1e6}}`));
  if (endUs !== undefined && endUs <= now) return;
  const wanted = msg.entity_ids === undefined ? undefined : new Set(msg.entity_ids);
  const off = core.bus.on(conn.owner, 'state_changed', (event: HubEvent<'state_changed'>) => {
    const { new_state: s, old_state: old } = event.data;
    if (s === null || (wanted !== undefined && !wanted.has(s.entity_id))) return;
    if (filter !== undefined && !filter(s.entity_id)) return;
    if (old !== null && old.state === s.state) return;
    if (s.attributes.unit_of_measurement !== undefined || s.attributes.state_class !== undefined) return;
    if (!history.records(s.entity_id)) return;
    const entry = stateEntry(core, s.entity_id, s.state, s.attributesJson, s.lastUpdatedUs, s.context, new Map(), options);
    conn.send(eventMessage(id, `{"events":[${entry}]}`));
  });
  conn.addSubscription(id, { stop: off });
});

export const HISTORY_COMMANDS: ReadonlyArray<readonly [string, Command]> = [
  ['history/history_during_period', historyDuringPeriod],
  ['history/stream', historyStream],
  ['logbook/get_events', logbookGetEvents],
  ['logbook/event_stream', logbookEventStream],
];
