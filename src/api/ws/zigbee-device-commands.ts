import { HubError } from '../../core/errors.js';
import { command, requireAdmin } from './command.js';
import type { Command } from './connection.js';
import { required, strMaxLength } from './schema.js';

/** An IEEE address is 18 characters; a friendly name is accepted too (at most 100). */
const MAX_DEVICE_REF = 100;

/**
 * `zigbee/device/info` (admins): what the per-device Zigbee page shows of one paired device (its firmware, interview,
 * entities, endpoints with clusters, bindings and reporting): the `zigbee.device_info` service's response
 * (drivers/zigbee/device-info.ts). Without a `zigbee:` section there is no such service, and the command says so.
 */
const deviceInfo = command({ ieee_address: required(strMaxLength(MAX_DEVICE_REF)) }, async (conn, msg, id) => {
  const user = requireAdmin(conn);
  const services = conn.env.ctx.core.services;
  if (!services.has('zigbee', 'device_info'))
    throw new HubError('unknown_command', 'Unknown command: Zigbee is not configured (no zigbee: section).');
  const result = await services.call(
    'zigbee',
    'device_info',
    { ieee_address: msg.ieee_address },
    { returnResponse: true, userId: user.id },
  );
  conn.sendResult(id, JSON.stringify(result.response ?? null));
});

export const ZIGBEE_DEVICE_COMMANDS: readonly (readonly [string, Command])[] = [['zigbee/device/info', deviceInfo]];
