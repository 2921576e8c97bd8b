import { listItems, readEntityIds } from '../automation/config-values.js';
import { type ConfigIssue, type ConfigPath, ConfigReader, kindOf } from '../config/reader.js';
import { isJsonObject, type JsonValue } from '../core/json.js';
import { DEFAULT_ZONE_RADIUS, type ZoneModel } from '../domains/zone.js';

/**
 * The `zone:`, `person:` and `device_tracker:` sections, as homeassistant/components/zone (CREATE_FIELDS),
 * person (PERSON_SCHEMA) and device_tracker (its legacy platform list) read them.
 */

const ICON = /^[a-z0-9_-]+:[a-z0-9_-]+$/i;

/** `zone:`: a list of zones (one mapping counts as a list of one; `zone: {}`, HA's default, is none). */
export function parseZoneSection(value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): ZoneModel[] {
  if (value === undefined || value === null) return [];
  if (isJsonObject(value) && Object.keys(value).length === 0) return [];
  if (!Array.isArray(value) && !isJsonObject(value)) {
    issues.push({ path, message: `expected a list of zones (- name: ..., latitude: ..., longitude: ...), got ${kindOf(value)}` });
    return [];
  }
  const zones: ZoneModel[] = [];
  for (const item of listItems(value, path)) {
    const zone = readZone(ConfigReader.of(item.value, item.path, issues));
    if (zone !== undefined) zones.push(zone);
  }
  return zones;
}

/** One zone's keys (a stored zone's too: an update is read merged over the zone it changes). */
export function readZone(r: ConfigReader): ZoneModel | undefined {
  const name = r.string('name', { required: true });
  const latitude = r.number('latitude', { min: -90, max: 90, required: true });
  const longitude = r.number('longitude', { min: -180, max: 180, required: true });
  const radius = r.number('radius', { min: 0, default: DEFAULT_ZONE_RADIUS });
  const passive = r.boolean('passive', false);
  const icon = r.string('icon', { pattern: ICON, patternText: 'an icon as prefix:name (e.g. mdi:briefcase)' });
  r.rejectUnknown();
  if (name === undefined || name === '' || latitude === undefined || longitude === undefined) return undefined;
  return { name, latitude, longitude, radius, passive, icon };
}

/** One person of the `person:` section. */
export interface PersonConfig {
  readonly id: string;
  readonly name: string;
  readonly userId?: string;
  readonly deviceTrackers: readonly string[];
  readonly picture?: string;
}

export function readPerson(r: ConfigReader): PersonConfig | undefined {
  const id = r.string('id', { required: true });
  const name = r.string('name', { required: true });
  const userId = r.string('user_id');
  const deviceTrackers = readEntityIds(r, 'device_trackers', { domain: 'device_tracker' });
  const picture = r.string('picture');
  r.rejectUnknown();
  if (id === '' || name === '') return undefined;
  return { id, name, userId, deviceTrackers, picture };
}

/** `person:`: a list of persons, each with an id and a name; an id given twice is refused at its second place. */
export function parsePersonSection(value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): PersonConfig[] {
  if (value === undefined || value === null) return [];
  if (isJsonObject(value) && Object.keys(value).length === 0) return [];
  if (!Array.isArray(value) && !isJsonObject(value)) {
    issues.push({ path, message: `expected a list of persons (- id: ..., name: ...), got ${kindOf(value)}` });
    return [];
  }
  const persons: PersonConfig[] = [];
  const ids = new Set<string>();
  for (const item of listItems(value, path)) {
    const person = readPerson(ConfigReader.of(item.value, item.path, issues));
    if (person === undefined) continue;
    if (ids.has(person.id)) {
      issues.push({ path: [...item.path, 'id'], message: `duplicate person id ${JSON.stringify(person.id)}: each person needs its own` });
      continue;
    }
    ids.add(person.id);
    persons.push(person);
  }
  return persons;
}

/** A legacy device_tracker platform (nmap_tracker, ...): hearth has none; said once at start. */
export interface IgnoredTracker {
  readonly index: number;
  readonly platform: string;
}

/** `device_tracker:`: legacy platforms, accepted and ignored (device_tracker.see and MQTT carry positions here). */
export function parseDeviceTrackerSection(value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): IgnoredTracker[] {
  if (value === undefined || value === null) return [];
  const out: IgnoredTracker[] = [];
  listItems(value, path).forEach((item, index) => {
    const platform = isJsonObject(item.value) ? item.value.platform : undefined;
    if (typeof platform !== 'string' || platform === '') {
      issues.push({ path: item.path, message: 'expected a platform (- platform: <name>)' });
      return;
    }
    out.push({ index, platform });
  });
  return out;
}
