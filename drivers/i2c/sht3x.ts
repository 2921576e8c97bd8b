import type { SensorHandle } from '../../src/domains/sensor.js';
import { addMeasurement, type ChipType, chipError, type MeasurementSpec, measurementEntityId } from './chip.js';

/** Single shot, high repeatability, no clock stretching (the Pi's I²C controller mishandles stretching). */
const CMD_MEASURE = [0x24, 0x00];
const CMD_READ_STATUS = [0xf3, 0x2d];
/** Maximum measurement time at high repeatability is 15 ms (datasheet table 4); reading earlier gets a NACK. */
const MEASURE_MS = 16;

/** Sensirion's CRC-8: polynomial 0x31 (x^8 + x^5 + x^4 + 1), init 0xFF, no reflection, no final XOR. */
export function sensirionCrc8(data: Buffer, start = 0, length = data.length - start): number {
  let crc = 0xff;
  for (let i = start; i < start + length; i++) {
    crc ^= data.readUInt8(i);
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80 ? ((crc << 1) ^ 0x31) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

/** The 16-bit word at `offset`, after checking the CRC byte that follows it. */
function checkedWord(data: Buffer, offset: number, what: string): number {
  const expected = sensirionCrc8(data, offset, 2);
  const got = data.readUInt8(offset + 2);
  if (got !== expected) {
    throw chipError('EBADCRC', `${what} failed its CRC check (got 0x${got.toString(16)}, expected 0x${expected.toString(16)})`);
  }
  return data.readUInt16BE(offset);
}

/** Datasheet section 4.13: T = -45 + 175 * S_T / (2^16 - 1); RH = 100 * S_RH / (2^16 - 1). */
export function sht3xTemperature(raw: number): number {
  return -45 + (175 * raw) / 65535;
}
export function sht3xHumidity(raw: number): number {
  return Math.min(100, (100 * raw) / 65535);
}

const TEMPERATURE: MeasurementSpec = { key: 'temperature', label: 'Temperature', unit: '°C', deviceClass: 'temperature', precision: 1 };
const HUMIDITY: MeasurementSpec = { key: 'humidity', label: 'Humidity', unit: '%', deviceClass: 'humidity', precision: 1 };

/** Sensirion SHT30/31/35: temperature and humidity, one single-shot measurement per poll, both words CRC-checked. */
function sht3x(chip: string, model: string): ChipType<null> {
  return {
    chip,
    manufacturer: 'Sensirion',
    model,
    addresses: [0x44, 0x45],
    defaultPollInterval: 30,
    parse(_r, identity) {
      return { options: null, entityIds: [TEMPERATURE, HUMIDITY].map((m) => measurementEntityId(identity, m)) };
    },
    create(ctx) {
      const { bus } = ctx;
      const address = ctx.identity.address;
      const [temperature, humidity] = [TEMPERATURE, HUMIDITY].map((m) => addMeasurement(ctx, m)) as [SensorHandle, SensorHandle];
      const command = (cmd: readonly number[]) => bus.run((b) => b.i2cWrite(address, 2, Buffer.from(cmd)));
      const readBytes = (length: number) =>
        bus.run(async (b) => {
          const { bytesRead, buffer } = await b.i2cRead(address, length, Buffer.alloc(length));
          if (bytesRead !== length) throw chipError('EBADDATA', `read ${bytesRead} of ${length} bytes`);
          return buffer;
        });
      return {
        async init() {
          // The probe: the status register, a real read with a CRC, rather than trusting the bus to exist.
          await command(CMD_READ_STATUS);
          checkedWord(await readBytes(3), 0, 'status register');
        },
        async read() {
          await command(CMD_MEASURE);
          await ctx.delay(MEASURE_MS);
          const data = await readBytes(6);
          const t = checkedWord(data, 0, 'temperature');
          const rh = checkedWord(data, 3, 'humidity');
          temperature.report(sht3xTemperature(t));
          humidity.report(sht3xHumidity(rh));
        },
        markUnavailable() {
          temperature.entity.markUnavailable();
          humidity.entity.markUnavailable();
        },
      };
    },
  };
}

export const sht30 = sht3x('sht30', 'SHT30');
export const sht31 = sht3x('sht31', 'SHT31');
export const sht35 = sht3x('sht35', 'SHT35');
