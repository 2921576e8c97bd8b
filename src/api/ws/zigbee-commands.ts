import { HubError } from '../../core/errors.js';
import type { JsonValue } from '../../core/json.js';
import { requireAdmin } from './command.js';
import type { Command } from './connection.js';

/**
 * The Zigbee page's commands (admins): each is the `zigbee.*` service of the same meaning (drivers/zigbee/
 * group-services.ts), its fields the message's own, its result the service's response. Without a `zigbee:`
 * section there are no such services, and the command says so.
 */
const SERVICES: readonly (readonly [string, string])[] = [
  ['zigbee/group/list', 'group_list'],
  ['zigbee/group/create', 'group_create'],
  ['zigbee/group/rename', 'group_rename'],
  ['zigbee/group/remove', 'group_remove'],
  ['zigbee/group/add_member', 'group_add_member'],
  ['zigbee/group/remove_member', 'group_remove_member'],
  ['zigbee/configure_reporting', 'configure_reporting'],
];

function serviceCommand(service: string): Command {
  return {
    run: async (conn, message, id) => {
      const user = requireAdmin(conn);
      const services = conn.env.ctx.core.services;
      if (!services.has('zigbee', service))
        throw new HubError('unknown_command', 'Unknown command: Zigbee is not configured (no zigbee: section).');
      const data: Record<string, JsonValue> = Object.create(null);
      for (const [k, v] of Object.entries(message)) if (k !== 'id' && k !== 'type') data[k] = v;
      const result = await services.call('zigbee', service, data, { returnResponse: true, userId: user.id });
      conn.sendResult(id, JSON.stringify(result.response ?? null));
    },
  };
}

export const ZIGBEE_COMMANDS: readonly (readonly [string, Command])[] = SERVICES.map(([type, service]) => [type, serviceCommand(service)]);
