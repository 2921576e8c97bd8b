import { createHash } from 'node:crypto';
import type { Clock } from './clock.js';
import { createContext } from './context.js';
import type { EventBus } from './event-bus.js';

/** A device identifier as Home Assistant keeps them: [integration, id], e.g. ['i2c', '1-0x76']. */
export type DeviceIdentifier = readonly [string, string];

/** What a driver knows about a physical thing it talks to (a BME280, a relay board, a Zigbee bulb). */
export interface DeviceInit {
  readonly identifiers: readonly DeviceIdentifier[];
  readonly name: string;
  /** The driver that registered it; its devices are removed together when the owner is removed. */
  readonly owner: string;
  readonly manufacturer?: string;
  readonly model?: string;
  readonly sw_version?: string;
  readonly hw_version?: string;
  readonly serial_number?: string;
  /** The device this one is reached through (a hub, a bus controller). */
  readonly via_device?: DeviceIdentifier;
  /** A suggested area for a new device. */
  readonly suggested_area?: string;
}

/** A device registry entry, with Home Assistant's field names. */
export interface DeviceEntry {
  readonly id: string;
  readonly identifiers: DeviceIdentifier[];
  readonly owner: string;
  name: string;
  name_by_user: string | null;
  manufacturer: string | null;
  model: string | null;
  sw_version: string | null;
  hw_version: string | null;
  serial_number: string | null;
  via_device_id: string | null;
  area_id: string | null;
  labels: string[];
  disabled_by: string | null;
  created_at: number;
  modified_at: number;
}

/** A stable device id from its first identifier, so the same chip gets the same id on every start. */
function deviceIdFor(identifier: DeviceIdentifier): string {
  return createHash('sha256').update(`${identifier[0]}\u0000${identifier[1]}`).digest('hex').slice(0, 32);
}

/**
 * The devices drivers register. Registering again with a known identifier updates that entry (a driver
 * restarting, firmware changed) and keeps what the user set (name_by_user, area, labels).
 */
export class DeviceRegistry {
  private readonly byId = new Map<string, DeviceEntry>();
  private readonly byIdentifier = new Map<string, string>();

  constructor(
    private readonly bus: EventBus,
    private readonly clock: Clock,
  ) {}

  register(init: DeviceInit): DeviceEntry {
    const first = init.identifiers[0];
    if (first === undefined) throw new Error(`device ${init.name} needs at least one identifier`);
    const known = init.identifiers.map((i) => this.byIdentifier.get(key(i))).find((id) => id !== undefined);
    const now = this.clock.now() / 1_000_000;
    const via = init.via_device === undefined ? null : (this.byIdentifier.get(key(init.via_device)) ?? null);
    const existing = known === undefined ? undefined : this.byId.get(known);
    if (existing !== undefined) {
      Object.assign(existing, {
        name: init.name,
        manufacturer: init.manufacturer ?? existing.manufacturer,
        model: init.model ?? existing.model,
        sw_version: init.sw_version ?? existing.sw_version,
        hw_version: init.hw_version ?? existing.hw_version,
        serial_number: init.serial_number ?? existing.serial_number,
        via_device_id: via ?? existing.via_device_id,
        modified_at: now,
      });
      for (const i of init.identifiers) this.byIdentifier.set(key(i), existing.id);
      this.fire('update', existing.id);
      return existing;
    }
    const entry: DeviceEntry = {
      id: deviceIdFor(first),
      identifiers: init.identifiers.map((i) => [i[0], i[1]] as const),
      owner: init.owner,
      name: init.name,
      name_by_user: null,
      manufacturer: init.manufacturer ?? null,
      model: init.model ?? null,
      sw_version: init.sw_version ?? null,
      hw_version: init.hw_version ?? null,
      serial_number: init.serial_number ?? null,
      via_device_id: via,
      area_id: null,
      labels: [],
      disabled_by: null,
      created_at: now,
      modified_at: now,
    };
    this.byId.set(entry.id, entry);
    for (const i of init.identifiers) this.byIdentifier.set(key(i), entry.id);
    this.fire('create', entry.id);
    return entry;
  }

  get(id: string): DeviceEntry | undefined {
    return this.byId.get(id);
  }

  byIdentifierOf(identifier: DeviceIdentifier): DeviceEntry | undefined {
    const id = this.byIdentifier.get(key(identifier));
    return id === undefined ? undefined : this.byId.get(id);
  }

  all(): IterableIterator<DeviceEntry> {
    return this.byId.values();
  }

  remove(id: string): boolean {
    const entry = this.byId.get(id);
    if (entry === undefined) return false;
    this.byId.delete(id);
    for (const i of entry.identifiers) this.byIdentifier.delete(key(i));
    this.fire('remove', id);
    return true;
  }

  removeOwner(owner: string): void {
    for (const entry of [...this.byId.values()]) if (entry.owner === owner) this.remove(entry.id);
  }

  private fire(action: 'create' | 'update' | 'remove', deviceId: string): void {
    this.bus.fire('device_registry_updated', { action, device_id: deviceId }, createContext(this.clock.now()));
  }
}

function key(identifier: DeviceIdentifier): string {
  return `${identifier[0]}\u0000${identifier[1]}`;
}
