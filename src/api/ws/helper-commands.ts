import { HubError } from '../../core/errors.js';
import { HELPER_DOMAINS } from '../../domains/index.js';
import type { HelperItems } from '../../http/context.js';
import { collectionCommands } from './collection-commands.js';
import { userOf } from './command.js';
import type { Command, Connection } from './connection.js';

/**
 * Home Assistant's StorageCollectionWebsocket (helpers/collection.py), built once for every helper domain:
 * `<domain>/list` for any user; `create`, `update` and `delete` for admins (collection-commands.ts). The item's keys
 * are checked by the helper's own fields (src/helpers), which name the key and what it allows.
 */

function items(conn: Connection, domain: string): HelperItems {
  const found = conn.env.ctx.helpers?.(domain);
  if (found === undefined) throw new HubError('unknown_command', `Unknown command: ${domain}`);
  return found;
}

function commandsFor(domain: string): [string, Command][] {
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
    ...collectionCommands(domain, { items: (conn) => items(conn, domain) }),
  ];
}

export const HELPER_COMMANDS: readonly [string, Command][] = HELPER_DOMAINS.flatMap(commandsFor);
