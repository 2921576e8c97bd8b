import t from 'tap';
import { ByteReader, ByteWriter } from '../../src/recorder/bytes.js';

/** The same writes into a writer: varints, bytes, hex ids, strings, and flag bytes set after what follows them. */
function writeMix(w: ByteWriter, rounds: number): void {
  for (let i = 0; i < rounds; i++) {
    const at = w.length;
    w.u8(0);
    w.varint(i * 977);
    w.zigzag(-i);
    if (i % 3 === 0) w.hex16(`${'0123456789abcdef'.repeat(2).slice(i % 16)}${'0123456789abcdef'.slice(0, i % 16)}`);
    if (i % 5 === 0) w.string(`point ${i} ✓`);
    if (i % 7 === 0) w.bytes(new Uint8Array(300).fill(i & 0xff));
    w.setU8(at, i & 0xff);
  }
}

t.test('a writer in blocks holds the same bytes as one that doubles, and reads back across block edges', async (t) => {
  const doubling = new ByteWriter(32);
  const blocks = new ByteWriter(32, 256);
  writeMix(doubling, 400);
  writeMix(blocks, 400);
  t.equal(blocks.length, doubling.length);
  const all = doubling.view();
  t.same(Buffer.from(blocks.view()), Buffer.from(all), 'the whole body');
  t.same(blocks.toBuffer(), Buffer.from(all));
  for (const [from, to] of [
    [0, 1],
    [100, 700],
    [255, 257],
    [all.length - 10, all.length],
    [all.length, all.length],
  ] as const) {
    t.same(Buffer.from(blocks.view(from, to)), Buffer.from(all.subarray(from, to)), `bytes ${from} to ${to}`);
  }
  t.same(Buffer.from(blocks.view(1000)), Buffer.from(all.subarray(1000)), 'from an offset to the end');
  for (const from of [0, 255, 1000]) {
    const into = new ByteWriter(8);
    into.u8(0xee);
    blocks.appendTo(into, from);
    t.same(Buffer.from(into.view(1)), Buffer.from(all.subarray(from)), `appended from ${from}, block by block`);
  }
  // Each block is kept as written: the capacity is what was written plus at most a block's slack per block
  // boundary a write did not fit (a 300-byte write gets a block of its own), never twice the body.
  t.ok(blocks.capacity < doubling.capacity, `${blocks.capacity} held in blocks, ${doubling.capacity} doubling`);
  const r = new ByteReader(blocks.view());
  r.u8();
  t.equal(r.varint(), 0);
});

t.test('a quiet series keeps one buffer, doubled up to a block, as a writer that only doubles does', async (t) => {
  const w = new ByteWriter(32, 1024);
  for (let i = 0; i < 300; i++) w.u8(i & 0xff);
  t.equal(w.capacity, 512);
  t.equal(w.view().length, 300, 'the whole body is one view');
  for (let i = 0; i < 1000; i++) w.u8(i & 0xff);
  t.equal(w.capacity, 2048, 'a first kilobyte, then blocks of one');
});

t.test('a flag byte set after its block filled up lands in that block', async (t) => {
  const w = new ByteWriter(4, 4);
  w.u8(0);
  w.u8(1);
  w.u8(2);
  const at = w.length;
  w.u8(0);
  w.varint(300); // two bytes: a new block
  w.setU8(at, 9);
  t.same([...w.view()], [0, 1, 2, 9, 0xac, 0x02]);
});

t.test('a hex id that is not one writes nothing, in either mode', async (t) => {
  for (const w of [new ByteWriter(8), new ByteWriter(8, 8)]) {
    w.u8(7);
    t.notOk(w.hex16('0123456789abcdef0123456789abcdeX'));
    t.equal(w.length, 1);
    t.ok(w.hex16('0123456789abcdef0123456789abcdef'));
    t.equal(w.length, 17);
    t.same([...w.view(1, 3)], [0x01, 0x23]);
  }
});
