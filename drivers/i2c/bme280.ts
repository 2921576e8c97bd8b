import type { SensorHandle } from '../../src/domains/sensor.js';
import {
  BMP280_CALIB_LENGTH,
  type Bme280Calibration,
  type Bmp280Calibration,
  CALIB_H_LENGTH,
  CALIB_TP_LENGTH,
  compensateHumidity,
  compensatePressure,
  compensateTemperature,
  parseCalibration,
  parseRaw,
  parseRawTemperaturePressure,
  parseTemperaturePressureCalibration,
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

export const BME280_CHIP_ID = 0x60;
/** 0x58 in production; 0x56 and 0x57 on engineering samples. */
export const BMP280_CHIP_IDS: readonly number[] = [0x58, 0x56, 0x57];
/** Other Bosch chips that answer at the same addresses, for a helpful error. */
const KNOWN_IDS: Readonly<Record<number, { what: string; chip?: string }>> = {
  85: { what: 'a BMP180' },
  86: { what: 'a BMP280', chip: 'bmp280' },
  87: { what: 'a BMP280', chip: 'bmp280' },
  88: { what: 'a BMP280', chip: 'bmp280' },
  96: { what: 'a BME280', chip: 'bme280' },
  97: { what: 'a BME680' },
};

/** Humidity oversampling x1 (ctrl_hum osrs_h = 001). */
const CTRL_HUM = 0x01;
/** Temperature x1, pressure x1, forced mode: one measurement, then back to sleep (datasheet 3.5.1, weather monitoring). */
const CTRL_MEAS_FORCED = (0b001 << 5) | (0b001 << 2) | 0b01;
/** Filter off, standby unused in forced mode. */
const CONFIG = 0x00;
const STATUS_MEASURING = 0x08;
/** Maximum measurement time at x1/x1/x1: 1.25 + 2.3 + (2.3 + 0.575) * 2 = 9.3 ms (datasheet 9.1); a BMP280 needs 6.4 ms. */
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

/** What tells the two chips apart: the BMP280 is a BME280 without the humidity part. */
interface BoschVariant {
  readonly chip: 'bme280' | 'bmp280';
  readonly model: string;
  readonly chipIds: readonly number[];
  readonly humidity: boolean;
}

/**
 * A Bosch BME280 or BMP280: identified by its chip id, then measured in forced mode on each poll (one
 * measurement, then the chip sleeps).
 */
function boschChip(variant: BoschVariant): ChipType<null> {
  const measurements = variant.humidity ? [TEMPERATURE, HUMIDITY, PRESSURE] : [TEMPERATURE, PRESSURE];
  const dataLength = variant.humidity ? 8 : 6;
  return {
    chip: variant.chip,
    manufacturer: 'Bosch Sensortec',
    model: variant.model,
    addresses: [0x76, 0x77],
    defaultPollInterval: 30,
    parse(_r, identity) {
      return { options: null, entityIds: measurements.map((m) => measurementEntityId(identity, m)) };
    },
    create(ctx) {
      const { bus } = ctx;
      const address = ctx.identity.address;
      const temperature = addMeasurement(ctx, TEMPERATURE);
      const humidity: SensorHandle | undefined = variant.humidity ? addMeasurement(ctx, HUMIDITY) : undefined;
      const pressure = addMeasurement(ctx, PRESSURE);
      let calibration: Bmp280Calibration | undefined;
      // The same trimming with the humidity part, on a BME280 only.
      let withHumidity: Bme280Calibration | undefined;
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
          if (!variant.chipIds.includes(id)) {
            const known = KNOWN_IDS[id];
            const what = known ? ` (${known.what})` : '';
            const hint = known?.chip ? `; configure it as chip: ${known.chip}` : '';
            const expected = hex(variant.chipIds[0] ?? 0);
            throw chipError('EBADCHIP', `chip id ${hex(id)}${what} at ${hex(REG_CHIP_ID)}; a ${variant.model} answers ${expected}${hint}`);
          }
          if (variant.humidity) {
            withHumidity = parseCalibration(await readBlock(REG_CALIB_TP, CALIB_TP_LENGTH), await readBlock(REG_CALIB_H, CALIB_H_LENGTH));
            calibration = withHumidity;
          } else calibration = parseTemperaturePressureCalibration(await readBlock(REG_CALIB_TP, BMP280_CALIB_LENGTH));
          // config is only written reliably in sleep mode; ctrl_hum takes effect with the next ctrl_meas write.
          await writeByte(REG_CTRL_MEAS, 0x00);
          await writeByte(REG_CONFIG, CONFIG);
          if (variant.humidity) await writeByte(REG_CTRL_HUM, CTRL_HUM);
        },

        async read() {
          const cal = calibration;
          if (cal === undefined) throw chipError('EBADCHIP', 'not initialised');
          await writeByte(REG_CTRL_MEAS, CTRL_MEAS_FORCED);
          await ctx.delay(MEASURE_MS);
          if ((await bus.run((b) => b.readByte(address, REG_STATUS))) & STATUS_MEASURING) {
            await ctx.delay(MEASURE_MS);
          }
          const data = await readBlock(REG_DATA, dataLength);
          const raw = parseRawTemperaturePressure(data);
          const adcH = humidity !== undefined ? parseRaw(data).adcH : undefined;
          if (raw.adcT === SKIPPED_20BIT || raw.adcP === SKIPPED_20BIT || adcH === SKIPPED_16BIT) {
            throw chipError('EBADDATA', 'no measurement: the chip returned its reset values (was it power-cycled?)');
          }
          const t = compensateTemperature(cal, raw.adcT);
          const pa = compensatePressure(cal, raw.adcP, t.tFine);
          if (!Number.isFinite(pa)) throw chipError('EBADDATA', 'the calibration data is invalid (pressure divides by zero)');
          temperature.report(t.celsius);
          if (humidity !== undefined && withHumidity !== undefined && adcH !== undefined) {
            humidity.report(compensateHumidity(withHumidity, adcH, t.tFine));
          }
          pressure.report(pa / 100);
        },

        markUnavailable() {
          temperature.entity.markUnavailable();
          humidity?.entity.markUnavailable();
          pressure.entity.markUnavailable();
        },
      };
    },
  };
}

/** Bosch BME280: temperature, humidity and pressure. */
export const bme280: ChipType<null> = boschChip({ chip: 'bme280', model: 'BME280', chipIds: [BME280_CHIP_ID], humidity: true });

/** Bosch BMP280: temperature and pressure (the BME280 without humidity). */
export const bmp280: ChipType<null> = boschChip({ chip: 'bmp280', model: 'BMP280', chipIds: BMP280_CHIP_IDS, humidity: false });
