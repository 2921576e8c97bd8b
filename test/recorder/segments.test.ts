import { deflateRawSync, inflateRawSync } from 'node:zlib';
import t from 'tap';
import { deflateSized, deflateSizedAsync } from '../../src/recorder/segments.js';

/** Recorder-like bytes: short runs that repeat with small changes (a series' deltas), deterministic. */
function sample(length: number): Uint8Array {
  const out = new Uint8Array(length);
  let seed = 7;
  for (let i = 0; i < length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    out[i] = i % 16 < 12 ? (i % 16) * 3 : seed & 0xff;
  }
  return out;
}

const SIZES = [0, 1, 63, 64, 100, 511, 512, 513, 4096, 5000, 16_384, 70_000, 200_000];

t.test('a chunk deflated with state sized to it inflates with the default window, and is no larger', async (t) => {
  for (const size of SIZES) {
    const plain = sample(size);
    const sized = deflateSized(plain, 6);
    t.same(new Uint8Array(inflateRawSync(sized)), plain, `${size} bytes round-trip`);
    t.same(new Uint8Array(inflateRawSync(await deflateSizedAsync(plain, 6))), plain, `${size} bytes round-trip off the loop`);
    // zlib's full-size state finds no better matches than a window that covers the whole input.
    const full = deflateRawSync(plain, { level: 6 });
    t.ok(sized.length <= full.length + 8, `${size} bytes: ${sized.length} deflated against ${full.length} with zlib's defaults`);
  }
});
