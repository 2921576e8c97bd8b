/**
 * The kernel's w1_therm `w1_slave` file: the scratchpad with the CRC verdict, then the scratchpad again with
 * the temperature in millidegrees Celsius:
 *
 *   72 01 4b 46 7f ff 0e 10 57 : crc=57 YES
 *   72 01 4b 46 7f ff 0e 10 57 t=23125
 */

/** A read that returned something, but nothing to trust; the message says why. */
export class W1ReadError extends Error {
  override readonly name = 'W1ReadError';
}

/** The w1_therm temperature families: the id prefix before the dash, and the chip it means. */
export const W1_THERM_FAMILIES: Readonly<Record<string, string>> = {
  '10': 'DS18S20',
  '22': 'DS1822',
  '28': 'DS18B20',
  '3b': 'MAX31850',
  '42': 'DS28EA00',
};

/** The DS18B20's register value after power-on, before any conversion: a read of it is a failed read. */
export const POWER_ON_MILLIDEGREES = 85_000;

const CRC_LINE = /((?:[0-9a-f]{2} ){9}): crc=([0-9a-f]{2}) (YES|NO)\s*$/i;
const T_LINE = /\bt=(-?\d+)\s*$/;

/** Parses a w1_slave text to degrees Celsius; throws W1ReadError for a bad CRC, a power-on value, an all-zero read. */
export function parseW1Slave(text: string, family = '28'): number {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const crc = CRC_LINE.exec(lines[0] ?? '');
  if (crc === null) throw new W1ReadError(`unreadable w1_slave (no CRC line): ${JSON.stringify(text.slice(0, 80))}`);
  if ((crc[3] as string).toUpperCase() !== 'YES') {
    throw new W1ReadError(`CRC check failed (crc=${crc[2]} NO): noise on the bus, a long cable or a loose wire`);
  }
  if (/^(00 ){9}$/.test(crc[1] as string)) {
    throw new W1ReadError('read all zeros: the data line is shorted to ground or the sensor has no power');
  }
  const t = T_LINE.exec(lines[1] ?? '');
  if (t === null) throw new W1ReadError(`unreadable w1_slave (no t= value): ${JSON.stringify(text.slice(0, 120))}`);
  const milli = Number(t[1]);
  if (milli === POWER_ON_MILLIDEGREES && family !== '3b') {
    throw new W1ReadError('read 85 °C, the power-on value: the conversion did not run (weak power or parasite power problem)');
  }
  const celsius = milli / 1000;
  // The MAX31850 reads a thermocouple; the others measure -55 to 125 °C.
  if (family !== '3b' && (celsius < -55 || celsius > 125)) {
    throw new W1ReadError(`read ${celsius} °C, outside the sensor's range of -55 to 125 °C`);
  }
  return celsius;
}
