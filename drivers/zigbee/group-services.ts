import type { ZigbeeGroups } from './groups.js';
import type { ZigbeeHost } from './host.js';
import { configureReporting, REPORTING_FIELDS } from './reporting.js';
import { findDevice, withController } from './services.js';

/**
 * The `zigbee.group_*` and `zigbee.configure_reporting` services, under the driver's owner; the WebSocket commands
 * `zigbee/group/*` and `zigbee/configure_reporting` (src/api/ws/zigbee-commands.ts) call them.
 */

const GROUP_FIELD = {
  kind: 'text',
  name: 'Group',
  description: 'The id or friendly name of a Zigbee group.',
  required: true,
  maxLength: 200,
} as const;
const NAME_FIELD = { kind: 'text', name: 'Name', required: true, maxLength: 200 } as const;
const DEVICE_FIELD = {
  kind: 'text',
  name: 'Device',
  description: 'The IEEE address or friendly name of a paired device.',
  required: true,
  maxLength: 200,
} as const;
const ENDPOINT_FIELD = {
  kind: 'number',
  name: 'Endpoint',
  integer: true,
  min: 1,
  max: 240,
  description: "The device's first endpoint when absent.",
} as const;

export function registerGroupServices(driver: ZigbeeHost, groups: ZigbeeGroups): void {
  const { core, owner } = driver.ctx;
  const register = (def: Parameters<typeof core.services.register>[1]): void => core.services.register(owner, def);

  register({
    domain: 'zigbee',
    service: 'group_list',
    name: 'List groups',
    description: 'The Zigbee groups with their members and entity.',
    schema: { fields: {} },
    response: 'only',
    handler: () => ({ groups: groups.list() }),
  });

  register({
    domain: 'zigbee',
    service: 'group_create',
    name: 'Create group',
    description: 'A new Zigbee group (kept in the network database); the lowest free id unless given.',
    // `group_id`, not zigbee2mqtt's `id`: a WebSocket message's `id` is its own.
    schema: { fields: { friendly_name: NAME_FIELD, group_id: { kind: 'number', name: 'Group id', integer: true, min: 1, max: 0xfff7 } } },
    response: 'optional',
    handler: (call) =>
      withController(driver, (controller) =>
        groups.create(
          controller,
          String(call.data.friendly_name).trim(),
          typeof call.data.group_id === 'number' ? call.data.group_id : undefined,
        ),
      ),
  });

  register({
    domain: 'zigbee',
    service: 'group_rename',
    name: 'Rename group',
    description: "Gives a Zigbee group another friendly name (its entity's id stays).",
    schema: { fields: { group: GROUP_FIELD, friendly_name: NAME_FIELD } },
    response: 'optional',
    handler: (call) =>
      withController(driver, async (controller) =>
        groups.rename(groups.find(controller, call.data.group), String(call.data.friendly_name).trim()),
      ),
  });

  register({
    domain: 'zigbee',
    service: 'group_remove',
    name: 'Remove group',
    description: 'Removes a Zigbee group: each member leaves it; with force, only the hub forgets it.',
    schema: { fields: { group: GROUP_FIELD, force: { kind: 'boolean', name: 'Force', default: false } } },
    response: 'optional',
    handler: (call) =>
      withController(driver, (controller) => groups.remove(groups.find(controller, call.data.group), call.data.force === true)),
  });

  for (const add of [true, false]) {
    register({
      domain: 'zigbee',
      service: add ? 'group_add_member' : 'group_remove_member',
      name: add ? 'Add group member' : 'Remove group member',
      description: add ? "Adds a device's endpoint to a Zigbee group." : "Removes a device's endpoint from a Zigbee group.",
      schema: { fields: { group: GROUP_FIELD, device: DEVICE_FIELD, endpoint: ENDPOINT_FIELD } },
      response: 'optional',
      handler: (call) =>
        withController(driver, (controller) => {
          const group = groups.find(controller, call.data.group);
          const device = findDevice(driver, controller, String(call.data.device));
          return groups.member(group, device, call.data.endpoint, add);
        }),
    });
  }

  register({
    domain: 'zigbee',
    service: 'configure_reporting',
    name: 'Configure reporting',
    description: "Asks a device to report an attribute between two intervals (zigbee2mqtt's configure_reporting).",
    schema: { fields: REPORTING_FIELDS },
    response: 'optional',
    handler: (call) =>
      withController(driver, (controller) => configureReporting(driver, call, (ref) => findDevice(driver, controller, ref))),
  });
}
