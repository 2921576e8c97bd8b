import type { DeviceEntry, DeviceRegistry } from '../core/devices.js';
import type { JsonValue } from '../core/json.js';
import type { Registries } from '../registry/index.js';
import { readArgs } from './args.js';
import { pyStr } from './py-format.js';

/**
 * Areas, floors, devices and labels: area_entities, area_name, area_id, area_devices, floor_id, floor_name,
 * floor_areas, device_entities, device_attr, device_id, integration_entities, label_entities, label_devices,
 * label_areas, labels. Without registries (a bare engine) they
 * answer as Home Assistant does for names it does not know: an empty list or None.
 */
export function registryFunctions(
  devices: DeviceRegistry,
  registries: Registries | undefined,
): Record<string, (...args: unknown[]) => unknown> {
  const areaOf = (lookup: unknown): string | undefined => {
    if (registries === undefined || typeof lookup !== 'string') return undefined;
    return registries.areas.find(lookup);
  };
  const entityEntries = () => (registries === undefined ? [] : [...registries.entities.entries()]);
  const deviceOf = (lookup: unknown): DeviceEntry | undefined => {
    if (typeof lookup !== 'string') return undefined;
    const direct = devices.get(lookup);
    if (direct !== undefined) return direct;
    const entry = registries?.entities.entry(lookup.toLowerCase());
    return entry?.device_id == null ? undefined : devices.get(entry.device_id);
  };
  /** An area id from an area id or name, an entity id (its own area, else its device's) or a device id. */
  const resolveArea = (lookup: unknown): string | undefined => {
    if (registries === undefined || typeof lookup !== 'string') return undefined;
    const byArea = registries.areas.find(lookup);
    if (byArea !== undefined) return byArea;
    const entry = registries.entities.entry(lookup.toLowerCase());
    if (entry !== undefined) {
      if (entry.area_id !== null) return entry.area_id;
      if (entry.device_id !== null) return devices.get(entry.device_id)?.area_id ?? undefined;
      return undefined;
    }
    return devices.get(lookup)?.area_id ?? undefined;
  };
  const labelOf = (lookup: unknown): string | undefined =>
    registries === undefined || typeof lookup !== 'string' ? undefined : registries.labels.find(lookup);

  return {
    area_entities: (...args) => {
      const area = areaOf(readArgs('area_entities', args, ['area_id_or_name']).values.area_id_or_name);
      if (area === undefined) return [];
      const entries = entityEntries();
      const out = entries.filter((e) => e.area_id === area).map((e) => e.entity_id);
      for (const device of devices.all()) {
        if (device.area_id !== area) continue;
        for (const e of entries) if (e.device_id === device.id && e.area_id === null) out.push(e.entity_id);
      }
      return out;
    },
    area_devices: (...args) => {
      const area = areaOf(readArgs('area_devices', args, ['area_id_or_name']).values.area_id_or_name);
      return area === undefined ? [] : [...devices.all()].filter((d) => d.area_id === area).map((d) => d.id);
    },
    area_id: (...args) => resolveArea(readArgs('area_id', args, ['lookup_value']).values.lookup_value) ?? null,
    area_name: (...args) => {
      const area = resolveArea(readArgs('area_name', args, ['lookup_value']).values.lookup_value);
      return area === undefined ? null : (registries?.areas.entry(area)?.name ?? null);
    },
    device_entities: (...args) => {
      const id = readArgs('device_entities', args, ['device_id']).values.device_id;
      return entityEntries()
        .filter((e) => e.device_id !== null && e.device_id === id)
        .map((e) => e.entity_id);
    },
    device_id: (...args) => {
      const lookup = readArgs('device_id', args, ['entity_id_or_device_name']).values.entity_id_or_device_name;
      if (typeof lookup !== 'string') return null;
      const entry = registries?.entities.entry(lookup.toLowerCase());
      if (entry !== undefined) return entry.device_id;
      for (const d of devices.all()) if ((d.name_by_user ?? d.name) === lookup) return d.id;
      return null;
    },
    device_attr: (...args) => {
      const a = readArgs('device_attr', args, ['device_or_entity_id', 'attr_name']);
      const device = deviceOf(a.values.device_or_entity_id);
      if (device === undefined) return null;
      const name = pyStr(a.values.attr_name);
      if (!Object.hasOwn(device, name)) return null;
      return structuredClone((device as unknown as Record<string, JsonValue>)[name]);
    },
    label_entities: (...args) => {
      const label = labelOf(readArgs('label_entities', args, ['label_id_or_name']).values.label_id_or_name);
      return label === undefined
        ? []
        : entityEntries()
            .filter((e) => e.labels.includes(label))
            .map((e) => e.entity_id);
    },
    label_devices: (...args) => {
      const label = labelOf(readArgs('label_devices', args, ['label_id_or_name']).values.label_id_or_name);
      return label === undefined ? [] : [...devices.all()].filter((d) => d.labels.includes(label)).map((d) => d.id);
    },
    label_areas: (...args) => {
      const label = labelOf(readArgs('label_areas', args, ['label_id_or_name']).values.label_id_or_name);
      if (label === undefined || registries === undefined) return [];
      return [...registries.areas.entries()].filter((a) => a.labels.includes(label)).map((a) => a.id);
    },
    integration_entities: (...args) => {
      const name = readArgs('integration_entities', args, ['entry_name']).values.entry_name;
      return entityEntries()
        .filter((e) => e.platform === name)
        .map((e) => e.entity_id);
    },
    floor_id: (...args) => {
      const lookup = readArgs('floor_id', args, ['lookup_value']).values.lookup_value;
      if (registries === undefined || typeof lookup !== 'string') return null;
      const floor = registries.floors.find(lookup);
      if (floor !== undefined) return floor;
      const area = resolveArea(lookup);
      return area === undefined ? null : (registries.areas.entry(area)?.floor_id ?? null);
    },
    floor_name: (...args) => {
      const lookup = readArgs('floor_name', args, ['lookup_value']).values.lookup_value;
      if (registries === undefined || typeof lookup !== 'string') return null;
      const area = registries.floors.has(lookup) ? undefined : resolveArea(lookup);
      const floor = area === undefined ? registries.floors.find(lookup) : (registries.areas.entry(area)?.floor_id ?? undefined);
      return floor === undefined ? null : (registries.floors.entry(floor)?.name ?? null);
    },
    floor_areas: (...args) => {
      const lookup = readArgs('floor_areas', args, ['floor_id_or_name']).values.floor_id_or_name;
      if (registries === undefined || typeof lookup !== 'string') return [];
      const floor = registries.floors.find(lookup);
      return floor === undefined ? [] : [...registries.areas.entries()].filter((a) => a.floor_id === floor).map((a) => a.id);
    },
    labels: (...args) => {
      const lookup = readArgs('labels', args, ['lookup_value']).values.lookup_value;
      if (registries === undefined) return [];
      if (lookup === undefined) return [...registries.labels.entries()].map((l) => l.id);
      if (typeof lookup !== 'string') return [];
      const entry = registries.entities.entry(lookup.toLowerCase());
      if (entry !== undefined) return [...entry.labels];
      const device = devices.get(lookup);
      if (device !== undefined) return [...device.labels];
      const area = registries.areas.find(lookup);
      return area === undefined ? [] : [...(registries.areas.entry(area)?.labels ?? [])];
    },
  };
}
