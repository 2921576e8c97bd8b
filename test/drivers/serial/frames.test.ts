import t from 'tap';
import { FrameScanner } from '../../../drivers/serial/frame-scanner.js';
import { LineSplitter } from '../../../drivers/serial/line-splitter.js';
import { PMS5003_FRAME, pms5003Values } from '../../../drivers/serial/pms5003.js';
import { SDS011_FRAME, sds011Values } from '../../../drivers/serial/sds011.js';
import { pms5003Frame, sds011Frame } from '../../fakes/serial-frames.js';

function scan(spec: typeof PMS5003_FRAME) {
  const frames: Buffer[] = [];
  const corrupt: string[] = [];
  const scanner = new FrameScanner(
    spec,
    (f) => frames.push(Buffer.from(f)),
    (reason) => corrupt.push(reason),
  );
  return { scanner, frames, corrupt };
}

t.test('PMS5003 frames are found whatever the chunking', async (t) => {
  const frame = pms5003Frame({ pm1: 3, pm25: 7, pm10: 11 });
  for (const size of [1, 2, 3, 5, 7, 31, 32, 33]) {
    const { scanner, frames, corrupt } = scan(PMS5003_FRAME);
    const stream = Buffer.concat([frame, frame]);
    for (let i = 0; i < stream.length; i += size) scanner.push(stream.subarray(i, i + size));
    t.equal(frames.length, 2, `chunks of ${size}`);
    t.same(corrupt, []);
  }
  t.same(pms5003Values(pms5003Frame({ pm1: 3, pm25: 7, pm10: 11 })), { pm1: 3, pm25: 7, pm10: 11 });
});

t.test('garbage is skipped, corrupt frames reported, and a frame hidden behind a false start still found', async (t) => {
  const { scanner, frames, corrupt } = scan(PMS5003_FRAME);
  scanner.push(Buffer.from('noise without a frame start \x00\xff\x42\x00\x4d'));
  scanner.push(pms5003Frame({ pm1: 1, pm25: 2, pm10: 3 }, { corrupt: true }));
  t.same(frames, []);
  t.match(corrupt, [/^checksum 0x[0-9a-f]+, the bytes add up to 0x[0-9a-f]+$/]);
  // A false "BM" start right before a real frame: the real one is recovered by rescanning.
  scanner.push(Buffer.concat([Buffer.from([0x42, 0x4d, 0x00, 0x1c, 0x01]), pms5003Frame({ pm1: 4, pm25: 5, pm10: 6 })]));
  t.equal(frames.length, 1);
  t.same(pms5003Values(frames[0] as Buffer), { pm1: 4, pm25: 5, pm10: 6 });
  const wrongLength = pms5003Frame({ pm1: 1, pm25: 1, pm10: 1 });
  wrongLength.writeUInt16BE(20, 2);
  scanner.push(wrongLength);
  t.match(corrupt[corrupt.length - 1], /frame length 20, a PMS5003 sends 28/);
});

t.test('a long stream of garbage costs no memory and finds nothing', async (t) => {
  const { scanner, frames, corrupt } = scan(PMS5003_FRAME);
  const garbage = Buffer.alloc(64 * 1024, 0x55);
  const before = process.memoryUsage().arrayBuffers;
  for (let i = 0; i < 64; i++) scanner.push(garbage); // 4 MiB
  t.ok(process.memoryUsage().arrayBuffers - before < 1024 * 1024, 'nothing kept');
  t.same([frames.length, corrupt.length], [0, 0]);
  scanner.push(pms5003Frame({ pm1: 1, pm25: 2, pm10: 3 }));
  t.equal(frames.length, 1, 'and the next real frame is found');
});

t.test('SDS011 frames: values in tenths, checksum and tail checked, command replies skipped', async (t) => {
  const { scanner, frames, corrupt } = scan(SDS011_FRAME);
  const reply = Buffer.from([0xaa, 0xc5, 0x06, 0x01, 0x00, 0x00, 0xa1, 0xb2, 0x5a, 0xab]);
  scanner.push(Buffer.concat([reply, sds011Frame({ pm25: 12.3, pm10: 45.6 })]));
  t.equal(frames.length, 1);
  t.same(sds011Values(frames[0] as Buffer), { pm25: 12.3, pm10: 45.6 });
  scanner.push(sds011Frame({ pm25: 1, pm10: 2 }, { corrupt: true }));
  const badTail = sds011Frame({ pm25: 1, pm10: 2 });
  badTail.writeUInt8(0x00, 9);
  scanner.push(badTail);
  t.match(corrupt, [/^checksum/, /^tail byte 0x0, expected 0xab$/]);
});

t.test('lines: LF or CRLF, split anywhere, and an over-long line dropped whole', async (t) => {
  const lines: string[] = [];
  const overflows: number[] = [];
  const splitter = new LineSplitter(
    16,
    (l) => lines.push(l),
    (max) => overflows.push(max),
  );
  splitter.push(Buffer.from('21.5\r\n22'));
  splitter.push(Buffer.from('.0\n'));
  splitter.push(Buffer.from('x'.repeat(40)));
  splitter.push(Buffer.from('y'.repeat(40)));
  splitter.push(Buffer.from('\n23.5\n'));
  t.same(lines, ['21.5', '22.0', '23.5']);
  t.same(overflows, [16]);
  splitter.push(Buffer.from('partial'));
  splitter.reset();
  splitter.push(Buffer.from('24\n'));
  t.same(lines.slice(-1), ['24'], 'reset drops a partial line');
});
