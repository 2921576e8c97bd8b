import { crc32, inflateSync } from 'node:zlib';
import t from 'tap';
import { seededRandom } from '../../drivers/virtual/index.js';
import { encodePng, PNG_SIGNATURE } from '../../src/util/png.js';

interface Chunk {
  readonly type: string;
  readonly data: Buffer;
  readonly crcOk: boolean;
}

/** Splits a PNG into its chunks, checking each CRC; a tiny decoder independent of the encoder. */
function chunks(png: Buffer): Chunk[] {
  const out: Chunk[] = [];
  let at = 8;
  while (at < png.length && out.length < 100) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    const crc = png.readUInt32BE(at + 8 + length);
    out.push({ type, data, crcOk: crc === crc32(png.subarray(at + 4, at + 8 + length)) });
    at += 12 + length;
  }
  return out;
}

/** Reverses the PNG filters (all five types, as any decoder must) for 8-bit RGB. */
function unfilter(raw: Buffer, width: number, height: number): Uint8Array {
  const stride = width * 3;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const type = raw[y * (stride + 1)] as number;
    for (let x = 0; x < stride; x++) {
      const v = raw[y * (stride + 1) + 1 + x] as number;
      const a = x >= 3 ? (out[y * stride + x - 3] as number) : 0;
      const b = y > 0 ? (out[(y - 1) * stride + x] as number) : 0;
      const c = x >= 3 && y > 0 ? (out[(y - 1) * stride + x - 3] as number) : 0;
      let pred = 0;
      if (type === 1) pred = a;
      else if (type === 2) pred = b;
      else if (type === 3) pred = (a + b) >> 1;
      else if (type === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[y * stride + x] = (v + pred) & 0xff;
    }
  }
  return out;
}

function decode(png: Buffer): { width: number; height: number; pixels: Uint8Array; chunks: Chunk[] } {
  const list = chunks(png);
  const ihdr = list[0]?.data as Buffer;
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  const idat = Buffer.concat(list.filter((c) => c.type === 'IDAT').map((c) => c.data));
  return { width, height, pixels: unfilter(inflateSync(idat), width, height), chunks: list };
}

function randomImage(width: number, height: number, seed: number): Uint8Array {
  const random = seededRandom(seed);
  const pixels = new Uint8Array(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = Math.floor(random() * 256);
  return pixels;
}

t.test('a PNG has the signature, an IHDR for 8-bit RGB, IDAT and a final IEND, each with a valid CRC', async (t) => {
  const png = encodePng({ width: 7, height: 5, pixels: randomImage(7, 5, 1) });
  t.same(png.subarray(0, 8), PNG_SIGNATURE);
  t.same([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const list = chunks(png);
  t.same(
    list.map((c) => c.type),
    ['IHDR', 'IDAT', 'IEND'],
  );
  t.ok(
    list.every((c) => c.crcOk),
    'every CRC matches',
  );
  const ihdr = list[0]?.data as Buffer;
  t.equal(ihdr.length, 13);
  t.same(
    { width: ihdr.readUInt32BE(0), height: ihdr.readUInt32BE(4), depth: ihdr[8], colour: ihdr[9], rest: [...ihdr.subarray(10)] },
    { width: 7, height: 5, depth: 8, colour: 2, rest: [0, 0, 0] },
  );
  t.equal(list[2]?.data.length, 0);
  t.equal(png.length, 8 + list.reduce((n, c) => n + 12 + c.data.length, 0), 'nothing after IEND');
});

t.test('the image data inflates and unfilters back to exactly the pixels given', async (t) => {
  for (const [w, h, seed] of [
    [1, 1, 2],
    [3, 9, 3],
    [64, 48, 4],
    [320, 240, 5],
  ] as const) {
    const pixels = randomImage(w, h, seed);
    const decoded = decode(encodePng({ width: w, height: h, pixels }));
    t.equal(decoded.width, w);
    t.equal(decoded.height, h);
    t.ok(Buffer.from(decoded.pixels).equals(Buffer.from(pixels)), `${w}x${h} round-trips`);
  }
});

t.test('flat and gradient pictures compress well', async (t) => {
  const w = 320;
  const h = 240;
  const pixels = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) pixels.fill(y, y * w * 3, (y + 1) * w * 3);
  const png = encodePng({ width: w, height: h, pixels });
  t.ok(png.length < 2000, `a 225 KiB gradient encodes to ${png.length} bytes`);
  t.ok(Buffer.from(decode(png).pixels).equals(Buffer.from(pixels)));
});

t.test('bad sizes and short pixel data are refused', async (t) => {
  t.throws(() => encodePng({ width: 0, height: 1, pixels: new Uint8Array(0) }), RangeError);
  t.throws(() => encodePng({ width: 1.5, height: 1, pixels: new Uint8Array(3) }), RangeError);
  t.throws(() => encodePng({ width: 20000, height: 1, pixels: new Uint8Array(60000) }), RangeError);
  t.throws(() => encodePng({ width: 2, height: 2, pixels: new Uint8Array(11) }), {
    message: 'expected 12 bytes of RGB pixels for 2x2, got 11',
  });
});
