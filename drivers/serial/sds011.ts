import { byteSum, FrameScanner, type FrameSpec } from './frame-scanner.js';
import { addParticulate, CORRUPT_FRAMES_UNAVAILABLE, PM10, PM25, particulateEntityId, type SerialPlatform } from './platform.js';

export const SDS011_FRAME_LENGTH = 10;

/**
 * Nova Fitness SDS011 data frame: 0xAA 0xC0, PM2.5 and PM10 (little-endian, tenths of µg/m³), two id bytes,
 * a checksum (low byte of the sum of the six data bytes) and the tail 0xAB. Replies to commands (0xC5)
 * have another second byte and are skipped.
 */
export const SDS011_FRAME: FrameSpec = {
  header: [0xaa, 0xc0],
  length: SDS011_FRAME_LENGTH,
  check(frame) {
    const tail = frame.readUInt8(9);
    if (tail !== 0xab) return `tail byte 0x${tail.toString(16)}, expected 0xab`;
    const sum = byteSum(frame, 2, 8) & 0xff;
    const checksum = frame.readUInt8(8);
    if (sum !== checksum) return `checksum 0x${checksum.toString(16)}, the data bytes add up to 0x${sum.toString(16)}`;
    return undefined;
  },
};

export function sds011Values(frame: Buffer): { pm25: number; pm10: number } {
  return { pm25: frame.readUInt16LE(2) / 10, pm10: frame.readUInt16LE(4) / 10 };
}

export const sds011: SerialPlatform<null> = {
  type: 'sds011',
  defaultName: 'SDS011',
  defaultBaudRate: 9600,
  corruptFramesUnavailable: CORRUPT_FRAMES_UNAVAILABLE,
  manufacturer: () => 'Nova Fitness',
  model: () => 'SDS011',
  parse(_r, identity) {
    return { options: null, entityIds: [PM25, PM10].map((s) => particulateEntityId(identity, s)) };
  },
  create(ctx) {
    // Tenths of a microgram: the unit the sensor reports in.
    const pm25 = addParticulate(ctx, PM25, 1);
    const pm10 = addParticulate(ctx, PM10, 1);
    const scanner = new FrameScanner(
      SDS011_FRAME,
      (frame) => {
        const v = sds011Values(frame);
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
        pm25.entity.markUnavailable();
        pm10.entity.markUnavailable();
      },
    };
  },
};
