import { type ConfigIssue, type ConfigPath, ConfigReader } from '../../src/config/reader.js';
import { isValidEntityId, slugify } from '../../src/core/entity-id.js';
import type { JsonValue } from '../../src/core/json.js';
import { W1_THERM_FAMILIES } from './w1-slave.js';

export const DEFAULT_BASE_PATH = '/sys/bus/w1/devices';
export const DEFAULT_POLL_INTERVAL_S = 30;
export const DEFAULT_PRECISION = 1;

export interface OnewireSensorConfig {
  /** The 1-Wire id as the kernel names the device directory: `28-0316a2791fff`. */
  readonly id: string;
  readonly entityId: string;
  readonly name: string;
  readonly precision: number;
  readonly pollIntervalS: number;
  /** Added to every reading (calibration against a reference thermometer). */
  readonly offset: number;
  readonly area: string | undefined;
}

export interface OnewireConfig {
  readonly basePath: string;
  readonly pollIntervalS: number;
  readonly precision: number;
  /** Whether sensors found on the bus but not listed get entities too. */
  readonly discover: boolean;
  readonly sensors: readonly OnewireSensorConfig[];
}

const FAMILIES = Object.keys(W1_THERM_FAMILIES).sort();
const ID = new RegExp(`^(${FAMILIES.join('|')})-[0-9a-f]{12}$`);
const ID_TEXT = `a 1-Wire temperature sensor id as in ${DEFAULT_BASE_PATH}, like 28-0316a2791fff (family ${FAMILIES.join(', ')}; lower-case hex)`;

/** The chip of a 1-Wire id (`28-...` is a DS18B20). */
export function modelOf(id: string): string {
  return W1_THERM_FAMILIES[id.slice(0, 2)] ?? 'DS18B20';
}

/** Entity id and name of a sensor found on the bus but not listed: `sensor.ds18b20_0316a2791fff`. */
export function discoveredIdentity(id: string): { entityId: string; name: string } {
  const model = modelOf(id);
  const serial = id.slice(3);
  return { entityId: `sensor.${slugify(`${model}_${serial}`)}`, name: `${model} ${serial}` };
}

/**
 * Validates the `onewire:` section (problems go to `issues` with their paths) and returns what it configures.
 * Used by check-config and by the driver alike.
 */
export function parseOnewireSection(section: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): OnewireConfig | undefined {
  if (section === undefined) return undefined;
  // `onewire:` with nothing under it: find every sensor with the defaults.
  const r = section === null ? new ConfigReader({}, path, issues) : ConfigReader.of(section, path, issues);
  const basePath = r.string('base_path', { default: DEFAULT_BASE_PATH }) ?? DEFAULT_BASE_PATH;
  const pollIntervalS = r.number('poll_interval', { min: 0.05, max: 86_400, default: DEFAULT_POLL_INTERVAL_S });
  const precision = r.number('precision', { integer: true, min: 0, max: 4, default: DEFAULT_PRECISION });
  const ids = new Set<string>();
  const entityIds = new Set<string>();
  const sensors: OnewireSensorConfig[] = [];
  for (const item of r.list('sensors')) {
    const s = ConfigReader.of(item.value, item.path, issues);
    if (!s.has('id')) s.problem('id', `is required: expected ${ID_TEXT}`);
    // A bad id is reported by the reader and comes back undefined; the rest of the item is still checked.
    const id = s.string('id', { pattern: ID, patternText: ID_TEXT }) ?? '';
    if (id !== '' && ids.has(id)) s.problem('id', `sensor ${id} is listed twice`);
    ids.add(id);
    const name = s.string('name') ?? (id === '' ? 'unknown' : discoveredIdentity(id).name);
    const objectId = s.string('object_id') ?? slugify(name);
    const entityId = `sensor.${objectId}`;
    if (!isValidEntityId(entityId)) {
      s.problem('object_id', `${JSON.stringify(objectId)} is not a valid object id: use lower-case letters, digits and single underscores`);
    } else if (id !== '' && entityIds.has(entityId)) s.problem(s.has('object_id') ? 'object_id' : 'name', `${entityId} is defined twice`);
    entityIds.add(entityId);
    sensors.push({
      id,
      entityId,
      name,
      precision: s.number('precision', { integer: true, min: 0, max: 4, default: precision }),
      pollIntervalS: s.number('poll_interval', { min: 0.05, max: 86_400, default: pollIntervalS }),
      offset: s.number('offset', { min: -20, max: 20, default: 0 }),
      area: s.string('area'),
    });
    s.rejectUnknown();
  }
  const discover = r.boolean('discover', sensors.length === 0);
  r.rejectUnknown();
  return { basePath, pollIntervalS, precision, discover, sensors: sensors.filter((s) => s.id !== '') };
}
