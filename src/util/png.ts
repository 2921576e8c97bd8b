import { crc32, deflateSync } from 'node:zlib';

/** The eight bytes every PNG file starts with. */
export const PNG_SIGNATURE: Readonly<Buffer> = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const COLOR_TYPE_RGB = 2;
const FILTER_UP = 2;
/** PNG allows up to 2^31-1; this bound keeps a bad caller from asking for gigabytes. */
const MAX_SIDE = 16384;

/** An 8-bit RGB image: `pixels` holds width*height*3 bytes, row by row, top to bottom. */
export interface RgbImage {
  readonly width: number;
  readonly height: number;
  readonly pixels: Uint8Array;
}

export interface PngOptions {
  /** zlib level 0-9; the default 6 is a good trade of CPU for size on a Pi. */
  readonly level?: number;
}

/**
 * Encodes an RGB image as a PNG (8 bits per channel, no interlace). Every row uses the Up filter, which
 * turns the smooth vertical gradients and flat areas of generated pictures into runs of zeros that
 * deflate compresses well, at no cost to decoders.
 */
export function encodePng(image: RgbImage, options: PngOptions = {}): Buffer {
  const { width, height, pixels } = image;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) {
    throw new RangeError(`PNG size must be whole numbers from 1 to ${MAX_SIDE}, got ${width}x${height}`);
  }
  const stride = width * 3;
  if (pixels.length !== stride * height) {
    throw new RangeError(`expected ${stride * height} bytes of RGB pixels for ${width}x${height}, got ${pixels.length}`);
  }
  const raw = Buffer.allocUnsafe((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const out = y * (stride + 1);
    const row = y * stride;
    raw[out] = FILTER_UP;
    if (y === 0) {
      // Up against the (implicit) all-zero row above is the row itself.
      raw.set(pixels.subarray(0, stride), out + 1);
      continue;
    }
    const above = row - stride;
    for (let x = 0; x < stride; x++) raw[out + 1 + x] = ((pixels[row + x] as number) - (pixels[above + x] as number)) & 0xff;
  }

  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = COLOR_TYPE_RGB;
  // compression, filter method and interlace are all 0 (the only defined methods; no interlace)
  const idat = deflateSync(raw, { level: options.level ?? 6 });
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', header), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

/** One chunk: length, type, data, and the CRC-32 of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.allocUnsafe(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
