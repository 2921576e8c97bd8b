import type { Controller } from 'zigbee-herdsman';
import { isoFromMicros } from '../../src/core/clock.js';
import { HubError } from '../../src/core/errors.js';
import type { JsonObject, JsonValue } from '../../src/core/json.js';
import type { ServiceCall } from '../../src/core/services.js';
import { bindService } from './bindings.js';
import { deviceInfo } from './device-info.js';
import { type ZigbeeHost, ZigbeeUnavailableError } from './host.js';
import { networkMap } from './network-map.js';
import type { ZigbeeDevice } from './types.js';

/** A paired device, as list_devices names it (ieee_address); its friendly name is accepted too. */
const DEVICE_FIELD = {
  kind: 'text',
  name: 'Device',
  description: 'The IEEE address (0x00158d0001a2b3c4) or the friendly name of a paired device.',
  required: true,
  example: '0x00158d0001a2b3c4',
} as const;

/** Runs a service body with the adapter's absence as a clear error rather than an internal one. */
export async function withController<T>(driver: ZigbeeHost, body: (controller: Controller) => Promise<T>): Promise<T> {
  try {
    return await body(driver.requireController());
  } catch (err) {
    // Away before the call or gone during it (a backup when the stick is pulled).
    if (err instanceof ZigbeeUnavailableError) throw new HubError('hub_error', `${err.message}; try again when it is back`);
    // The adapter's own failures (a timeout, a NACK) as a message, never a stack.
    if (err instanceof HubError) throw err;
    throw new HubError('hub_error', `Zigbee: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** A paired device by IEEE address or (case-insensitive) friendly name; the error names what was asked for. */
export function findDevice(driver: ZigbeeHost, controller: Controller, ref: string): ZigbeeDevice {
  const wanted = ref.trim().toLowerCase();
  for (const device of controller.getDevicesIterator((d) => d.type !== 'Coordinator')) {
    if (device.ieeeAddr === wanted || driver.devices.nameOf(device.ieeeAddr).toLowerCase() === wanted) return device;
  }
  throw new HubError(
    'service_validation',
    `device ${JSON.stringify(ref)} is not a paired Zigbee device: give the IEEE address or friendly name of one (zigbee.list_devices lists them)`,
  );
}

const text = (call: ServiceCall, key: string): string => String(call.data[key] ?? '');

/** The `zigbee.*` services, under the driver's owner so they go when it stops. */
export function registerZigbeeServices(driver: ZigbeeHost): void {
  const { core, owner } = driver.ctx;
  const register = (def: Parameters<typeof core.services.register>[1]): void => core.services.register(owner, def);

  register({
    domain: 'zigbee',
    service: 'permit_join',
    name: 'Permit join',
    description: 'Lets new devices join the Zigbee network for a while (0 closes it).',
    schema: {
      fields: {
        duration: {
          kind: 'number',
          name: 'Duration',
          min: 0,
          max: 254,
          integer: true,
          default: 254,
          unit: 's',
          description: 'Seconds to keep pairing open; 0 closes it.',
        },
        ieee_address: {
          kind: 'text',
          name: 'Router',
          description: 'Only through this router (its IEEE address); the whole network when absent.',
        },
      },
    },
    handler: (call) =>
      withController(driver, async (controller) => {
        const duration = typeof call.data.duration === 'number' ? call.data.duration : 254;
        const routerRef = call.data.ieee_address;
        let router: ZigbeeDevice | undefined;
        if (typeof routerRef === 'string' && routerRef !== '') {
          router = findDevice(driver, controller, routerRef);
          if (router.type !== 'Router')
            throw new HubError(
              'service_validation',
              `ieee_address ${routerRef} is an end device (${router.type}), not a router: give a mains-powered router's address or none`,
            );
        }
        await driver.permitJoin(duration, router);
      }),
  });

  register({
    domain: 'zigbee',
    service: 'remove_device',
    name: 'Remove device',
    description: 'Asks a device to leave the network and forgets it; with force, forgets it without asking (for a device that is gone).',
    schema: {
      fields: {
        ieee_address: DEVICE_FIELD,
        force: { kind: 'boolean', name: 'Force', default: false, description: 'Forget the device even if it does not answer.' },
      },
    },
    handler: (call) =>
      withController(driver, async (controller) => {
        const device = findDevice(driver, controller, text(call, 'ieee_address'));
        const ieee = device.ieeeAddr;
        if (call.data.force === true) device.removeFromDatabase();
        else {
          try {
            await device.removeFromNetwork();
          } catch (err) {
            throw new HubError(
              'hub_error',
              `device ${driver.devices.nameOf(ieee)} did not answer the leave request (${String(err)}); call again with force: true to forget it anyway`,
            );
          }
        }
        driver.devices.left(ieee, 'removed');
      }),
  });

  register({
    domain: 'zigbee',
    service: 'rename_device',
    name: 'Rename device',
    description: "Gives a device a new friendly name; its entities' names follow (their ids stay).",
    schema: {
      fields: { ieee_address: DEVICE_FIELD, name: { kind: 'text', name: 'Name', required: true, maxLength: 100, example: 'Hall sensor' } },
    },
    handler: (call) =>
      withController(driver, async (controller) => {
        const device = findDevice(driver, controller, text(call, 'ieee_address'));
        const name = text(call, 'name').trim();
        if (name === '') throw new HubError('invalid_service_data', "name must not be empty @ data['name']");
        const ieee = device.ieeeAddr;
        if (typeof driver.config.devices.get(ieee)?.friendly_name === 'string') {
          throw new HubError(
            'service_validation',
            `device ${ieee} is named in the configuration (zigbee.devices.${ieee}.friendly_name); change the name there`,
          );
        }
        for (const other of controller.getDevicesIterator((d) => d.ieeeAddr !== ieee && d.type !== 'Coordinator')) {
          if (driver.devices.nameOf(other.ieeeAddr).toLowerCase() === name.toLowerCase()) {
            throw new HubError(
              'service_validation',
              `name ${JSON.stringify(name)} is already the name of ${other.ieeeAddr}; choose another`,
            );
          }
        }
        driver.names.set(ieee, name);
        driver.devices.rename(ieee, name);
      }),
  });

  register({
    domain: 'zigbee',
    service: 'reconfigure_device',
    name: 'Reconfigure device',
    description: "Runs the device's configuration again (binds and attribute reporting), e.g. after it was reset.",
    schema: { fields: { ieee_address: DEVICE_FIELD } },
    handler: (call) =>
      withController(driver, async (controller) => {
        const device = findDevice(driver, controller, text(call, 'ieee_address'));
        if (driver.devices.get(device.ieeeAddr) === undefined)
          throw new HubError(
            'service_validation',
            `device ${driver.devices.nameOf(device.ieeeAddr)} has not finished its interview; it cannot be configured yet`,
          );
        try {
          await driver.devices.configure(device);
        } catch (err) {
          throw new HubError(
            'hub_error',
            `configuring ${driver.devices.nameOf(device.ieeeAddr)} failed: ${err instanceof Error ? err.message : String(err)} (a battery device may need a button press to wake up)`,
          );
        }
      }),
  });

  register({
    domain: 'zigbee',
    service: 'check_ota',
    name: 'Check firmware',
    description: 'Asks a device its firmware and the OTA index for a newer image; its update entity shows the answer.',
    schema: { fields: { ieee_address: DEVICE_FIELD } },
    response: 'optional',
    handler: (call) =>
      withController(driver, async (controller) => {
        const device = findDevice(driver, controller, text(call, 'ieee_address'));
        const check = driver.devices.get(device.ieeeAddr)?.checkOta;
        if (check === undefined)
          throw new HubError(
            'not_supported',
            `device ${driver.devices.nameOf(device.ieeeAddr)} has no firmware updates (the converters know no OTA for it)`,
          );
        try {
          const { installed, latest } = await check();
          return { installed_version: installed, latest_version: latest, update_available: installed !== latest };
        } catch (err) {
          throw new HubError(
            'hub_error',
            `the firmware check of ${driver.devices.nameOf(device.ieeeAddr)} failed: ${err instanceof Error ? err.message : String(err)} (a battery device may need a button press to wake up)`,
          );
        }
      }),
  });

  const bindFields = {
    source: { ...DEVICE_FIELD, name: 'Source' },
    target: { kind: 'text', name: 'Target', description: 'A device (IEEE address or name), or coordinator (the default).' },
    clusters: { kind: 'any', name: 'Clusters', description: 'A list of cluster names; by default those of a remote and a light.' },
    source_endpoint: { kind: 'number', name: 'Source endpoint', integer: true, min: 1, max: 240 },
    target_endpoint: { kind: 'number', name: 'Target endpoint', integer: true, min: 1, max: 240 },
  } as const;
  for (const unbind of [false, true]) {
    register({
      domain: 'zigbee',
      service: unbind ? 'unbind' : 'bind',
      name: unbind ? 'Unbind' : 'Bind',
      description: unbind
        ? "Removes a device's binding of clusters to another device or the coordinator."
        : "Binds a device's clusters to another device (a remote straight to a light) or to the coordinator.",
      schema: { fields: bindFields },
      response: 'optional',
      handler: (call) =>
        withController(driver, (controller) => bindService(driver, controller, call, unbind, (ref) => findDevice(driver, controller, ref))),
    });
  }

  register({
    domain: 'zigbee',
    service: 'network_map',
    name: 'Network map',
    description: 'The devices and the links their neighbour tables report (link quality, depth, relationship).',
    schema: { fields: {} },
    response: 'only',
    handler: () => withController(driver, (controller) => networkMap(driver, controller)),
  });

  register({
    domain: 'zigbee',
    service: 'device_info',
    name: 'Device info',
    description:
      'One paired device: firmware, interview, power source, its entities, and per endpoint its clusters, bindings and reporting.',
    schema: { fields: { ieee_address: DEVICE_FIELD } },
    response: 'only',
    handler: (call) =>
      withController(driver, async (controller) =>
        deviceInfo(driver, controller, findDevice(driver, controller, text(call, 'ieee_address'))),
      ),
  });

  register({
    domain: 'zigbee',
    service: 'backup',
    name: 'Back up coordinator',
    description: 'Writes the coordinator backup (coordinator_backup.json in the data directory) now.',
    schema: { fields: {} },
    handler: () =>
      withController(driver, async () => {
        if (!(await driver.backup()))
          throw new HubError('not_supported', 'this Zigbee adapter makes no coordinator backups (deCONZ cannot); database.db was saved');
      }),
  });

  register({
    domain: 'zigbee',
    service: 'list_devices',
    name: 'List devices',
    description: 'The paired devices with their model, power source, link quality, last seen and availability.',
    schema: { fields: {} },
    response: 'only',
    // Answers while the adapter is away too (the devices as last seen, each unavailable), so a page can show them.
    handler: () => {
      const controller = driver.running;
      return {
        adapter_connected: controller !== undefined,
        devices: controller === undefined ? [...driver.offlineDevices] : listDevices(driver, controller),
        ...permitJoinState(driver),
      };
    },
  });
}

function permitJoinState(driver: ZigbeeHost): JsonObject {
  const endsAt = driver.hub?.permitJoinEndsAt;
  return { permit_join: endsAt !== undefined, permit_join_ends_at: endsAt === undefined ? null : isoFromMicros(endsAt) };
}

export function listDevices(driver: ZigbeeHost, controller: Controller): JsonValue[] {
  const out: JsonValue[] = [];
  for (const device of controller.getDevicesIterator((d) => d.type !== 'Coordinator')) {
    const ieee = device.ieeeAddr;
    const entities = driver.devices.get(ieee);
    const lastSeen = driver.availability.lastSeen(ieee);
    out.push({
      ieee_address: ieee,
      friendly_name: driver.devices.nameOf(ieee),
      network_address: device.networkAddress,
      type: device.type,
      model: entities?.model ?? null,
      vendor: entities?.vendor ?? null,
      description: entities?.description ?? null,
      supported: entities?.supported ?? false,
      model_id: device.modelID ?? null,
      manufacturer: device.manufacturerName ?? null,
      power_source: device.powerSource ?? null,
      link_quality: device.linkquality ?? null,
      last_seen: lastSeen === undefined ? null : isoFromMicros(lastSeen),
      available: driver.availability.isAvailable(ieee),
      interview: device.interviewState.toLowerCase(),
      ota: entities?.checkOta !== undefined,
    });
  }
  out.sort((a, b) => String((a as JsonObject).friendly_name).localeCompare(String((b as JsonObject).friendly_name)));
  return out;
}
