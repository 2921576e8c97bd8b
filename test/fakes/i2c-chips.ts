import type { Bme280Calibration } from '../../drivers/i2c/bme280-compensation.js';
import { nackError, type SimulatedChip } from './fake-i2c-bus.js';

/**
 * A chip with 8-bit registers behind a register pointer: a write sets the pointer and stores any further
 * bytes from there on; a read returns registers from the pointer on. The pointer advances after each
 * byte when `autoIncrement()` says so (always, for most chips).
 */
export class RegisterChip implements SimulatedChip {
  readonly regs = new Uint8Array(256);
  /** Every register write, in order, as [register, value]. */
  readonly writes: [number, number][] = [];
  protected pointer = 0;

  write(data: Buffer): void {
    this.pointer = data.readUInt8(0);
    for (let i = 1; i < data.length; i++) {
      this.writeRegister(this.pointer, data.readUInt8(i));
      if (this.autoIncrement()) this.pointer = (this.pointer + 1) & 0xff;
    }
  }

  read(length: number): Buffer {
    const out = Buffer.alloc(length);
    for (let i = 0; i < length; i++) {
      out.writeUInt8(this.readRegister(this.pointer), i);
      if (this.autoIncrement()) this.pointer = (this.pointer + 1) & 0xff;
    }
    return out;
  }

  protected autoIncrement(): boolean {
    return true;
  }

  protected writeRegister(reg: number, value: number): void {
    this.writes.push([reg, value]);
    this.regs[reg] = value;
  }

  protected readRegister(reg: number): number {
    return this.regs[reg] ?? 0;
  }
}

/** The BMP280 datasheet's worked example (section 3.12; the BME280 shares the T and P formulas). */
export const DATASHEET_CALIBRATION: Bme280Calibration = {
  T1: 27504,
  T2: 26435,
  T3: -1000,
  P1: 36477,
  P2: -10685,
  P3: 3024,
  P4: 2855,
  P5: 140,
  P6: -7,
  P7: 15500,
  P8: -14600,
  P9: 6000,
  // The datasheets give no humidity example: typical trimming values of a BME280, H4 and H5 chosen so that
  // both nibbles of the shared register 0xE5 matter.
  H1: 75,
  H2: 362,
  H3: 0,
  H4: 313,
  H5: 50,
  H6: 30,
};
export const DATASHEET_ADC_T = 519888;
export const DATASHEET_ADC_P = 415148;

/**
 * A BME280 register map: chip id at 0xD0, trimming parameters at 0x88..0xA1 and 0xE1..0xE7, and the
 * data registers 0xF7..0xFE, which a forced-mode write to ctrl_meas fills from `raw` (humidity only when
 * ctrl_hum asked for it before, as on the real chip). Data reads 0x80000/0x8000 until a measurement.
 */
export class SimBme280 extends RegisterChip {
  raw = { adcT: DATASHEET_ADC_T, adcP: DATASHEET_ADC_P, adcH: 30000 };
  measurements = 0;

  constructor(
    readonly calibration: Bme280Calibration = DATASHEET_CALIBRATION,
    readonly chipId = 0x60,
  ) {
    super();
    this.powerCycle();
  }

  /** Back to the reset values: registers lost, calibration kept (it is NVM). */
  powerCycle(): void {
    this.regs.fill(0);
    this.regs[0xd0] = this.chipId;
    const c = this.calibration;
    const tp = Buffer.alloc(26);
    tp.writeUInt16LE(c.T1, 0);
    [c.T2, c.T3].forEach((v, i) => {
      tp.writeInt16LE(v, 2 + 2 * i);
    });
    tp.writeUInt16LE(c.P1, 6);
    [c.P2, c.P3, c.P4, c.P5, c.P6, c.P7, c.P8, c.P9].forEach((v, i) => {
      tp.writeInt16LE(v, 8 + 2 * i);
    });
    tp.writeUInt8(c.H1, 25);
    const h = Buffer.alloc(7);
    h.writeInt16LE(c.H2, 0);
    h.writeUInt8(c.H3, 2);
    // dig_H4 = 0xE4[7:0] << 4 | 0xE5[3:0]; dig_H5 = 0xE6[7:0] << 4 | 0xE5[7:4]
    h.writeInt8(c.H4 >> 4, 3);
    h.writeUInt8(((c.H5 & 0x0f) << 4) | (c.H4 & 0x0f), 4);
    h.writeInt8(c.H5 >> 4, 5);
    h.writeInt8(c.H6, 6);
    this.regs.set(tp, 0x88);
    this.regs.set(h, 0xe1);
    this.regs.set([0x80, 0x00, 0x00, 0x80, 0x00, 0x00, 0x80, 0x00], 0xf7);
  }

  /** The ctrl_* and config writes the driver made, in order, as "reg=value" in hex. */
  controlWrites(): string[] {
    return this.writes.filter(([reg]) => reg >= 0xf2 && reg <= 0xf5).map(([reg, v]) => `${reg.toString(16)}=${v.toString(16)}`);
  }

  protected override writeRegister(reg: number, value: number): void {
    super.writeRegister(reg, value);
    if (reg === 0xf4 && (value & 0x03) !== 0) this.measure();
  }

  private measure(): void {
    this.measurements++;
    const { adcT, adcP, adcH } = this.raw;
    const humidityOn = ((this.regs[0xf2] ?? 0) & 0x07) !== 0;
    const h = humidityOn ? adcH : 0x8000;
    this.regs.set(
      [adcP >> 12, (adcP >> 4) & 0xff, (adcP & 0x0f) << 4, adcT >> 12, (adcT >> 4) & 0xff, (adcT & 0x0f) << 4, h >> 8, h & 0xff],
      0xf7,
    );
  }
}

/** Sensirion's CRC-8 computed independently of the driver, bit by bit as the datasheet (4.12) describes it. */
export function referenceCrc8(bytes: readonly number[]): number {
  let crc = 0xff;
  for (const byte of bytes) {
    for (let bit = 7; bit >= 0; bit--) {
      const top = ((crc >> 7) ^ (byte >> bit)) & 1;
      crc = (crc << 1) & 0xff;
      if (top) crc ^= 0x31;
    }
  }
  return crc;
}

/** Raw SHT3x words for a temperature (°C) and humidity (%RH), by the datasheet's conversion formulas. */
export function sht3xRaw(celsius: number, humidity: number): { t: number; rh: number } {
  return { t: Math.round(((celsius + 45) * 65535) / 175), rh: Math.round((humidity * 65535) / 100) };
}

/**
 * An SHT3x: 16-bit commands; a single-shot measurement (0x2400) or a status read (0xF32D) prepares the
 * bytes the next read returns, each word followed by its CRC. Reading with nothing prepared is NACKed,
 * as the chip does while it measures or when no command came first.
 */
export class SimSht3x implements SimulatedChip {
  raw = sht3xRaw(21.5, 45);
  /** Corrupt the CRC of the temperature word in the next measurements. */
  corruptCrc = false;
  readonly commands: number[] = [];
  private prepared: Buffer | undefined;

  write(data: Buffer): void {
    const command = data.readUInt16BE(0);
    this.commands.push(command);
    if (command === 0x2400) this.prepared = this.words([this.raw.t, this.raw.rh], this.corruptCrc);
    else if (command === 0xf32d) this.prepared = this.words([0x8010], false);
  }

  read(length: number): Buffer {
    const data = this.prepared;
    this.prepared = undefined;
    if (data === undefined) throw nackError();
    return data.subarray(0, length);
  }

  private words(words: readonly number[], corrupt: boolean): Buffer {
    const out: number[] = [];
    words.forEach((w, i) => {
      const bytes = [w >> 8, w & 0xff];
      const crc = referenceCrc8(bytes);
      out.push(...bytes, corrupt && i === 0 ? crc ^ 0x01 : crc);
    });
    return Buffer.from(out);
  }
}

/** A BH1750: one-byte opcodes; reads return the 16-bit count once powered on and measuring. */
export class SimBh1750 implements SimulatedChip {
  count = 1200;
  readonly opcodes: number[] = [];
  private powered = false;
  private measuring = false;

  write(data: Buffer): void {
    const op = data.readUInt8(0);
    this.opcodes.push(op);
    if (op === 0x00) this.powered = false;
    else if (op === 0x01) this.powered = true;
    else if (op === 0x10) this.measuring = this.powered;
  }

  read(length: number): Buffer {
    const out = Buffer.alloc(length);
    if (this.measuring) out.writeUInt16BE(this.count, 0);
    return out;
  }

  powerCycle(): void {
    this.powered = false;
    this.measuring = false;
  }
}

const ADS_FULL_SCALE = [6.144, 4.096, 2.048, 1.024, 0.512, 0.256, 0.256, 0.256];

/**
 * An ADS1115: a pointer register selects conversion (0) or config (1); writing config with OS set runs a
 * single conversion of the selected input at the selected gain, finished at once.
 */
export class SimAds1115 implements SimulatedChip {
  /** Volts on AIN0..AIN3. */
  inputs = [0, 0, 0, 0];
  readonly configWrites: number[] = [];
  private config = 0x8583;
  private conversion = 0;
  private pointer = 0;

  write(data: Buffer): void {
    this.pointer = data.readUInt8(0) & 0x03;
    if (data.length < 3) return;
    const value = data.readUInt16BE(1);
    if (this.pointer !== 1) return;
    this.configWrites.push(value);
    this.config = value | 0x8000;
    if (value & 0x8000) this.convert(value);
  }

  read(length: number): Buffer {
    const out = Buffer.alloc(Math.max(2, length));
    out.writeUInt16BE(this.pointer === 0 ? this.conversion : this.config, 0);
    return out.subarray(0, length);
  }

  private convert(config: number): void {
    const mux = (config >> 12) & 0x07;
    const fsr = ADS_FULL_SCALE[(config >> 9) & 0x07] ?? 2.048;
    const v = (i: number) => this.inputs[i] ?? 0;
    const pairs: [number, number][] = [
      [0, 1],
      [0, 3],
      [1, 3],
      [2, 3],
    ];
    const pair = pairs[mux];
    const volts = mux >= 4 ? v(mux - 4) : pair ? v(pair[0]) - v(pair[1]) : 0;
    const raw = Math.max(-32768, Math.min(32767, Math.round((volts / fsr) * 32768)));
    this.conversion = raw & 0xffff;
  }
}

/**
 * A PCA9685 register map with the datasheet's reset values (MODE1 0x11: asleep, All Call on; every output
 * fully off; PRE_SCALE 0x1E = 200 Hz). PRE_SCALE only takes writes while asleep, the pointer only
 * auto-increments with MODE1.AI set, and writing RESTART clears it.
 */
export class SimPca9685 extends RegisterChip {
  constructor() {
    super();
    this.powerCycle();
  }

  powerCycle(): void {
    this.regs.fill(0);
    this.regs[0x00] = 0x11;
    this.regs[0x01] = 0x04;
    for (let ch = 0; ch < 16; ch++) this.regs[0x06 + 4 * ch + 3] = 0x10;
    this.regs[0xfe] = 0x1e;
  }

  get asleep(): boolean {
    return ((this.regs[0x00] ?? 0) & 0x10) !== 0;
  }

  get prescale(): number {
    return this.regs[0xfe] ?? 0;
  }

  /** The output of `channel` as 0..4096 (4096 = fully on), read from its registers as the chip's PWM would. */
  duty(channel: number): number {
    const base = 0x06 + 4 * channel;
    const on = (this.regs[base] ?? 0) | ((this.regs[base + 1] ?? 0) << 8);
    const off = (this.regs[base + 2] ?? 0) | ((this.regs[base + 3] ?? 0) << 8);
    if (off & 0x1000) return 0;
    if (on & 0x1000) return 4096;
    return ((off & 0xfff) - (on & 0xfff) + 4096) % 4096;
  }

  /** Sets an output as another controller would (phase offset `on`). */
  setOutput(channel: number, on: number, off: number): void {
    const base = 0x06 + 4 * channel;
    this.regs.set([on & 0xff, on >> 8, off & 0xff, off >> 8], base);
  }

  protected override autoIncrement(): boolean {
    return ((this.regs[0x00] ?? 0) & 0x20) !== 0;
  }

  protected override writeRegister(reg: number, value: number): void {
    if (reg === 0xfe && !this.asleep) {
      this.writes.push([reg, value]);
      return;
    }
    super.writeRegister(reg, value);
    if (reg === 0x00 && value & 0x80) this.regs[0x00] = value & 0x7f;
  }
}
