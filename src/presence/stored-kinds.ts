import { ConfigReader } from '../config/reader.js';
import type { JsonObject, JsonValue } from '../core/json.js';
import { setOwn } from '../core/own-keys.js';
import type { ZoneModel } from '../domains/zone.js';
import { type PersonConfig, readPerson, readZone } from './config.js';
import type { Persons } from './persons.js';
import type { StoredKind } from './store.js';
import type { Zones } from './zones.js';

/** Zones made in the app: Home Assistant's zone CREATE_FIELDS (name, latitude, longitude, radius, passive, icon). */
export function zoneKind(zones: Zones): StoredKind<ZoneModel> {
  return {
    key: 'zone',
    minorVersion: 1,
    read(r) {
      // The item's id is the collection's, not a setting.
      r.raw('id');
      return readZone(r);
    },
    stored: (z) => ({
      name: z.name,
      latitude: z.latitude,
      longitude: z.longitude,
      radius: z.radius,
      passive: z.passive,
      ...(z.icon === undefined ? {} : { icon: z.icon }),
    }),
    add: (id, z) => zones.addStored(id, z),
    update: (id, z) => zones.updateStored(id, z),
    remove: (id) => zones.removeStored(id),
    // YAML zones have no ids of their own in Home Assistant (an IDLessCollection): nothing to keep apart.
    yamlIds: () => new Set(),
  };
}

/**
 * Persons made in the app: Home Assistant's person CREATE_FIELDS (name; user_id and picture, which may be null;
 * device_trackers), and its rule that a user is at most one person.
 */
export function personKind(persons: Persons, restoreTrackers: (entityIds: readonly string[]) => void): StoredKind<PersonConfig> {
  return {
    key: 'person',
    minorVersion: 2,
    read(r) {
      // HA stores a person without a user or a picture with null there, and one without trackers with [].
      const present: Record<string, JsonValue> = {};
      for (const [k, v] of Object.entries(r.value)) if (v !== null && !(Array.isArray(v) && v.length === 0)) setOwn(present, k, v);
      return readPerson(new ConfigReader(present, r.path, r.issues));
    },
    stored: (p) => ({
      name: p.name,
      user_id: p.userId ?? null,
      device_trackers: [...p.deviceTrackers],
      picture: p.picture ?? null,
    }),
    conflict(item: JsonObject, others: readonly JsonObject[]) {
      const user = item.user_id;
      if (typeof user !== 'string') return undefined;
      const taken = others.some((o) => o.user_id === user) || persons.yamlUsers().includes(user);
      return taken ? 'User already taken' : undefined;
    },
    add: (_id, p) => {
      // As for the YAML persons: their trackers come back with their last state before the person decides.
      restoreTrackers(p.deviceTrackers);
      persons.addStored(p);
    },
    update: (_id, p) => persons.updateStored(p),
    remove: (id) => persons.removeStored(id),
    yamlIds: () => persons.yamlIds(),
  };
}
