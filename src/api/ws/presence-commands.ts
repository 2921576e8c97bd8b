import { HubError } from '../../core/errors.js';
import type { JsonObject, JsonValue } from '../../core/json.js';
import type { HelperItems } from '../../http/context.js';
import { collectionCommands } from './collection-commands.js';
import { userOf } from './command.js';
import type { Command, Connection } from './connection.js';

/**
 * Home Assistant's person and zone collection commands (StorageCollectionWebsocket): `<domain>/list` for any user,
 * `create`, `update` and `delete` for admins, on the zones and persons made in the app (src/presence keeps them in
 * `.storage/zone` and `.storage/person`). The YAML ones are read-only: `person/list` shows them apart as `config`
 * (person/__init__.py ws_list_person), `zone/list` not at all, as in Home Assistant.
 */

type Domain = 'zone' | 'person';

/** A YAML person as HA's yaml collection lists it, read back from its entity's attributes. */
function yamlPerson(attributes: JsonObject): JsonObject {
  const out: Record<string, JsonValue> = { id: attributes.id ?? null, name: attributes.friendly_name ?? null };
  if (attributes.user_id !== undefined) out.user_id = attributes.user_id;
  out.device_trackers = attributes.device_trackers ?? [];
  if (attributes.entity_picture !== undefined) out.picture = attributes.entity_picture;
  return out;
}

function collection(conn: Connection, domain: Domain): HelperItems | undefined {
  return conn.env.ctx.presence?.(domain);
}

/** For the changing commands: without the presence part there is nothing to keep them in. */
function needCollection(conn: Connection, domain: Domain): HelperItems {
  const found = collection(conn, domain);
  if (found === undefined)
    throw new HubError('not_supported', `${domain} is not loaded: add default_config: (or a ${domain}: section) to the configuration`);
  return found;
}

function personList(conn: Connection, _message: JsonObject, id: number): void {
  userOf(conn);
  const { core } = conn.env.ctx;
  const config = [...core.entities.ofDomain('person')]
    .map((e) => core.states.get(e.id))
    .filter((s) => s !== undefined && s.attributes.editable === false)
    .map((s) => yamlPerson(s?.attributes as JsonObject));
  conn.sendResult(id, JSON.stringify({ storage: collection(conn, 'person')?.list() ?? [], config }));
}

/** A person's user must be one of the hub's users (PersonStorageCollection._validate_user_id). */
function checkUser(conn: Connection, data: JsonObject): JsonObject {
  const user = data.user_id;
  if (typeof user === 'string' && conn.env.ctx.auth.getUser(user) === undefined)
    throw new HubError('invalid_format', 'User does not exist');
  return data;
}

export const PRESENCE_COMMANDS: readonly [string, Command][] = [
  ['person/list', { run: personList }],
  [
    'zone/list',
    {
      run(conn, _message, id) {
        userOf(conn);
        conn.sendResult(id, JSON.stringify(collection(conn, 'zone')?.list() ?? []));
      },
    },
  ],
  ...collectionCommands('person', { items: (conn) => needCollection(conn, 'person'), check: checkUser }),
  ...collectionCommands('zone', { items: (conn) => needCollection(conn, 'zone') }),
];
