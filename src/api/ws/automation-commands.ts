import { contextJson } from '../../core/context.js';
import { HubError } from '../../core/errors.js';
import type { JsonValue } from '../../core/json.js';
import type { AutomationApi, AutomationPart } from '../../http/context.js';
import { checkRoomForSubscription, command, requireAdmin } from './command.js';
import type { Command, Connection } from './connection.js';
import { eventHead, idTail } from './messages.js';
import { anyJson, object, optional, required } from './schema.js';

/**
 * Home Assistant's automation commands (websocket_api/commands.py): `subscribe_trigger`, `execute_script` and
 * `validate_config`, through the automation layer's parsers, triggers and runner (ctx.automation).
 */

function automationOf(conn: Connection, type: string): AutomationApi {
  const api = conn.env.ctx.automation;
  if (api === undefined) throw new HubError('not_supported', `${type} needs automations, which this hub runs without.`);
  return api;
}

/** Result null, then `{"variables":{"trigger":{...}},"context":{...}}` each time a trigger fires. */
const subscribeTrigger = command({ trigger: required(anyJson), variables: optional(object) }, (conn, msg, id) => {
  requireAdmin(conn);
  checkRoomForSubscription(conn);
  const tail = idTail(id);
  const detach = automationOf(conn, 'subscribe_trigger').subscribeTrigger(msg.trigger, msg.variables, conn.owner, (variables, context) => {
    const body = `{"variables":${variables},"context":${context === null ? 'null' : contextJson(context)}}`;
    conn.outbox.push(eventHead(body), tail);
  });
  // Triggers fire from later events and timers only, so the result always goes out before the first event.
  conn.addSubscription(id, { stop: detach });
  conn.sendResult(id, 'null');
});

/** Runs the sequence with a new context of the user; `{"context":{...},"response":<stop's response or null>}`. */
const executeScript = command({ sequence: required(anyJson), variables: optional(object) }, async (conn, msg, id) => {
  const user = requireAdmin(conn);
  const api = automationOf(conn, 'execute_script');
  const context = conn.env.ctx.core.newContext(user.id);
  const response = await api.executeScript(msg.sequence, msg.variables, context);
  let json: string;
  try {
    json = JSON.stringify(response);
  } catch {
    throw new HubError('internal', 'Invalid JSON in response');
  }
  conn.sendResult(id, `{"context":${contextJson(context)},"response":${json}}`);
});

/** The message keys validate_config reads: Home Assistant's plural ones (2024.10+) and the older singular ones. */
const PARTS: readonly (readonly [string, AutomationPart])[] = [
  ['triggers', 'triggers'],
  ['conditions', 'conditions'],
  ['actions', 'actions'],
  ['trigger', 'triggers'],
  ['condition', 'conditions'],
  ['action', 'actions'],
];

/** One entry per key given, `{"valid":true,"error":null}` or `{"valid":false,"error":"<what, @ which key>"}`; nothing is changed. */
const validateConfig = command(
  {
    triggers: optional(anyJson),
    conditions: optional(anyJson),
    actions: optional(anyJson),
    trigger: optional(anyJson),
    condition: optional(anyJson),
    action: optional(anyJson),
  },
  (conn, msg, id) => {
    const api = automationOf(conn, 'validate_config');
    const given: Readonly<Record<string, JsonValue | undefined>> = msg;
    const result: Record<string, { valid: boolean; error: string | null }> = {};
    for (const [key, part] of PARTS) {
      const value = given[key];
      if (value === undefined) continue;
      const error = api.validate(part, value, key);
      result[key] = { valid: error === null, error };
    }
    conn.sendResult(id, JSON.stringify(result));
  },
);

export const AUTOMATION_COMMANDS: readonly [string, Command][] = [
  ['subscribe_trigger', subscribeTrigger],
  ['execute_script', executeScript],
  ['validate_config', validateConfig],
];
