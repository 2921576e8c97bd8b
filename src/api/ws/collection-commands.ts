import { describeValue, HubError } from '../../core/errors.js';
import type { JsonObject, JsonValue } from '../../core/json.js';
import { ownValue, setOwn } from '../../core/own-keys.js';
import type { HelperItems } from '../../http/context.js';
import { requireAdmin } from './command.js';
import type { Command, Connection } from './connection.js';

/**
 * Home Assistant's StorageCollectionWebsocket (helpers/collection.py): `<domain>/create`, `update` and `delete`, for
 * admins, over one collection of items (the helpers, the zones and persons made in the app). Each domain adds its own
 * `<domain>/list`.
 */
export interface CollectionAccess {
  /** The domain's collection; throws the command's error when there is none. */
  readonly items: (conn: Connection) => HelperItems;
  /** Checks a create's or update's data beyond the collection's own fields (a person's user), returning it. */
  readonly check?: (conn: Connection, data: JsonObject) => JsonObject;
}

function itemId(message: JsonObject, key: string): string {
  const value = ownValue(message, key);
  if (value === undefined) throw new HubError('invalid_format', `required key not provided @ data['${key}']`);
  if (typeof value !== 'string')
    throw new HubError('invalid_format', `expected str for dictionary value @ data['${key}']. Got ${describeValue(value)}`);
  return value;
}

/** The message without the protocol's keys (and without the item id key for update and delete). */
function payload(message: JsonObject, drop?: string): JsonObject {
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(message)) if (k !== 'id' && k !== 'type' && k !== drop) setOwn(out, k, v);
  return out;
}

export function collectionCommands(domain: string, access: CollectionAccess): [string, Command][] {
  const key = `${domain}_id`;
  const checked = (conn: Connection, data: JsonObject) => access.check?.(conn, data) ?? data;
  return [
    [
      `${domain}/create`,
      {
        run(conn, message, id) {
          requireAdmin(conn);
          const items = access.items(conn);
          conn.sendResult(id, JSON.stringify(items.create(checked(conn, payload(message)))));
        },
      },
    ],
    [
      `${domain}/update`,
      {
        run(conn, message, id) {
          requireAdmin(conn);
          const item = itemId(message, key);
          const items = access.items(conn);
          conn.sendResult(id, JSON.stringify(items.update(item, checked(conn, payload(message, key)))));
        },
      },
    ],
    [
      `${domain}/delete`,
      {
        run(conn, message, id) {
          requireAdmin(conn);
          const extra = Object.keys(payload(message, key));
          if (extra.length > 0) throw new HubError('invalid_format', `extra keys not allowed @ data['${extra[0]}']`);
          access.items(conn).delete(itemId(message, key));
          conn.sendResult(id, 'null');
        },
      },
    ],
  ];
}
