import { byteSum, FrameScanner, type FrameSpec } from './frame-scanner.js';
import { addParticulate, CORRUPT_FRAMES_UNAVAILABLE, PM1, PM10, PM25, particulateEntityId, type SerialPlatform } from './platform.js';

export const PMS5003_FRAME_LENGTH = 32;
/** The frame length field: 13 data words and the checksum. */
const LENGTH_FIELD = 2 * 13 + 2;

/**
 * Plantower PMS5003 frame (active mode, about once a second): 0x42 0x4D, frame length (28), 13 big-endian
 * words, then a checksum that is the 16-bit sum of every byte before it.
 */
export const PMS5003_FRAME: FrameSpec = {
  header: [0x42, 0x4d],
  length: PMS5003_FRAME_LENGTH,
  check(frame) {
    const length = frame.readUInt16BE(2);
    if (length !== LENGTH_FIELD) return `frame length ${length}, a PMS5003 sends ${LENGTH_FIELD}`;
    const sum = byteSum(frame, 0, 30) & 0xffff;
    const checksum = frame.readUInt16BE(30);
    if (sum !== checksum) return `checksum 0x${checksum.toString(16)}, the bytes add up to 0x${sum.toString(16)}`;
    return undefined;
  },
};

/** PM1.0, PM2.5 and PM10 in µg/m³ "under atmospheric environment" (data words 4-6), as ESPHome and Plantower's manual use. */
export function pms5003Values(frame: Buffer): { pm1: number; pm25: number; pm10: number } {
  return { pm1: frame.readUInt16BE(10), pm25: frame.readUInt16BE(12), pm10: frame.readUInt16BE(14) };
}

export const pms5003: SerialPlatform<null> = {
  type: 'pms5003',
  defaultName: 'PMS5003',
  defaultBaudRate: 9600,
  corruptFramesUnavailable: CORRUPT_FRAMES_UNAVAILABLE,
  manufacturer: () => 'Plantower',
  model: () => 'PMS5003',
  parse(_r, identity) {
    return { options: null, entityIds: [PM1, PM25, PM10].map((s) => particulateEntityId(identity, s)) };
  },
  create(ctx) {
    // Whole micrograms: the sensor's resolution.
    const pm1 = addParticulate(ctx, PM1, 0);
    const pm25 = addParticulate(ctx, PM25, 0);
    const pm10 = addParticulate(ctx, PM10, 0);
    const scanner = new FrameScanner(
      PMS5003_FRAME,
      (frame) => {
        const v = pms5003Values(frame);
        pm1.report(v.pm1);
        pm25.report(v.pm25);
        pm10.report(v.pm10);
        ctx.alive();
      },
      ctx.corrupt,
    );
    return {
      push: (chunk) => scanner.push(chunk),
      reset: () => scanner.reset(),
      markUnavailable() {
        pm1.entity.markUnavailable();
        pm25.entity.markUnavailable();
        pm10.entity.markUnavailable();
      },
    };
  },
};
