import { addMeasurement, type ChipType, chipError, type MeasurementSpec, measurementEntityId } from './chip.js';

const OP_POWER_ON = 0x01;
/** Continuously H-resolution mode: 1 lx resolution, a new result every 120 ms (180 ms max). */
const OP_CONTINUOUS_H_RES = 0x10;
const FIRST_RESULT_MS = 180;

/** Datasheet: illuminance = count / 1.2 at the default measurement time (MTreg = 69). */
export function bh1750Lux(raw: number): number {
  return raw / 1.2;
}

const ILLUMINANCE: MeasurementSpec = { key: 'illuminance', label: 'Illuminance', unit: 'lx', deviceClass: 'illuminance', precision: 1 };

/** ROHM BH1750FVI ambient light sensor in continuous high-resolution mode. */
export const bh1750: ChipType<null> = {
  chip: 'bh1750',
  manufacturer: 'ROHM Semiconductor',
  model: 'BH1750FVI',
  addresses: [0x23, 0x5c],
  defaultPollInterval: 30,
  parse(_r, identity) {
    return { options: null, entityIds: [measurementEntityId(identity, ILLUMINANCE)] };
  },
  create(ctx) {
    const { bus } = ctx;
    const address = ctx.identity.address;
    const lux = addMeasurement(ctx, ILLUMINANCE);
    const opcode = (op: number) => bus.run((b) => b.i2cWrite(address, 1, Buffer.from([op])));
    const readRaw = () =>
      bus.run(async (b) => {
        const { bytesRead, buffer } = await b.i2cRead(address, 2, Buffer.alloc(2));
        if (bytesRead !== 2) throw chipError('EBADDATA', `read ${bytesRead} of 2 bytes`);
        return buffer.readUInt16BE(0);
      });
    return {
      async init() {
        // The chip has no id register: power it on, start measuring, and read a first result as the probe.
        await opcode(OP_POWER_ON);
        await opcode(OP_CONTINUOUS_H_RES);
        await ctx.delay(FIRST_RESULT_MS);
        await readRaw();
      },
      async read() {
        lux.report(bh1750Lux(await readRaw()));
      },
      markUnavailable() {
        lux.entity.markUnavailable();
      },
    };
  },
};
