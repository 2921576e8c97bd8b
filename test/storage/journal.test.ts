import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import {
  appendRecord,
  decodeRecords,
  encodeHeader,
  encodeOldRecord,
  encodeRecord,
  HEADER_BYTES,
  openAppendFile,
} from '../../src/storage/journal.js';
import { loadJournal } from '../../src/storage/journal-load.js';
import { COPIES_KEPT } from '../../src/storage/quarantine.js';
import { RecordingLogger } from '../fakes/recording-logger.js';
import { tempDir } from './helpers.js';

const SALT = 0x1234abcd;

function payloads(n: number): Buffer[] {
  return Array.from({ length: n }, (_, i) => Buffer.from(JSON.stringify({ seq: i + 1, states: { [`light.l${i}`]: { state: 'on' } } })));
}

/** A journal of one generation and where each record's frame starts. */
function journal(records: readonly Buffer[], salt = SALT): { data: Buffer; starts: number[] } {
  const starts: number[] = [];
  let at = HEADER_BYTES;
  const frames = records.map((r) => {
    starts.push(at);
    const f = encodeRecord(r, salt);
    at += f.length;
    return f;
  });
  return { data: Buffer.concat([encodeHeader(salt), ...frames]), starts };
}

const texts = (records: readonly Buffer[]): string[] => records.map((r) => r.toString());

t.test('records read back whole, with the salt appends continue with', async (t) => {
  const records = payloads(5);
  const { data } = journal(records);
  const d = decodeRecords(data);
  t.same(texts(d.records), texts(records));
  t.same(
    { goodBytes: d.goodBytes, salt: d.salt, skipped: d.skipped, oldFormat: d.oldFormat },
    { goodBytes: data.length, salt: SALT, skipped: [], oldFormat: false },
  );
  t.same(decodeRecords(Buffer.alloc(0)), { records: [], goodBytes: 0, salt: undefined, skipped: [], oldFormat: false }, 'empty');
});

t.test('a flipped byte in the middle costs its own record: the reader skips it and reads on', async (t) => {
  const records = payloads(12);
  for (const [what, offset] of [
    ['in the payload', 20],
    ['in the checksum', 9],
    ['in the magic', 1],
  ] as const) {
    const { data, starts } = journal(records);
    const at = (starts[5] as number) + offset;
    data[at] = (data[at] as number) ^ 0x04;
    const d = decodeRecords(data);
    t.same(texts(d.records), texts([...records.slice(0, 5), ...records.slice(6)]), `${what}: the 11 others are read`);
    t.same(d.skipped, [{ offset: starts[5], bytes: (starts[6] as number) - (starts[5] as number), records: 1, before: 5 }]);
    t.equal(d.goodBytes, data.length, 'no tail');
  }
});

t.test('a damaged length in the middle: the reader resynchronises on the next frame that checks', async (t) => {
  const records = payloads(6);
  for (const length of [0x7fffffff, 3, 0, 200]) {
    const { data, starts } = journal(records);
    data.writeUInt32LE(length, (starts[2] as number) + 4);
    const d = decodeRecords(data);
    t.same(texts(d.records), texts([...records.slice(0, 2), ...records.slice(3)]), `length ${length}`);
    t.equal(d.skipped.length, 1);
  }
});

t.test('zeros are never records: a zeroed stretch, a zeroed tail, a zero-filled file', async (t) => {
  const records = payloads(6);
  const { data, starts } = journal(records);
  const stretch = Buffer.from(data);
  stretch.fill(0, starts[2], (starts[3] as number) + 5);
  const d = decodeRecords(stretch);
  t.same(texts(d.records), texts([...records.slice(0, 2), ...records.slice(4)]), 'zeros over a record and a half: those two are lost');
  t.same(
    d.skipped.map((s) => s.records),
    [1],
    'one stretch (the half record has no magic left, so it is counted with it)',
  );

  const tail = Buffer.from(data);
  tail.fill(0, starts[4]);
  const dt = decodeRecords(tail);
  t.same(texts(dt.records), texts(records.slice(0, 4)), 'a zeroed tail: the records before it are read');
  t.equal(dt.goodBytes, starts[4], 'and the tail starts where the zeros do');

  const padded = Buffer.concat([data, Buffer.alloc(4096)]);
  t.equal(decodeRecords(padded).goodBytes, data.length, 'zeros after the end (size reached the disk, data did not) are a tail');

  const zeros = decodeRecords(Buffer.alloc(data.length));
  t.same({ records: zeros.records.length, goodBytes: zeros.goodBytes }, { records: 0, goodBytes: 0 }, 'a zero-filled file has no records');
});

t.test('frames of another generation or file do not check against this salt', async (t) => {
  const [a, b, c] = payloads(3) as [Buffer, Buffer, Buffer];
  const stale = Buffer.concat([encodeHeader(SALT), encodeRecord(a, SALT), encodeRecord(b, SALT + 1), encodeRecord(c, SALT)]);
  const d = decodeRecords(stale);
  t.same(texts(d.records), texts([a, c]), 'the frame salted for another generation is skipped');
  const noHeader = decodeRecords(Buffer.concat([encodeRecord(a, SALT), encodeRecord(b, SALT)]));
  t.same(noHeader.records.length, 0, 'frames without their header are not trusted');
});

t.test('a damaged header copy costs nothing; a header after damage starts a generation that is read', async (t) => {
  const records = payloads(3);
  for (const at of [2, 12, 16 + 2, 16 + 9]) {
    const { data } = journal(records);
    data[at] = (data[at] as number) ^ 0x80;
    const d = decodeRecords(data);
    t.same(texts(d.records), texts(records), `byte ${at} of the header flipped`);
    t.same(d.skipped, [], 'nothing reported as a lost record');
    t.equal(d.salt, SALT);
  }
  // Garbage that could not be cut (a full disk at start), then a new generation appended behind it.
  const [a, b] = payloads(2) as [Buffer, Buffer];
  const mixed = Buffer.concat([Buffer.from('garbage of a torn write'), encodeHeader(77), encodeRecord(a, 77), encodeRecord(b, 77)]);
  const d = decodeRecords(mixed);
  t.same(texts(d.records), texts([a, b]));
  t.equal(d.salt, 77);
});

t.test('a payload may hold any bytes, even ones that look like a header or a frame', async (t) => {
  const [a, c] = payloads(2) as [Buffer, Buffer];
  const tricky = Buffer.concat([Buffer.from('xxxx'), encodeHeader(999), encodeRecord(Buffer.from('fake'), 999), encodeRecord(a, SALT)]);
  const d = decodeRecords(Buffer.concat([encodeHeader(SALT), encodeRecord(tricky, SALT), encodeRecord(c, SALT)]));
  t.same(texts(d.records), texts([tricky, c]));
  t.equal(d.salt, SALT);
});

t.test('old-format journals (release 2026.11) are read; appends after them start a generation', async (t) => {
  const [a, b, c] = payloads(3) as [Buffer, Buffer, Buffer];
  const old = Buffer.concat([encodeOldRecord(a), encodeOldRecord(b)]);
  const d = decodeRecords(old);
  t.same(
    { records: texts(d.records), oldFormat: d.oldFormat, salt: d.salt, goodBytes: d.goodBytes },
    {
      records: texts([a, b]),
      oldFormat: true,
      salt: undefined,
      goodBytes: old.length,
    },
  );
  const appended = decodeRecords(Buffer.concat([old, encodeHeader(5), encodeRecord(c, 5)]));
  t.same(texts(appended.records), texts([a, b, c]), 'in order');
  t.equal(appended.salt, 5);
  t.same(decodeRecords(Buffer.concat([old, Buffer.alloc(16)])).records.length, 2, 'zeros after them are not empty records');
  t.equal(decodeRecords(Buffer.alloc(64)).records.length, 0, 'nor is a zero-filled old file');
});

t.test('a file made to be slow to read is read in bounded work', async (t) => {
  // Nothing but frame magics claiming the longest length: each candidate costs a checksum of the rest.
  const hostile = Buffer.alloc(4 * 1024 * 1024);
  for (let at = HEADER_BYTES; at + 8 <= hostile.length; at += 8) {
    hostile.set([0xfe, 0x52, 0x43, 0xff], at);
    hostile.writeUInt32LE(64 * 1024 * 1024, at + 4);
  }
  encodeHeader(SALT).copy(hostile, 0);
  const d = decodeRecords(hostile);
  t.same({ records: d.records.length, goodBytes: d.goodBytes }, { records: 0, goodBytes: HEADER_BYTES }, 'the rest is a tail');
  // Short frames that never check, half a million of them, and no header magic to find after them.
  const short = Buffer.alloc(4 * 1024 * 1024);
  encodeHeader(SALT).copy(short, 0);
  for (let at = HEADER_BYTES; at + 8 <= short.length; at += 8) {
    short.set([0xfe, 0x52, 0x43, 0xff], at);
    short.writeUInt32LE(1, at + 4);
  }
  t.equal(decodeRecords(short).goodBytes, HEADER_BYTES, 'each candidate is looked at once');
  const headers = Buffer.alloc(4 * 1024 * 1024);
  encodeHeader(SALT).copy(headers, 0);
  for (let at = HEADER_BYTES; at + 4 <= headers.length; at += 4) headers.write('HJNL', at, 'latin1');
  t.equal(decodeRecords(headers).goodBytes, HEADER_BYTES, 'nor a file of header magics');
});

t.test('loading a damaged journal: a copy is kept, the file rewritten with what checked, one error names it all', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'journal');
  const records = payloads(8);
  const { data, starts } = journal(records);
  const damaged = Buffer.concat([data, Buffer.from([0xfe, 0x52, 0x43, 0xff, 200])]);
  const at = (starts[3] as number) + 14;
  damaged[at] = (damaged[at] as number) ^ 1;
  await writeFile(path, damaged);
  const log = new RecordingLogger();
  const loaded = await loadJournal(path, { log, label: 'test journal' });
  const kept = [...records.slice(0, 3), ...records.slice(4)];
  t.same(texts(loaded.records), texts(kept));
  t.equal(loaded.droppedBytes, (starts[4] as number) - (starts[3] as number) + 5);
  const names = (await readdir(dir)).sort();
  t.match(names, ['journal', /^journal\.damaged-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/]);
  t.same(await readFile(join(dir, names[1] as string)), damaged, 'the copy is the damaged file, byte for byte');
  const errors = log.lines.filter((l) => l.level === 'error');
  t.equal(errors.length, 1, 'one error');
  t.match(errors[0]?.msg, `test journal ${path} was damaged: skipped 1 damaged record(s)`);
  t.match(errors[0]?.msg, `at byte ${starts[3]}`);
  t.match(errors[0]?.msg, `cut 5 bytes of torn or damaged tail at byte ${data.length}`);
  t.match(errors[0]?.msg, names[1] as string);
  t.match(
    errors[0]?.obj,
    { path, skippedRecords: 1, offsets: [starts[3]], tailAt: data.length, tailBytes: 5, copy: join(dir, names[1] as string) },
    'and its fields',
  );

  const rewritten = await readFile(path);
  t.same(texts(decodeRecords(rewritten).records), texts(kept), 'rewritten with the records that checked');
  t.same(decodeRecords(rewritten).skipped, [], 'and nothing else');
  const file = await openAppendFile(path);
  const extra = Buffer.from('{"seq":9}');
  const end = await appendRecord(file, extra, loaded.end);
  await file.close();
  t.equal(end.bytes, (await readFile(path)).length);
  const again = await loadJournal(path, { log, label: 'test journal' });
  t.same(texts(again.records), texts([...kept, extra]), 'appends go on after it');
  t.equal(log.lines.length, 1, 'a whole journal logs nothing');
});

t.test('a torn tail alone is a warning; at most COPIES_KEPT copies are kept whatever the number of repairs', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'journal');
  const log = new RecordingLogger();
  for (let i = 0; i < 4; i++) {
    const { data } = journal(payloads(2 + i));
    await writeFile(path, Buffer.concat([data, Buffer.from('torn')]));
    const loaded = await loadJournal(path, { log, label: 'test journal' });
    t.equal(loaded.records.length, 2 + i);
  }
  t.same(
    log.lines.map((l) => l.level),
    ['warn', 'warn', 'warn', 'warn'],
  );
  t.match(log.lines[0]?.msg, 'had an unfinished write at its end (a crash or power cut): cut 4 bytes');
  const copies = (await readdir(dir)).filter((n) => n.startsWith('journal.damaged-')).sort();
  t.equal(copies.length, COPIES_KEPT);
  t.same(decodeRecords(await readFile(join(dir, copies.at(-1) as string))).records.length, 5, 'the newest are kept');
});

t.test('a journal that cannot be repaired (no room for the copy) is left as it is, and appends after it are read', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'journal');
  const records = payloads(3);
  const { data } = journal(records);
  await writeFile(path, Buffer.concat([data, Buffer.from('torn')]));
  const log = new RecordingLogger();
  const { nodeFs } = await import('../../src/storage/storage-fs.js');
  const noRoom = {
    ...nodeFs,
    open: async (p: string, flags: number, mode?: number) => {
      if (p.includes('.damaged-')) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      return nodeFs.open(p, flags, mode);
    },
  };
  const loaded = await loadJournal(path, { log, label: 'test journal', fs: noRoom });
  t.same(texts(loaded.records), texts(records));
  t.same(await readFile(path), Buffer.concat([data, Buffer.from('torn')]), 'not cut without a copy');
  t.match(log.lines[0]?.msg, 'could not keep a copy (ENOSPC: the disk is full), so the file is left as it is');
  const file = await openAppendFile(path);
  const extra = Buffer.from('{"seq":4}');
  await appendRecord(file, extra, loaded.end);
  await file.close();
  t.same(texts(decodeRecords(await readFile(path)).records), texts([...records, extra]), 'the append after the tail is read');
});

t.test('temp files a power cut left during a repair are removed at the next load', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'journal');
  const { data } = journal(payloads(2));
  await writeFile(path, data);
  await writeFile(join(dir, '.journal.3f2a9c.tmp'), data.subarray(0, 40));
  await writeFile(join(dir, '.journal.damaged-2026-11-28T12-00-00-000Z.8c1d0e.tmp'), data.subarray(0, 10));
  await writeFile(join(dir, '.snapshot.json.77aa.tmp'), '{');
  const loaded = await loadJournal(path, { log: new RecordingLogger(), label: 'test journal' });
  t.equal(loaded.records.length, 2);
  t.same((await readdir(dir)).sort(), ['.snapshot.json.77aa.tmp', 'journal'], "the journal's own temp files only");
});
