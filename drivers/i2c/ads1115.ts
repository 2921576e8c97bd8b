import { ConfigReader, kindOf } from '../../src/config/reader.js';
import { isValidEntityId, slugify } from '../../src/core/entity-id.js';
import type { JsonValue } from '../../src/core/json.js';
import {
  addSensor,
  SENSOR_DEVICE_CLASSES,
  SENSOR_STATE_CLASSES,
  type SensorDeviceClass,
  type SensorHandle,
  type SensorStateClass,
} from '../../src/domains/sensor.js';
import { hex } from './bus.js';
import { type ChipType, chipError } from './chip.js';

const REG_CONVERSION = 0x00;
const REG_CONFIG = 0x01;

/** Config register fields (datasheet 8.6.3). */
const OS_START = 0x8000;
const OS_IDLE = 0x8000;
const MODE_SINGLE_SHOT = 0x0100;
const COMP_QUE_DISABLE = 0x0003;

/** Inputs: single-ended against GND, or differential pairs; the value is the config's MUX field. */
export const ADS1115_INPUTS: Readonly<Record<string, number>> = {
  a0_a1: 0b000,
  a0_a3: 0b001,
  a1_a3: 0b010,
  a2_a3: 0b011,
  a0: 0b100,
  a1: 0b101,
  a2: 0b110,
  a3: 0b111,
};

/** Full-scale range (±V) -> PGA field. */
export const ADS1115_GAINS: Readonly<Record<string, number>> = {
  '6.144': 0b000,
  '4.096': 0b001,
  '2.048': 0b010,
  '1.024': 0b011,
  '0.512': 0b100,
  '0.256': 0b101,
};

/** Samples per second -> DR field. */
export const ADS1115_RATES: Readonly<Record<string, number>> = {
  '8': 0b000,
  '16': 0b001,
  '32': 0b010,
  '64': 0b011,
  '128': 0b100,
  '250': 0b101,
  '475': 0b110,
  '860': 0b111,
};

/** Linear map from volts to another unit through two points. */
export interface LinearScale {
  readonly from: readonly [number, number];
  readonly to: readonly [number, number];
  readonly clamp: boolean;
}

export interface AdsChannel {
  readonly input: string;
  readonly entityId: string;
  readonly name: string;
  readonly key: string;
  /** Full-scale range in volts. */
  readonly fullScale: number;
  readonly scale: LinearScale | undefined;
  readonly unit: string | undefined;
  readonly deviceClass: SensorDeviceClass | undefined;
  readonly stateClass: SensorStateClass;
  readonly precision: number;
}

export interface Ads1115Options {
  readonly rate: number;
  readonly channels: readonly AdsChannel[];
}

/** The config register that starts one single-shot conversion. */
export function ads1115Config(input: string, fullScale: number, rate: number): number {
  const mux = ADS1115_INPUTS[input] ?? 0b100;
  const pga = ADS1115_GAINS[fullScale.toFixed(3)] ?? 0b010;
  const dr = ADS1115_RATES[String(rate)] ?? 0b100;
  return OS_START | (mux << 12) | (pga << 9) | MODE_SINGLE_SHOT | (dr << 5) | COMP_QUE_DISABLE;
}

/** Volts from the signed 16-bit conversion result: one LSB is FSR / 2^15. */
export function ads1115Volts(raw: number, fullScale: number): number {
  return (raw * fullScale) / 32768;
}

export function applyScale(volts: number, s: LinearScale): number {
  const [x0, x1] = s.from;
  const [y0, y1] = s.to;
  const y = y0 + ((volts - x0) * (y1 - y0)) / (x1 - x0);
  return s.clamp ? Math.min(Math.max(y, Math.min(y0, y1)), Math.max(y0, y1)) : y;
}

/** Decimals that show one LSB (after scaling), so the value carries the converter's own resolution. */
function lsbPrecision(fullScale: number, scale: LinearScale | undefined): number {
  let step = fullScale / 32768;
  if (scale) step *= Math.abs((scale.to[1] - scale.to[0]) / (scale.from[1] - scale.from[0]));
  if (step <= 0 || !Number.isFinite(step)) return 0;
  return Math.min(6, Math.max(0, Math.ceil(-Math.log10(step))));
}

function readPair(r: ConfigReader, key: string): [number, number] | undefined {
  const v = r.raw(key);
  if (v === undefined) {
    r.problem(key, 'is required: expected a list of two numbers, e.g. [0.5, 3.0]');
    return undefined;
  }
  if (!Array.isArray(v) || v.length !== 2 || !v.every((n: JsonValue) => typeof n === 'number' && Number.isFinite(n))) {
    r.problem(key, `expected a list of two numbers, got ${kindOf(v)}`);
    return undefined;
  }
  return [v[0] as number, v[1] as number];
}

function parseScale(r: ConfigReader): LinearScale | undefined {
  const s = r.child('scale');
  if (s === undefined) return undefined;
  const from = readPair(s, 'from');
  const to = readPair(s, 'to');
  const clamp = s.boolean('clamp', false);
  s.rejectUnknown();
  if (from === undefined || to === undefined) return undefined;
  if (from[0] === from[1]) {
    s.problem('from', 'the two voltages must differ');
    return undefined;
  }
  return { from, to, clamp };
}

const GAIN_NAMES = Object.keys(ADS1115_GAINS);
const RATE_NAMES = Object.keys(ADS1115_RATES);
const INPUT_NAMES = Object.keys(ADS1115_INPUTS);

/** Texas Instruments ADS1115: 16-bit ADC, each configured input a voltage sensor (or scaled to another unit). */
export const ads1115: ChipType<Ads1115Options> = {
  chip: 'ads1115',
  manufacturer: 'Texas Instruments',
  model: 'ADS1115',
  addresses: [0x48, 0x49, 0x4a, 0x4b],
  defaultPollInterval: 30,
  parse(r, identity) {
    const rateValue = r.raw('rate');
    let rate = 128;
    if (rateValue !== undefined) {
      if (RATE_NAMES.includes(String(rateValue))) rate = Number(rateValue);
      else r.problem('rate', `${JSON.stringify(rateValue)} is not allowed: expected one of ${RATE_NAMES.join(', ')} (samples per second)`);
    }
    const channels: AdsChannel[] = [];
    const items = r.list('channels');
    if (items.length === 0) r.problem('channels', 'is required: list the inputs to read, e.g. [{input: a0, name: Soil Moisture}]');
    for (const item of items) {
      const c = ConfigReader.of(item.value, item.path, r.issues);
      const input = c.oneOf('input', INPUT_NAMES);
      if (input === undefined && !c.has('input')) c.problem('input', `is required: expected one of ${INPUT_NAMES.join(', ')}`);
      const label = input === undefined ? '?' : input.toUpperCase().replace('_', '-');
      const name = c.string('name') ?? `${identity.name} ${label}`;
      const objectId = c.string('id') ?? slugify(name);
      const entityId = `sensor.${objectId}`;
      if (!isValidEntityId(entityId)) {
        c.problem('id', `${JSON.stringify(objectId)} is not a valid object id: use lower-case letters, digits and single underscores`);
      }
      const gainValue = c.raw('gain');
      let fullScale = 2.048;
      if (gainValue !== undefined) {
        const n = typeof gainValue === 'number' ? gainValue.toFixed(3) : String(gainValue);
        if (GAIN_NAMES.includes(n)) fullScale = Number(n);
        else c.problem('gain', `${JSON.stringify(gainValue)} is not allowed: expected one of ${GAIN_NAMES.join(', ')} (full-scale ±volts)`);
      }
      const scale = parseScale(c);
      const unit = c.string('unit') ?? (scale ? undefined : 'V');
      const deviceClass = c.oneOf('device_class', SENSOR_DEVICE_CLASSES) ?? (scale ? undefined : 'voltage');
      const stateClass = c.oneOf('state_class', SENSOR_STATE_CLASSES, 'measurement');
      const precision = c.number('precision', { min: 0, max: 6, integer: true }) ?? lsbPrecision(fullScale, scale);
      c.rejectUnknown();
      if (input !== undefined) {
        channels.push({ input, entityId, name, key: input, fullScale, scale, unit, deviceClass, stateClass, precision });
      }
    }
    return { options: { rate, channels }, entityIds: channels.map((c) => c.entityId) };
  },

  create(ctx, options) {
    const { bus } = ctx;
    const address = ctx.identity.address;
    const handles: [AdsChannel, SensorHandle][] = options.channels.map((c) => {
      const handle = addSensor(ctx.core, {
        entityId: c.entityId,
        owner: ctx.owner,
        name: c.name,
        uniqueId: `${ctx.identity.key}-${c.key}`,
        deviceId: ctx.deviceId,
        deviceClass: c.deviceClass,
        unit: c.unit,
        stateClass: c.stateClass,
        precision: c.precision,
      });
      handle.report(null);
      return [c, handle];
    });
    // One conversion lasts 1/rate s; allow a millisecond for the oscillator's tolerance.
    const conversionMs = Math.ceil(1000 / options.rate) + 1;
    const readRegister = (reg: number) =>
      bus.run(async (b) => {
        const { bytesRead, buffer } = await b.readI2cBlock(address, reg, 2, Buffer.alloc(2));
        if (bytesRead !== 2) throw chipError('EBADDATA', `read ${bytesRead} of 2 bytes at ${hex(reg)}`);
        return buffer;
      });
    const writeConfig = (value: number) => {
      const data = Buffer.from([REG_CONFIG, value >> 8, value & 0xff]);
      return bus.run((b) => b.i2cWrite(address, 3, data));
    };

    async function convert(c: AdsChannel): Promise<number> {
      await writeConfig(ads1115Config(c.input, c.fullScale, options.rate));
      await ctx.delay(conversionMs);
      if (((await readRegister(REG_CONFIG)).readUInt16BE(0) & OS_IDLE) === 0) {
        await ctx.delay(conversionMs);
        if (((await readRegister(REG_CONFIG)).readUInt16BE(0) & OS_IDLE) === 0) {
          throw chipError('EBADDATA', `conversion of ${c.input.toUpperCase()} did not finish`);
        }
      }
      return ads1115Volts((await readRegister(REG_CONVERSION)).readInt16BE(0), c.fullScale);
    }

    return {
      async init() {
        // The probe: read the config register (0x8583 after reset, or what the last run left).
        await readRegister(REG_CONFIG);
      },
      async read() {
        // Convert every input first, then report, so one failing input marks the whole chip unavailable.
        const values: number[] = [];
        for (const [c] of handles) values.push(await convert(c));
        handles.forEach(([c, handle], i) => {
          const v = values[i] as number;
          handle.report(c.scale ? applyScale(v, c.scale) : v);
        });
      },
      markUnavailable() {
        for (const [, handle] of handles) handle.entity.markUnavailable();
      },
    };
  },
};
