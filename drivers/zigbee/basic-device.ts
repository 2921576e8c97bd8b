import type { DeviceEntities, DeviceEntitiesFactory } from './types.js';

/**
 * The stand-in until device-entities.ts (the converters' definitions as entities) is merged: each paired device is a
 * device-registry entry under the coordinator, with no entities. The controller never depends on which one it gets.
 */
export const basicDeviceFactory: DeviceEntitiesFactory = async (host, device, name) => {
  const { core, owner } = host.ctx;
  let entry = core.devices.register({
    identifiers: [['zigbee', device.ieeeAddr]],
    name,
    owner,
    manufacturer: device.manufacturerName,
    model: device.modelID,
    sw_version: device.softwareBuildID,
    via_device: host.coordinator,
  });
  const entities: DeviceEntities = {
    ieee: device.ieeeAddr,
    model: undefined,
    vendor: undefined,
    description: undefined,
    supported: false,
    handleMessage() {},
    setAvailable() {},
    async configure() {},
    rename(newName) {
      entry = core.devices.register({ identifiers: [['zigbee', device.ieeeAddr]], name: newName, owner, via_device: host.coordinator });
    },
    remove() {
      core.devices.remove(entry.id);
    },
  };
  return entities;
};
