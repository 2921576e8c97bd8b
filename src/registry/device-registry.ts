import type { Core } from '../core/core.js';
import type { DeviceEntry, DeviceRegistryHooks, DeviceUserFields } from '../core/devices.js';
import { describeValue, HubError } from '../core/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import type { Logger } from '../core/log.js';
import { checkOptionalText, checkStringList, invalid, MAX_NAME_LENGTH } from './common.js';

/** What `config/device_registry/update` may change; absent keys stay, null clears. */
export interface DeviceChanges {
  readonly name_by_user?: string | null;
  readonly area_id?: string | null;
  readonly labels?: readonly string[];
  readonly disabled_by?: 'user' | null;
}

export interface DeviceRegistryDeps {
  readonly core: Core;
  readonly log: Logger;
  hasArea(id: string): boolean;
  hasLabel(id: string): boolean;
  /** The id of an area by id or name, created when there is none (a driver's suggested area). */
  areaFor(idOrName: string): string | null;
  /** A device was disabled or enabled by the user; its entities follow. */
  deviceDisabled(deviceId: string, disabled: boolean): void;
  changed(): void;
}

interface StoredDevice extends DeviceUserFields {
  readonly id: string;
  readonly name: string;
  readonly identifiers: readonly (readonly [string, string])[];
  readonly manufacturer: string | null;
  readonly model: string | null;
}

/**
 * The device registry as clients see it: Home Assistant's JSON, validated updates, and the user's
 * settings (name_by_user, area, labels, disabled_by) kept on disk and applied again when a driver
 * registers the device after a restart. The devices themselves live in the core (drivers register there).
 */
export class DeviceRegistryView implements DeviceRegistryHooks {
  private readonly stored = new Map<string, StoredDevice>();

  constructor(private readonly deps: DeviceRegistryDeps) {}

  /** `config/device_registry/list`: the registered devices. */
  list(): JsonObject[] {
    return Array.from(this.deps.core.devices.all(), deviceJson);
  }

  get(id: string): JsonObject | undefined {
    const entry = this.deps.core.devices.get(id);
    return entry === undefined ? undefined : deviceJson(entry);
  }

  /** `config/device_registry/update`; returns the device. Fires `device_registry_updated` with the old values. */
  update(id: string, changes: DeviceChanges): JsonObject {
    const { core } = this.deps;
    if (typeof id !== 'string' || core.devices.get(id) === undefined) throw new HubError('not_found', 'Device not found');
    const next: { name_by_user?: string | null; area_id?: string | null; labels?: string[]; disabled_by?: 'user' | null } = {};
    if (changes.name_by_user !== undefined) {
      next.name_by_user = checkOptionalText(changes.name_by_user, 'name_by_user');
      if (next.name_by_user !== null && next.name_by_user.length > MAX_NAME_LENGTH) {
        throw invalid('name_by_user', `length of value must be at most ${MAX_NAME_LENGTH}`);
      }
    }
    if (changes.area_id !== undefined) {
      next.area_id = checkOptionalText(changes.area_id, 'area_id');
      if (next.area_id !== null && !this.deps.hasArea(next.area_id))
        throw invalid('area_id', `no area with id ${describeValue(next.area_id)} exists`);
    }
    if (changes.labels !== undefined) {
      next.labels = checkStringList(changes.labels, 'labels');
      const unknown = next.labels.find((l) => !this.deps.hasLabel(l));
      if (unknown !== undefined) throw invalid('labels', `no label with id ${describeValue(unknown)} exists`);
    }
    if (changes.disabled_by !== undefined) {
      if (changes.disabled_by !== null && changes.disabled_by !== 'user') {
        throw invalid('disabled_by', `expected user or None. Got ${describeValue(changes.disabled_by)}`);
      }
      next.disabled_by = changes.disabled_by;
    }
    const before = core.devices.get(id)?.disabled_by ?? null;
    const entry = core.devices.update(id, next) as DeviceEntry;
    if ((before === null) !== (entry.disabled_by === null)) this.deps.deviceDisabled(id, entry.disabled_by !== null);
    return deviceJson(entry);
  }

  // ---- the core's hooks ----

  restore(deviceId: string): DeviceUserFields | undefined {
    return this.stored.get(deviceId);
  }

  suggestedArea(nameOrId: string): string | null {
    return this.deps.areaFor(nameOrId);
  }

  // ---- for the Registries facade ----

  /**
   * A device was registered or changed: remember it (what the user set survives a restart). The core's entry
   * itself is kept, not a copy: the core changes it only in register() and update(), each of which brings
   * the hub here again, and a removed device's entry is left as it was last.
   */
  remember(deviceId: string): void {
    const d = this.deps.core.devices.get(deviceId);
    if (d === undefined) return;
    this.stored.set(d.id, d);
    this.deps.changed();
  }

  /** Clears a deleted area from devices, registered or only remembered. */
  clearArea(areaId: string): void {
    for (const d of this.deps.core.devices.all()) if (d.area_id === areaId) this.deps.core.devices.update(d.id, { area_id: null });
    for (const [id, s] of this.stored) if (s.area_id === areaId) this.stored.set(id, { ...s, area_id: null });
    this.deps.changed();
  }

  clearLabel(labelId: string): void {
    for (const d of this.deps.core.devices.all()) {
      if (d.labels.includes(labelId)) this.deps.core.devices.update(d.id, { labels: d.labels.filter((l) => l !== labelId) });
    }
    for (const [id, s] of this.stored)
      if (s.labels.includes(labelId)) this.stored.set(id, { ...s, labels: s.labels.filter((l) => l !== labelId) });
    this.deps.changed();
  }

  load(raw: readonly JsonValue[]): void {
    for (const item of raw) {
      const d = isJsonObject(item) ? fromJson(item) : undefined;
      if (d === undefined) {
        this.deps.log.warn({ item }, 'skipping a stored device that is not valid');
        continue;
      }
      this.stored.set(d.id, d);
    }
  }

  serialize(): JsonValue[] {
    return Array.from(this.stored.values(), (d) => ({
      id: d.id,
      name: d.name,
      identifiers: d.identifiers.map((i) => [i[0], i[1]]),
      manufacturer: d.manufacturer,
      model: d.model,
      name_by_user: d.name_by_user,
      area_id: d.area_id,
      labels: [...d.labels],
      disabled_by: d.disabled_by,
      created_at: d.created_at ?? 0,
      modified_at: d.modified_at ?? 0,
    }));
  }
}

/** A device as Home Assistant's `config/device_registry/list` shows it. */
export function deviceJson(d: DeviceEntry): JsonObject {
  return {
    area_id: d.area_id,
    configuration_url: null,
    config_entries: [],
    connections: [],
    created_at: d.created_at,
    disabled_by: d.disabled_by,
    entry_type: null,
    hw_version: d.hw_version,
    id: d.id,
    identifiers: d.identifiers.map((i) => [i[0], i[1]]),
    labels: d.labels,
    manufacturer: d.manufacturer,
    model: d.model,
    model_id: null,
    modified_at: d.modified_at,
    name_by_user: d.name_by_user,
    name: d.name,
    primary_config_entry: null,
    serial_number: d.serial_number,
    sw_version: d.sw_version,
    via_device_id: d.via_device_id,
  };
}

function fromJson(raw: JsonObject): StoredDevice | undefined {
  const text = (key: string): string | null | undefined => {
    const v = raw[key];
    return v === undefined || v === null ? null : typeof v === 'string' ? v : undefined;
  };
  const { id, name, identifiers, labels } = raw;
  if (typeof id !== 'string' || typeof name !== 'string') return undefined;
  if (
    !Array.isArray(identifiers) ||
    !identifiers.every((i) => Array.isArray(i) && i.length === 2 && i.every((x) => typeof x === 'string'))
  ) {
    return undefined;
  }
  if (!Array.isArray(labels) || !labels.every((l) => typeof l === 'string')) return undefined;
  const fields = {
    manufacturer: text('manufacturer'),
    model: text('model'),
    name_by_user: text('name_by_user'),
    area_id: text('area_id'),
    disabled_by: text('disabled_by'),
  };
  if (Object.values(fields).some((v) => v === undefined)) return undefined;
  return {
    ...(fields as {
      manufacturer: string | null;
      model: string | null;
      name_by_user: string | null;
      area_id: string | null;
      disabled_by: string | null;
    }),
    id,
    name,
    identifiers: (identifiers as string[][]).map((i) => [i[0] as string, i[1] as string] as const),
    labels: [...(labels as string[])],
    created_at: typeof raw.created_at === 'number' ? raw.created_at : undefined,
    modified_at: typeof raw.modified_at === 'number' ? raw.modified_at : undefined,
  };
}
