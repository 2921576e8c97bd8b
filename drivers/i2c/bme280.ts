import type { SensorHandle } from '../../src/domains/sensor.js';
import {
  type Bme280Calibration,
  CALIB_H_LENGTH,
  CALIB_TP_LENGTH,
  compensateHumidity,
  compensatePressure,
  compensateTemperature,
  parseCalibration,
  parseRaw,
  SKIPPED_16BIT,
  SKIPPED_20BIT,
} from './bme280-compensation.js';
import { hex } from './bus.js';
import { addMeasurement, type ChipType, chipError, type MeasurementSpec, measurementEntityId } from './chip.js';

const REG_CALIB_TP = 0x88;
const REG_CHIP_ID = 0xd0;
const REG_CALIB_H = 0xe1;
const REG_CTRL_HUM = 0xf2;
const REG_STATUS = 0xf3;
const REG_CTRL_MEAS = 0xf4;
const REG_CONFIG = 0xf5;
const REG_DATA = 0xf7;
const DATA_LENGTH = 8;

export const BME280_CHIP_ID = 0x60;
/** Other Bosch chips that answer at the same addresses, for a helpful error. */
const KNOWN_IDS: Readonly<Record<number, string>> = { 85: 'a BMP180', 86: 'a BMP280', 87: 'a BMP280', 88: 'a BMP280', 97: 'a BME680' };

/** Humidity oversampling x1 (ctrl_hum osrs_h = 001). */
const CTRL_HUM = 0x01;
/** Temperature x1, pressure x1, forced mode: one measurement, then back to sleep (datasheet 3.5.1, weather monitoring). */
const CTRL_MEAS_FORCED = (0b001 << 5) | (0b001 << 2) | 0b01;
/** Filter off, standby unused in forced mode. */
const CONFIG = 0x00;
const STATUS_MEASURING = 0x08;
/** Maximum measurement time at x1/x1/x1: 1.25 + 2.3 + (2.3 + 0.575) * 2 = 9.3 ms (datasheet 9.1). */
const MEASURE_MS = 10;

const TEMPERATURE: MeasurementSpec = { key: 'temperature', label: 'Temperature', unit: '°C', deviceClass: 'temperature', precision: 1 };
const HUMIDITY: MeasurementSpec = { key: 'humidity', label: 'Humidity', unit: '%', deviceClass: 'humidity', precision: 1 };
const PRESSURE: MeasurementSpec = {
  key: 'pressure',
  label: 'Pressure',
  unit: 'hPa',
  deviceClass: 'atmospheric_pressure',
  precision: 1,
};
const MEASUREMENTS = [TEMPERATURE, HUMIDITY, PRESSURE];

/** Bosch BME280: temperature, humidity and pressure, measured in forced mode on each poll. */
export const bme280: ChipType<null> = {
  chip: 'bme280',
  manufacturer: 'Bosch Sensortec',
  model: 'BME280',
  addresses: [0x76, 0x77],
  defaultPollInterval: 30,
  parse(_r, identity) {
    return { options: null, entityIds: MEASUREMENTS.map((m) => measurementEntityId(identity, m)) };
  },
  create(ctx) {
    const { bus } = ctx;
    const address = ctx.identity.address;
    const [temperature, humidity, pressure] = MEASUREMENTS.map((m) => addMeasurement(ctx, m)) as [SensorHandle, SensorHandle, SensorHandle];
    let calibration: Bme280Calibration | undefined;
    const writeByte = (reg: number, value: number) => bus.run((b) => b.writeByte(address, reg, value));
    const readBlock = (reg: number, length: number) =>
      bus.run(async (b) => {
        const { bytesRead, buffer } = await b.readI2cBlock(address, reg, length, Buffer.alloc(length));
        if (bytesRead !== length) throw chipError('EBADDATA', `read ${bytesRead} of ${length} bytes at ${hex(reg)}`);
        return buffer;
      });

    return {
      async init() {
        const id = await bus.run((b) => b.readByte(address, REG_CHIP_ID));
        if (id !== BME280_CHIP_ID) {
          const what = KNOWN_IDS[id] ? ` (${KNOWN_IDS[id]})` : '';
          throw chipError('EBADCHIP', `chip id ${hex(id)}${what} at ${hex(REG_CHIP_ID)}; a BME280 answers ${hex(BME280_CHIP_ID)}`);
        }
        calibration = parseCalibration(await readBlock(REG_CALIB_TP, CALIB_TP_LENGTH), await readBlock(REG_CALIB_H, CALIB_H_LENGTH));
        // config is only written reliably in sleep mode; ctrl_hum takes effect with the next ctrl_meas write.
        await writeByte(REG_CTRL_MEAS, 0x00);
        await writeByte(REG_CONFIG, CONFIG);
        await writeByte(REG_CTRL_HUM, CTRL_HUM);
      },

      async read() {
        const cal = calibration;
        if (cal === undefined) throw chipError('EBADCHIP', 'not initialised');
        await writeByte(REG_CTRL_MEAS, CTRL_MEAS_FORCED);
        await ctx.delay(MEASURE_MS);
        if ((await bus.run((b) => b.readByte(address, REG_STATUS))) & STATUS_MEASURING) {
          await ctx.delay(MEASURE_MS);
        }
        const raw = parseRaw(await readBlock(REG_DATA, DATA_LENGTH));
        if (raw.adcT === SKIPPED_20BIT || raw.adcP === SKIPPED_20BIT || raw.adcH === SKIPPED_16BIT) {
          throw chipError('EBADDATA', 'no measurement: the chip returned its reset values (was it power-cycled?)');
        }
        const t = compensateTemperature(cal, raw.adcT);
        const pa = compensatePressure(cal, raw.adcP, t.tFine);
        if (!Number.isFinite(pa)) throw chipError('EBADDATA', 'the calibration data is invalid (pressure divides by zero)');
        temperature.report(t.celsius);
        humidity.report(compensateHumidity(cal, raw.adcH, t.tFine));
        pressure.report(pa / 100);
      },

      markUnavailable() {
        temperature.entity.markUnavailable();
        humidity.entity.markUnavailable();
        pressure.entity.markUnavailable();
      },
    };
  },
};
