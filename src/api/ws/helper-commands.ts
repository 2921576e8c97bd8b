import { describeValue, HubError } from '../../core/errors.js';
import type { JsonObject } from '../../core/json.js';
import { setOwn } from '../../core/own-keys.js';
import { HELPER_DOMAINS } from '../../domains/index.js';
import type { HelperItems } from '../../http/context.js';
import { requireAdmin, userOf } from './command.js';
import type { Command, Connection } from './connection.js';

/**
 * Home Assistant's StorageCollectionWebsocket (helpers/collection.py), built once for every helper domain:
 * `<domain>/list` for any user; `create`, `update` and `delete` for admins. The item's keys are checked by the
 * helper's own fields (src/helpers), which name the key and what it allows.
 */

function items(conn: Connection, domain: string): HelperItems {
  const found = conn.env.ctx.helpers?.(domain);
  if (found === undefined) throw new HubError('unknown_command', `Unknown command: ${domain}`);
  return found;
}

/** The message without the protocol's keys (and without the item id key for update). */
function payload(message: JsonObject, drop: string[]): JsonObject {
  const out: Record<string, JsonObject[string]> = {};
  for (const [k, v] of Object.entries(message)) if (k !== 'id' && k !== 'type' && !drop.includes(k)) setOwn(out, k, v);
  return out;
}

function itemId(message: JsonObject, key: string): string {
  const value = message[key];
  if (value === undefined) throw new HubError('invalid_format', `required key not provided @ data['${key}']`);
  if (typeof value !== 'string')
    throw new HubError('invalid_format', `expected str for dictionary value @ data['${key}']. Got ${describeValue(value)}`);
  return value;
}

function commandsFor(domain: string): [string, Command][] {
  const idKey = `${domain}_id`;
  return [
    [
      `${domain}/list`,
      {
        run(conn, _message, id) {
          userOf(conn);
          conn.sendResult(id, JSON.stringify(items(conn, domain).list()));
        },
      },
    ],
    [
      `${domain}/create`,
      {
        run(conn, message, id) {
          requireAdmin(conn);
          conn.sendResult(id, JSON.stringify(items(conn, domain).create(payload(message, []))));
        },
      },
    ],
    [
      `${domain}/update`,
      {
        run(conn, message, id) {
          requireAdmin(conn);
          const item = itemId(message, idKey);
          conn.sendResult(id, JSON.stringify(items(conn, domain).update(item, payload(message, [idKey]))));
        },
      },
    ],
    [
      `${domain}/delete`,
      {
        run(conn, message, id) {
          requireAdmin(conn);
          const extra = Object.keys(payload(message, [idKey]));
          if (extra.length > 0) throw new HubError('invalid_format', `extra keys not allowed @ data['${extra[0]}']`);
          items(conn, domain).delete(itemId(message, idKey));
          conn.sendResult(id, 'null');
        },
      },
    ],
  ];
}

export const HELPER_COMMANDS: readonly [string, Command][] = HELPER_DOMAINS.flatMap(commandsFor);
