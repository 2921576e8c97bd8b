/**
 * Bosch's BME280 compensation, the double-precision version of the datasheet (BST-BME280-DS002,
 * section 8.1; the integer versions are in section 4.2.3). The trimming parameters come from the chip's
 * NVM: 0x88..0xA1 (T1..T3, P1..P9, H1) and 0xE1..0xE7 (H2..H6).
 *
 * The BMP280 (BST-BMP280-DS001, section 8.1) is the same chip without humidity: the same temperature and
 * pressure formulas and trimming registers 0x88..0x9F, so it shares these functions.
 */
export interface Bmp280Calibration {
  readonly T1: number;
  readonly T2: number;
  readonly T3: number;
  readonly P1: number;
  readonly P2: number;
  readonly P3: number;
  readonly P4: number;
  readonly P5: number;
  readonly P6: number;
  readonly P7: number;
  readonly P8: number;
  readonly P9: number;
}

export interface Bme280Calibration extends Bmp280Calibration {
  readonly H1: number;
  readonly H2: number;
  readonly H3: number;
  readonly H4: number;
  readonly H5: number;
  readonly H6: number;
}

/** Length of the block at 0x88..0xA1 (a BME280's T, P and H1). */
export const CALIB_TP_LENGTH = 26;
/** Length of the block at 0x88..0x9F (a BMP280's T and P). */
export const BMP280_CALIB_LENGTH = 24;
/** Length of the block at 0xE1..0xE7. */
export const CALIB_H_LENGTH = 7;

/** Decodes the temperature and pressure trimming at 0x88..0x9F (BMP280 datasheet table 17). */
export function parseTemperaturePressureCalibration(tp: Buffer): Bmp280Calibration {
  return {
    T1: tp.readUInt16LE(0),
    T2: tp.readInt16LE(2),
    T3: tp.readInt16LE(4),
    P1: tp.readUInt16LE(6),
    P2: tp.readInt16LE(8),
    P3: tp.readInt16LE(10),
    P4: tp.readInt16LE(12),
    P5: tp.readInt16LE(14),
    P6: tp.readInt16LE(16),
    P7: tp.readInt16LE(18),
    P8: tp.readInt16LE(20),
    P9: tp.readInt16LE(22),
  };
}

/** Decodes a BME280's two calibration blocks (datasheet table 16). */
export function parseCalibration(tp: Buffer, h: Buffer): Bme280Calibration {
  // dig_H4 and dig_H5 are 12-bit values sharing 0xE5, each with a signed high byte.
  const e4 = h.readInt8(3);
  const e5 = h.readUInt8(4);
  const e6 = h.readInt8(5);
  return {
    ...parseTemperaturePressureCalibration(tp),
    H1: tp.readUInt8(25),
    H2: h.readInt16LE(0),
    H3: h.readUInt8(2),
    H4: e4 * 16 + (e5 & 0x0f),
    H5: e6 * 16 + (e5 >> 4),
    H6: h.readInt8(6),
  };
}

/** The raw temperature and pressure from the burst read of 0xF7..0xFC. */
export interface Bmp280Raw {
  readonly adcP: number;
  readonly adcT: number;
}

/** The raw ADC values from the burst read of 0xF7..0xFE. */
export interface Bme280Raw extends Bmp280Raw {
  readonly adcH: number;
}

/** A temperature or pressure the chip skipped (oversampling off, or no measurement since reset). */
export const SKIPPED_20BIT = 0x80000;
/** A humidity the chip skipped (ctrl_hum back at its reset value after a power cycle). */
export const SKIPPED_16BIT = 0x8000;

/** Temperature and pressure: 20 bits each, msb, lsb, xlsb[7:4]. */
export function parseRawTemperaturePressure(data: Buffer): Bmp280Raw {
  const u = (i: number) => data.readUInt8(i);
  return {
    adcP: (u(0) << 12) | (u(1) << 4) | (u(2) >> 4),
    adcT: (u(3) << 12) | (u(4) << 4) | (u(5) >> 4),
  };
}

export function parseRaw(data: Buffer): Bme280Raw {
  return { ...parseRawTemperaturePressure(data), adcH: (data.readUInt8(6) << 8) | data.readUInt8(7) };
}

/** °C, and t_fine, the fine temperature the other two formulas need. */
export function compensateTemperature(c: Bmp280Calibration, adcT: number): { celsius: number; tFine: number } {
  const var1 = (adcT / 16384.0 - c.T1 / 1024.0) * c.T2;
  const d = adcT / 131072.0 - c.T1 / 8192.0;
  const var2 = d * d * c.T3;
  // The datasheet casts to BME280_S32_t, which truncates toward zero.
  return { celsius: (var1 + var2) / 5120.0, tFine: Math.trunc(var1 + var2) };
}

/** Pa; NaN when the calibration would divide by zero. */
export function compensatePressure(c: Bmp280Calibration, adcP: number, tFine: number): number {
  let var1 = tFine / 2.0 - 64000.0;
  let var2 = (var1 * var1 * c.P6) / 32768.0;
  var2 = var2 + var1 * c.P5 * 2.0;
  var2 = var2 / 4.0 + c.P4 * 65536.0;
  var1 = ((c.P3 * var1 * var1) / 524288.0 + c.P2 * var1) / 524288.0;
  var1 = (1.0 + var1 / 32768.0) * c.P1;
  if (var1 === 0) return Number.NaN;
  let p = 1048576.0 - adcP;
  p = ((p - var2 / 4096.0) * 6250.0) / var1;
  var1 = (c.P9 * p * p) / 2147483648.0;
  var2 = (p * c.P8) / 32768.0;
  return p + (var1 + var2 + c.P7) / 16.0;
}

/** %RH, clamped to 0..100 as the datasheet does. */
export function compensateHumidity(c: Bme280Calibration, adcH: number, tFine: number): number {
  let h = tFine - 76800.0;
  h =
    (adcH - (c.H4 * 64.0 + (c.H5 / 16384.0) * h)) * ((c.H2 / 65536.0) * (1.0 + (c.H6 / 67108864.0) * h * (1.0 + (c.H3 / 67108864.0) * h)));
  h = h * (1.0 - (c.H1 * h) / 524288.0);
  return Math.min(100, Math.max(0, h));
}
