import { HubError } from '../../core/errors.js';
import type { JsonObject, JsonValue } from '../../core/json.js';
import { requireAdmin, userOf } from './command.js';
import type { Command, Connection } from './connection.js';

/**
 * Home Assistant's person and zone collection commands, as its frontend reads them: `person/list` gives
 * `{storage, config}` (the YAML persons, as person/__init__.py ws_list_person) and `zone/list` the stored zones.
 * hearth keeps persons and zones in the YAML only (src/presence), so nothing is stored and `create`, `update` and
 * `delete` are refused, naming the section to edit.
 */

/** A YAML person as HA's yaml collection lists it, read back from its entity's attributes. */
function yamlPerson(attributes: JsonObject): JsonObject {
  const out: Record<string, JsonValue> = { id: attributes.id ?? null, name: attributes.friendly_name ?? null };
  if (attributes.user_id !== undefined) out.user_id = attributes.user_id;
  out.device_trackers = attributes.device_trackers ?? [];
  if (attributes.entity_picture !== undefined) out.picture = attributes.entity_picture;
  return out;
}

function personList(conn: Connection, _message: JsonObject, id: number): void {
  userOf(conn);
  const { core } = conn.env.ctx;
  const config = [...core.entities.ofDomain('person')]
    .map((e) => core.states.get(e.id))
    .filter((s) => s !== undefined && s.attributes.editable === false)
    .map((s) => yamlPerson(s?.attributes as JsonObject));
  conn.sendResult(id, JSON.stringify({ storage: [], config }));
}

function refuse(domain: 'person' | 'zone'): Command {
  return {
    run(conn) {
      requireAdmin(conn);
      throw new HubError(
        'not_supported',
        `hearth keeps ${domain}s in the configuration file: edit its ${domain}: section and call ${domain}.reload`,
      );
    },
  };
}

export const PRESENCE_COMMANDS: readonly [string, Command][] = [
  ['person/list', { run: personList }],
  ['person/create', refuse('person')],
  ['person/update', refuse('person')],
  ['person/delete', refuse('person')],
  [
    'zone/list',
    {
      run(conn, _message, id) {
        userOf(conn);
        conn.sendResult(id, '[]');
      },
    },
  ],
  ['zone/create', refuse('zone')],
  ['zone/update', refuse('zone')],
  ['zone/delete', refuse('zone')],
];
