import { ConfigReader } from '../../src/config/reader.js';
import { isValidEntityId, MAX_STATE_LENGTH, slugify } from '../../src/core/entity-id.js';
import { isJsonObject, type JsonValue } from '../../src/core/json.js';
import {
  addSensor,
  SENSOR_DEVICE_CLASSES,
  SENSOR_STATE_CLASSES,
  type SensorDeviceClass,
  type SensorHandle,
  type SensorStateClass,
} from '../../src/domains/sensor.js';
import { LineSplitter } from './line-splitter.js';
import type { SerialIdentity, SerialPlatform } from './platform.js';

/** Longest line kept; anything longer is dropped whole. */
export const MAX_LINE_BYTES = 1024;

export interface LineSensorSpec {
  /** JSON key (a dotted path reaches into nested objects); undefined for `format: value`. */
  readonly key: readonly string[] | undefined;
  readonly entityId: string;
  readonly name: string;
  readonly uniqueSuffix: string;
  readonly unit: string | undefined;
  readonly deviceClass: SensorDeviceClass | undefined;
  readonly stateClass: SensorStateClass | undefined;
  readonly precision: number | undefined;
  /** Numbers only; without unit, device class or state class a sensor may also hold text. */
  readonly numeric: boolean;
}

export interface LineOptions {
  readonly format: 'value' | 'json';
  readonly sensors: readonly LineSensorSpec[];
  readonly manufacturer: string;
  readonly model: string;
}

const FORMATS = ['value', 'json'] as const;
const STATE_CLASSES = [...SENSOR_STATE_CLASSES, 'none'] as const;

function parseSensor(
  item: { value: JsonValue; path: readonly (string | number)[] },
  r: ConfigReader,
  format: 'value' | 'json',
  device: SerialIdentity,
): LineSensorSpec | undefined {
  const s = ConfigReader.of(item.value, item.path, r.issues);
  let key: string[] | undefined;
  if (format === 'json') {
    const text = s.string('key', { required: true });
    key = text.split('.');
    if (s.has('key') && key.some((k) => k === '')) {
      s.problem('key', `${JSON.stringify(text)} is not a key: expected a name like temp, or a path like bme.temp`);
    }
  } else if (s.raw('key') !== undefined) s.problem('key', 'is only used with format: json; a value line holds a single value');
  const givenName = s.string('name');
  const name = givenName ?? (key ? `${device.name} ${key.join(' ')}` : device.name);
  // Unnamed: the device's own id for a value line, "<device id>_<key>" for a JSON key.
  const objectId =
    s.string('id') ?? (givenName !== undefined ? slugify(name) : key ? `${device.objectId}_${slugify(key.join('_'))}` : device.objectId);
  const entityId = `sensor.${objectId}`;
  if (!isValidEntityId(entityId)) {
    s.problem('id', `${JSON.stringify(objectId)} is not a valid object id: use lower-case letters, digits and single underscores`);
  }
  const unit = s.string('unit');
  const deviceClass = s.oneOf('device_class', SENSOR_DEVICE_CLASSES);
  const stateClassValue = s.oneOf('state_class', STATE_CLASSES);
  const precision = s.number('precision', { min: 0, max: 10, integer: true });
  s.rejectUnknown();
  // As Home Assistant expects: a value with a unit or a device class is a measurement unless told otherwise.
  const stateClass =
    stateClassValue === 'none'
      ? undefined
      : (stateClassValue ?? (unit !== undefined || deviceClass !== undefined ? 'measurement' : undefined));
  return {
    key,
    entityId,
    name,
    uniqueSuffix: key ? key.join('.') : 'value',
    unit,
    deviceClass,
    stateClass,
    precision,
    numeric: unit !== undefined || deviceClass !== undefined || stateClass !== undefined || precision !== undefined,
  };
}

function lookup(obj: JsonValue, path: readonly string[]): JsonValue | undefined {
  let v: JsonValue | undefined = obj;
  for (const k of path) {
    if (!isJsonObject(v)) return undefined;
    v = v[k];
  }
  return v;
}

/**
 * A device that prints readings as text lines: one value per line (`format: value`), or JSON objects
 * whose keys feed several sensors (`format: json`).
 */
export const lineSensor: SerialPlatform<LineOptions> = {
  type: 'line',
  defaultName: 'Serial Sensor',
  defaultBaudRate: 9600,
  manufacturer: (o) => o.manufacturer,
  model: (o) => o.model,
  parse(r, identity) {
    const format = r.oneOf('format', FORMATS, 'value');
    const manufacturer = r.string('manufacturer') ?? 'Generic';
    const model = r.string('model') ?? 'Serial line sensor';
    const items = r.list('sensors');
    if (items.length === 0) {
      r.problem(
        'sensors',
        'is required: list what the lines hold, e.g. [{name: Soil Moisture, unit: "%"}] or with format: json [{key: temp, ...}]',
      );
    } else if (format === 'value' && items.length > 1) {
      r.problem('sensors', `${items.length} sensors, but a value line holds one value; use format: json for several`);
    }
    const sensors = items.flatMap((item) => parseSensor(item, r, format, identity) ?? []);
    return { options: { format, sensors, manufacturer, model }, entityIds: sensors.map((s) => s.entityId) };
  },

  create(ctx, options) {
    const handles: [LineSensorSpec, SensorHandle][] = options.sensors.map((spec) => {
      const handle = addSensor(ctx.core, {
        entityId: spec.entityId,
        owner: ctx.owner,
        name: spec.name,
        uniqueId: `${ctx.identity.key}-${spec.uniqueSuffix}`,
        deviceId: ctx.deviceId,
        deviceClass: spec.deviceClass,
        unit: spec.unit,
        stateClass: spec.stateClass,
        precision: spec.precision,
      });
      handle.report(null);
      return [spec, handle];
    });

    /** Reports one value; a reason when it does not fit the sensor. */
    function report(spec: LineSensorSpec, handle: SensorHandle, value: JsonValue): string | undefined {
      if (value === null) {
        handle.report(null);
        return undefined;
      }
      if (typeof value === 'number') {
        handle.report(value);
        return undefined;
      }
      const text = typeof value === 'string' ? value.trim() : undefined;
      if (text === undefined || text === '') return `${JSON.stringify(value)} is not a value for ${spec.entityId}`;
      const n = Number(text);
      if (Number.isFinite(n)) handle.report(n);
      else if (spec.numeric) return `${JSON.stringify(text.slice(0, 40))} is not a number (${spec.entityId})`;
      else if (text.length > MAX_STATE_LENGTH) return `a state of ${text.length} characters is longer than ${MAX_STATE_LENGTH}`;
      else handle.report(text);
      return undefined;
    }

    function onLine(line: string): void {
      if (line.trim() === '') return;
      if (options.format === 'value') {
        const [spec, handle] = handles[0] ?? [];
        if (spec === undefined || handle === undefined) return;
        const problem = report(spec, handle, line);
        if (problem === undefined) ctx.alive();
        else ctx.corrupt(problem);
        return;
      }
      let parsed: JsonValue;
      try {
        parsed = JSON.parse(line) as JsonValue;
      } catch {
        ctx.corrupt(`not JSON: ${JSON.stringify(line.slice(0, 40))}`);
        return;
      }
      if (!isJsonObject(parsed)) {
        ctx.corrupt(`not a JSON object: ${JSON.stringify(line.slice(0, 40))}`);
        return;
      }
      let matched = 0;
      let problem: string | undefined;
      for (const [spec, handle] of handles) {
        const value = lookup(parsed, spec.key ?? []);
        if (value === undefined) continue;
        const p = report(spec, handle, value);
        if (p === undefined) matched++;
        else problem ??= p;
      }
      if (problem !== undefined) ctx.corrupt(problem);
      if (matched > 0) ctx.alive();
    }

    const splitter = new LineSplitter(MAX_LINE_BYTES, onLine, (max) => ctx.corrupt(`a line longer than ${max} bytes was dropped`));
    return {
      push: (chunk) => splitter.push(chunk),
      reset: () => splitter.reset(),
      markUnavailable() {
        for (const [, handle] of handles) handle.entity.markUnavailable();
      },
    };
  },
};
