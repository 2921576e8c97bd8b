import t from 'tap';
import {
  BMP280_CALIB_LENGTH,
  compensatePressure,
  compensateTemperature,
  parseTemperaturePressureCalibration,
} from '../../../drivers/i2c/bme280-compensation.js';
import { FakeI2cBus } from '../../fakes/fake-i2c-bus.js';
import { DATASHEET_ADC_P, DATASHEET_ADC_T, RegisterChip, SimBme280 } from '../../fakes/i2c-chips.js';
import { startI2c } from '../../fakes/i2c-harness.js';
import { waitForState } from '../../fakes/wait-state.js';

/** The BMP280 datasheet's compensation example (BST-BMP280-DS001, section 3.12), exactly as printed. */
const BMP280_DATASHEET = {
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
} as const;

/**
 * A BMP280 register map: chip id 0x58 at 0xD0, trimming at 0x88..0x9F, data 0xF7..0xFC (no humidity
 * registers: 0xF2 and 0xE1.. are not there, and 0xF7..0xFC read their reset values until a forced
 * measurement). Reading beyond the map is recorded, so a test can see the driver never asks for it.
 */
class SimBmp280 extends RegisterChip {
  raw = { adcT: DATASHEET_ADC_T, adcP: DATASHEET_ADC_P };
  readonly outside: number[] = [];

  constructor(readonly chipId = 0x58) {
    super();
    this.regs[0xd0] = chipId;
    const c = BMP280_DATASHEET;
    const tp = Buffer.alloc(BMP280_CALIB_LENGTH);
    tp.writeUInt16LE(c.T1, 0);
    tp.writeInt16LE(c.T2, 2);
    tp.writeInt16LE(c.T3, 4);
    tp.writeUInt16LE(c.P1, 6);
    [c.P2, c.P3, c.P4, c.P5, c.P6, c.P7, c.P8, c.P9].forEach((v, i) => {
      tp.writeInt16LE(v, 8 + 2 * i);
    });
    this.regs.set(tp, 0x88);
    this.regs.set([0x80, 0x00, 0x00, 0x80, 0x00, 0x00], 0xf7);
  }

  controlWrites(): string[] {
    return this.writes.filter(([reg]) => reg >= 0xf2 && reg <= 0xf5).map(([reg, v]) => `${reg.toString(16)}=${v.toString(16)}`);
  }

  protected override readRegister(reg: number): number {
    const mapped = (reg >= 0x88 && reg <= 0x9f) || reg === 0xd0 || (reg >= 0xf3 && reg <= 0xfc);
    if (!mapped) this.outside.push(reg);
    return super.readRegister(reg);
  }

  protected override writeRegister(reg: number, value: number): void {
    super.writeRegister(reg, value);
    if (reg === 0xf4 && (value & 0x03) !== 0) {
      const { adcT, adcP } = this.raw;
      this.regs.set([adcP >> 12, (adcP >> 4) & 0xff, (adcP & 0x0f) << 4, adcT >> 12, (adcT >> 4) & 0xff, (adcT & 0x0f) << 4], 0xf7);
    }
  }
}

t.test('BMP280 datasheet vectors: trimming from the register map, adc_T 519888 -> 25.08 °C, adc_P 415148 -> 100653 Pa', async (t) => {
  const chip = new SimBmp280();
  const cal = parseTemperaturePressureCalibration(Buffer.from(chip.regs.subarray(0x88, 0x88 + BMP280_CALIB_LENGTH)));
  t.same(cal, BMP280_DATASHEET, 'dig_T1..dig_P9 decode as printed (unsigned T1/P1, signed the rest)');
  const temp = compensateTemperature(cal, 519888);
  t.equal(temp.tFine, 128422);
  t.equal(Math.round(temp.celsius * 100) / 100, 25.08);
  const pa = compensatePressure(cal, 415148, temp.tFine);
  t.equal(Math.round(pa), 100653);
  t.ok(Math.abs(pa - 100653.27) < 0.05, `${pa} Pa is the datasheet's 100653.27 Pa (double-precision formula)`);
});

const CONFIG = `
devices:
  - chip: bmp280
    address: 0x77
    name: Balcony
    poll_interval: 0.1
`;

t.test('a BMP280 reports temperature and pressure, no humidity, as one device', async (t) => {
  const chip = new SimBmp280();
  const bus = new FakeI2cBus(1).attach(0x77, chip);
  const { core } = await startI2c(t, CONFIG, bus);
  const temp = await waitForState(core, 'sensor.balcony_temperature', (s) => s.state !== 'unknown');
  t.equal(temp.state, '25.1');
  t.equal(temp.attributes.unit_of_measurement, '°C');
  const pressure = core.states.get('sensor.balcony_pressure');
  t.equal(pressure?.state, '1006.5', '100653.27 Pa in hPa');
  t.equal(pressure?.attributes.device_class, 'atmospheric_pressure');
  t.equal(core.states.get('sensor.balcony_humidity'), undefined, 'no humidity entity');

  const device = [...core.devices.all()].find((d) => d.identifiers.some(([d0, d1]) => d0 === 'i2c' && d1 === 'i2c-1-0x77'));
  t.equal(device?.model, 'BMP280');
  t.equal(device?.manufacturer, 'Bosch Sensortec');
  // Sleep, config, then forced measurements; never ctrl_hum (0xF2), which a BMP280 does not have.
  t.same(chip.controlWrites().slice(0, 3), ['f4=0', 'f5=0', 'f4=25']);
  t.notOk(
    chip.controlWrites().some((w) => w.startsWith('f2=')),
    'no ctrl_hum write',
  );
  t.same(chip.outside, [], 'reads only registers a BMP280 has');
});

t.test('engineering samples (chip id 0x56, 0x57) are BMP280s too', async (t) => {
  for (const id of [0x56, 0x57]) {
    const bus = new FakeI2cBus(1).attach(0x77, new SimBmp280(id));
    const { core } = await startI2c(t, CONFIG, bus);
    const temp = await waitForState(core, 'sensor.balcony_temperature', (s) => s.state !== 'unknown');
    t.equal(temp.state, '25.1', `chip id 0x${id.toString(16)}`);
  }
});

t.test('the chip id tells a BME280 from a BMP280, and the log says which chip: to configure', async (t) => {
  const bus = new FakeI2cBus(1).attach(0x77, new SimBme280());
  const { core, log } = await startI2c(t, CONFIG, bus);
  await waitForState(core, 'sensor.balcony_temperature', (s) => s.state === 'unavailable');
  const warnings = log.matching('warn', 'BMP280 at i2c-1 0x77');
  t.equal(warnings.length, 1);
  t.match(warnings[0]?.obj.err, /chip id 0x60 \(a BME280\) at 0xd0; a BMP280 answers 0x58; configure it as chip: bme280/);

  const other = new FakeI2cBus(1).attach(0x76, new SimBmp280());
  const { core: core2, log: log2 } = await startI2c(t, CONFIG.replace('bmp280', 'bme280').replace('0x77', '0x76'), other);
  await waitForState(core2, 'sensor.balcony_temperature', (s) => s.state === 'unavailable');
  t.match(log2.matching('warn', 'BME280 at i2c-1 0x76')[0]?.obj.err, /chip id 0x58 \(a BMP280\).*configure it as chip: bmp280/);
});
