import { createHash } from 'node:crypto';
import type { Clock } from './clock.js';
import { createContext } from './context.js';
import type { EventBus } from './event-bus.js';
import type { JsonValue } from './json.js';

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
  /** A suggested area (name or id) for a new device; created when it does not exist yet. */
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
  /** Replaced, never changed in place: the device registry keeps the entry itself to write to disk. */
  labels: readonly string[];
  disabled_by: string | null;
  created_at: number;
  modified_at: number;
}

/** What the user sets on a device; kept across restarts and applied when a driver registers it again. */
export interface DeviceUserFields {
  readonly name_by_user: string | null;
  readonly area_id: string | null;
  readonly labels: readonly string[];
  readonly disabled_by: string | null;
  readonly created_at?: number;
  readonly modified_at?: number;
}

/** A change to a device's user fields; absent keys are left as they are. */
export interface DeviceUpdate {
  readonly name_by_user?: string | null;
  readonly area_id?: string | null;
  readonly labels?: readonly string[];
  readonly disabled_by?: string | null;
}

/** How the registries (src/registry) keep devices' user fields and turn a suggested area into an area id. */
export interface DeviceRegistryHooks {
  /** Stored user fields of a device id, or undefined for a device never seen before. */
  restore(deviceId: string): DeviceUserFields | undefined;
  /** The area id for a new device's suggested area, or null. */
  suggestedArea(nameOrId: string): string | null;
}

/** A stable device id from its first identifier, so the same chip gets the same id on every start. */
export function deviceIdFor(identifier: DeviceIdentifier): string {
  return createHash('sha256').update(`${identifier[0]}\u0000${identifier[1]}`).digest('hex').slice(0, 32);
}

type Changes = Record<string, JsonValue>;

/** The labels of a device that has none: one shared array, not one per device. */
const NO_LABELS: readonly string[] = Object.freeze([]);

/**
 * The devices drivers register. Registering again with a known identifier updates that entry (a driver
 * restarting, firmware changed) and keeps what the user set (name_by_user, area, labels); with hooks
 * installed, what the user set also survives a restart of the hub.
 */
export class DeviceRegistry {
  private readonly byId = new Map<string, DeviceEntry>();
  private readonly byIdentifier = new Map<string, string>();
  private hooks: DeviceRegistryHooks | undefined;
  private kept = false;
  /** Lists that collect the ids of devices created meanwhile (createdWhile). */
  private readonly trackers: string[][] = [];

  constructor(
    private readonly bus: EventBus,
    private readonly clock: Clock,
  ) {}

  setHooks(hooks: DeviceRegistryHooks | undefined): void {
    this.hooks = hooks;
  }

  register(init: DeviceInit): DeviceEntry {
    const first = init.identifiers[0];
    if (first === undefined) throw new Error(`device ${init.name} needs at least one identifier`);
    const known = init.identifiers.map((i) => this.byIdentifier.get(key(i))).find((id) => id !== undefined);
    const now = this.clock.now() / 1_000_000;
    const via = init.via_device === undefined ? null : (this.byIdentifier.get(key(init.via_device)) ?? null);
    const existing = known === undefined ? undefined : this.byId.get(known);
    if (existing !== undefined) {
      const next = {
        name: init.name,
        manufacturer: init.manufacturer ?? existing.manufacturer,
        model: init.model ?? existing.model,
        sw_version: init.sw_version ?? existing.sw_version,
        hw_version: init.hw_version ?? existing.hw_version,
        serial_number: init.serial_number ?? existing.serial_number,
        via_device_id: via ?? existing.via_device_id,
      };
      const changes: Changes = {};
      for (const [k, v] of Object.entries(next)) {
        if (existing[k as keyof typeof next] !== v) changes[k] = existing[k as keyof typeof next];
      }
      for (const i of init.identifiers) this.byIdentifier.set(key(i), existing.id);
      if (Object.keys(changes).length > 0) {
        Object.assign(existing, next, { modified_at: now });
        this.fire('update', existing.id, changes);
      }
      return existing;
    }
    const id = deviceIdFor(first);
    const stored = this.hooks?.restore(id);
    const suggested = init.suggested_area === undefined ? null : (this.hooks?.suggestedArea(init.suggested_area) ?? null);
    const entry: DeviceEntry = {
      id,
      identifiers: init.identifiers.map((i) => [i[0], i[1]] as const),
      owner: init.owner,
      name: init.name,
      name_by_user: stored?.name_by_user ?? null,
      manufacturer: init.manufacturer ?? null,
      model: init.model ?? null,
      sw_version: init.sw_version ?? null,
      hw_version: init.hw_version ?? null,
      serial_number: init.serial_number ?? null,
      via_device_id: via,
      // Home Assistant applies a suggested area only to a device it has not seen before.
      area_id: stored === undefined ? suggested : stored.area_id,
      labels: stored === undefined || stored.labels.length === 0 ? NO_LABELS : [...stored.labels],
      disabled_by: stored?.disabled_by ?? null,
      created_at: stored?.created_at ?? now,
      modified_at: stored?.modified_at ?? now,
    };
    this.byId.set(entry.id, entry);
    for (const i of init.identifiers) this.byIdentifier.set(key(i), entry.id);
    for (const created of this.trackers) created.push(entry.id);
    this.fire('create', entry.id);
    return entry;
  }

  /**
   * Runs `fn`; when it throws, `undo` gets the ids of the devices it created before the throw (entries new to the
   * registry, not ones it updated) and answers instead. What a driver adding one unit uses to leave nothing behind,
   * at the cost of one list per call: not a copy of every device, which made a start with 10,000 entities quadratic.
   */
  createdWhile<T>(fn: () => T, undo: (created: readonly string[], err: unknown) => T): T {
    const created: string[] = [];
    this.trackers.push(created);
    try {
      return fn();
    } catch (err) {
      return undo(created, err);
    } finally {
      this.trackers.splice(this.trackers.lastIndexOf(created), 1);
    }
  }

  /**
   * Changes what the user sets on a device (checked by the caller: src/registry validates areas and
   * labels). Fires `device_registry_updated` with the old values of what changed; undefined when the
   * device is not registered.
   */
  update(id: string, update: DeviceUpdate): DeviceEntry | undefined {
    const entry = this.byId.get(id);
    if (entry === undefined) return undefined;
    const changes: Changes = {};
    if (update.name_by_user !== undefined && update.name_by_user !== entry.name_by_user) {
      changes.name_by_user = entry.name_by_user;
      entry.name_by_user = update.name_by_user;
    }
    if (update.area_id !== undefined && update.area_id !== entry.area_id) {
      changes.area_id = entry.area_id;
      entry.area_id = update.area_id;
    }
    if (update.labels !== undefined && !sameSet(update.labels, entry.labels)) {
      changes.labels = entry.labels;
      entry.labels = [...new Set(update.labels)];
    }
    if (update.disabled_by !== undefined && update.disabled_by !== entry.disabled_by) {
      changes.disabled_by = entry.disabled_by;
      entry.disabled_by = update.disabled_by;
    }
    if (Object.keys(changes).length > 0) {
      entry.modified_at = this.clock.now() / 1_000_000;
      this.fire('update', id, changes);
    }
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

  /** From now on nothing is removed: the hub is stopping, and its devices stay with their entities. */
  keepAll(): void {
    this.kept = true;
  }

  remove(id: string): boolean {
    if (this.kept) return false;
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

  private fire(action: 'create' | 'update' | 'remove', deviceId: string, changes?: Changes): void {
    const data = changes === undefined ? { action, device_id: deviceId } : { action, device_id: deviceId, changes };
    this.bus.fire('device_registry_updated', data, createContext(this.clock.now()));
  }
}

function key(identifier: DeviceIdentifier): string {
  return `${identifier[0]}\u0000${identifier[1]}`;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const sa = new Set(a);
  return sa.size === new Set(b).size && b.every((x) => sa.has(x));
}
