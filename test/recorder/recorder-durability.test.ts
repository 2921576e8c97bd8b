import { appendFile, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import type { OpenAppendFile } from '../../src/storage/journal.js';
import { fullDisk } from '../fakes/full-disk.js';
import { RecordingLogger } from '../fakes/recording-logger.js';
import { tempDir } from '../storage/helpers.js';
import { DAY, feed, HOUR, history, rig, START } from './recorder-rig.js';

/** What survives a restart, a torn journal, a damaged day file and a full disk. */

t.test('a commit, a seal and a restart change nothing a query returns', async (t) => {
  const dir = await tempDir(t);
  const a = await rig(t, dir);
  feed(a);
  const before = history(a.recorder, 'sensor.temp', START, START + DAY);
  const sw = history(a.recorder, 'switch.heater', START, START + DAY);
  await a.recorder.commit();
  t.same(history(a.recorder, 'sensor.temp', START, START + DAY), before, 'after a commit');
  a.clock.advance(HOUR);
  await a.recorder.tick();
  t.equal(a.recorder.stats.seals, 1, 'leaving the hour seals it');
  t.same(history(a.recorder, 'sensor.temp', START, START + DAY), before, 'after the seal');
  feed(a, 5);
  await a.recorder.stop();
  const files = await readdir(join(dir, 'recorder'));
  t.ok(files.includes('2026-03-10.seg') && files.includes('wal'), 'a day file and the journal');

  const b = await rig(t, dir, { clock: a.clock });
  const after = history(b.recorder, 'sensor.temp', START, START + DAY);
  t.equal(after.length, 25, 'the sealed hour and the journal are both read back');
  t.same(after.slice(0, 20), before);
  t.same(history(b.recorder, 'switch.heater', START, START + DAY).slice(0, 4), sw, 'contexts too');
});

t.test('a torn journal tail (kill -9 during a commit) is cut off; every whole commit is kept', async (t) => {
  const dir = await tempDir(t);
  const a = await rig(t, dir);
  feed(a, 10);
  await a.recorder.commit();
  await a.recorder.stop();
  const wal = join(dir, 'recorder', 'wal');
  const size = (await stat(wal)).size;
  await appendFile(wal, Buffer.from([200, 1, 0, 0, 1, 2, 3]));
  const log = new RecordingLogger();
  const b = await rig(t, dir, { clock: a.clock, log });
  t.equal(history(b.recorder, 'sensor.temp', START, START + DAY).length, 10);
  t.equal(b.recorder.stats.droppedTailBytes, 7);
  b.core.states.set('sensor.temp', '99.0');
  await b.recorder.commit();
  t.ok((await stat(wal)).size > size, 'appends after the good records');
  await b.recorder.stop();
  const c = await rig(t, dir, { clock: a.clock });
  t.equal(history(c.recorder, 'sensor.temp', START, START + DAY).at(-1)?.s, '99.0', 'the record after the cut is read');
});

t.test('a day file with a broken index is read on from its blob; a torn seal is cut off after a copy is kept', async (t) => {
  const dir = await tempDir(t);
  const a = await rig(t, dir);
  feed(a, 5);
  a.clock.advance(HOUR);
  await a.recorder.tick();
  feed(a, 5);
  a.clock.advance(HOUR);
  await a.recorder.tick();
  await a.recorder.stop();
  const path = join(dir, 'recorder', '2026-03-10.seg');
  const good = await readFile(path);
  await appendFile(path, good.subarray(0, 40));
  const b = await rig(t, dir, { clock: a.clock });
  t.equal(history(b.recorder, 'sensor.temp', START, START + DAY).length, 10, 'a torn seal at the end is cut off');
  t.equal((await stat(path)).size, good.length);
  t.ok(
    (await readdir(join(dir, 'recorder'))).some((n) => n.startsWith('2026-03-10.seg.corrupt-')),
    'after a copy was kept',
  );
  await b.recorder.stop();
  // A flipped bit in the first seal's index (the blob before it is skipped by its length).
  const broken = Buffer.from(good);
  const index = 16 + good.readUInt32LE(4);
  const indexBytes = 16 + good.readUInt32LE(index + 4);
  const at = index + 16 + 5;
  broken[at] = (broken[at] ?? 0) ^ 0xff;
  await writeFile(path, broken);
  const log = new RecordingLogger();
  const c = await rig(t, dir, { clock: a.clock, log });
  t.equal(history(c.recorder, 'sensor.temp', START, START + DAY).length, 10, "the first seal's chunks are read from its blob");
  t.same(
    log.lines.filter((l) => l.level === 'error').map((l) => l.msg),
    [
      `history file 2026-03-10.seg: a damaged record (${indexBytes} bytes at byte ${index}) skipped; 2 chunks read from blobs whose index was lost; the rest of the file is read`,
    ],
  );
  c.core.states.set('sensor.temp', '1.0');
  t.equal(history(c.recorder, 'sensor.temp', START, c.clock.now() + 1).length, 11, 'and records on');
});

t.test('a full disk: history is served from memory, the error logged once, the writes retried', async (t) => {
  const dir = await tempDir(t);
  const capacity = { bytes: 0 };
  const log = new RecordingLogger();
  const disk = fullDisk(capacity).openJournal as OpenAppendFile;
  const r = await rig(t, dir, { openJournal: disk, openDayFile: disk, log });
  feed(r, 10);
  await r.recorder.commit();
  r.clock.advance(HOUR);
  await r.recorder.tick();
  feed(r, 10);
  await r.recorder.commit();
  t.ok(r.recorder.stats.failedWrites >= 2, 'writes failed');
  t.equal(history(r.recorder, 'sensor.temp', START, r.clock.now()).length, 20, 'served from memory');
  t.equal(log.lines.filter((l) => l.level === 'error').length, 1, 'logged once');
  capacity.bytes = 10_000_000;
  await r.recorder.commit();
  t.ok(
    log.lines.some((l) => l.level === 'info' && /is written again/.test(l.msg)),
    'recovery logged',
  );
  await r.recorder.stop();
  const again = await rig(t, dir, { clock: r.clock });
  t.equal(history(again.recorder, 'sensor.temp', START, r.clock.now()).length, 20, 'everything reached the disk afterwards');
});
