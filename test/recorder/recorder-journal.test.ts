import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { DEFAULT_RECORDER_CONFIG } from '../../src/recorder/config.js';
import { Recorder, type RecorderOptions } from '../../src/recorder/recorder.js';
import type { OpenAppendFile } from '../../src/storage/journal.js';
import { fullDisk } from '../fakes/full-disk.js';
import { RecordingLogger } from '../fakes/recording-logger.js';
import type { Teardown } from '../helpers/hub.js';

/**
 * The recorder's write-ahead journal damaged on disk: zeros after its end (the file's size reached the disk, its
 * data did not), a zero-filled file, a flipped byte. History must start from what is whole, never read wrong,
 * and keep recording; a damaged journal is copied aside.
 */

const START = Date.UTC(2026, 2, 10, 10, 0, 0) * 1000;
const MIN = 60_000_000;
const DAY = 24 * 60 * MIN;

async function dataDir(t: Teardown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-recorder-journal-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

interface Rig {
  readonly core: Core;
  readonly recorder: Recorder;
}

async function rig(t: Teardown, dir: string, clock: ManualClock, opts: Partial<RecorderOptions> = {}): Promise<Rig> {
  const core = new Core({ log: silentLogger, clock });
  const recorder = new Recorder({ core, dataDir: dir, log: silentLogger, config: DEFAULT_RECORDER_CONFIG, timers: false, ...opts });
  await recorder.start();
  t.teardown(() => recorder.stop());
  return { core, recorder };
}

/** `n` readings a minute apart, from `from` (their states: from, from + 1, ...), committed as one journal record. */
async function commitReadings(r: Rig, clock: ManualClock, from: number, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    r.core.states.set('sensor.temp', String(from + i), { unit_of_measurement: '°C' });
    clock.advance(MIN);
  }
  await r.recorder.commit();
}

function states(r: Recorder): string[] {
  const out: string[] = [];
  r.forEachState('sensor.temp', START, START + DAY, false, (s) => out.push(s));
  return out;
}

const range = (from: number, n: number): string[] => Array.from({ length: n }, (_, i) => String(from + i));

async function copies(dir: string): Promise<string[]> {
  return (await readdir(join(dir, 'recorder'))).filter((n) => n.startsWith('wal.damaged-'));
}

t.test('zeros after the journal (a power cut extended it): history is read, not "could not be read" at every start', async (t) => {
  const dir = await dataDir(t);
  const clock = new ManualClock(START);
  const a = await rig(t, dir, clock);
  await commitReadings(a, clock, 100, 5);
  await commitReadings(a, clock, 200, 5);
  await a.recorder.stop();
  const wal = join(dir, 'recorder', 'wal');
  await appendFile(wal, Buffer.alloc(24));
  const log = new RecordingLogger();
  const b = await rig(t, dir, clock, { log });
  t.same(states(b.recorder), [...range(100, 5), ...range(200, 5)], 'every whole record is read');
  t.same(
    log.lines.filter((l) => l.level === 'error'),
    [],
    'no "history could not be read"',
  );
  t.equal((await copies(dir)).length, 1, 'the journal is copied aside before its tail is cut');
  await commitReadings(b, clock, 300, 5);
  await b.recorder.stop();
  const c = await rig(t, dir, clock, { log });
  t.same(states(c.recorder), [...range(100, 5), ...range(200, 5), ...range(300, 5)], 'and what came after, at the next start');
});

t.test('a zero-filled journal: detected, copied aside, and recording goes on from there', async (t) => {
  const dir = await dataDir(t);
  const clock = new ManualClock(START);
  const a = await rig(t, dir, clock);
  await commitReadings(a, clock, 100, 5);
  await a.recorder.stop();
  const wal = join(dir, 'recorder', 'wal');
  await writeFile(wal, Buffer.alloc((await readFile(wal)).length));
  const log = new RecordingLogger();
  const b = await rig(t, dir, clock, { log });
  t.same(states(b.recorder), [], 'nothing in it is history');
  t.same(
    log.lines.map((l) => l.level),
    ['warn'],
    'one warning',
  );
  t.match(log.lines[0]?.msg, `history journal ${wal}`);
  t.equal((await copies(dir)).length, 1);
  await commitReadings(b, clock, 300, 5);
  await b.recorder.stop();
  const c = await rig(t, dir, clock, { log });
  t.same(states(c.recorder), range(300, 5), 'recorded after it, read at the next start');
  t.equal(log.lines.length, 1, 'without another log line');
});

t.test('a flipped byte in a journal record: what is before it is read, nothing is read wrong, recording goes on', async (t) => {
  const dir = await dataDir(t);
  const clock = new ManualClock(START);
  const a = await rig(t, dir, clock);
  const wal = join(dir, 'recorder', 'wal');
  await commitReadings(a, clock, 100, 5);
  const before = (await readFile(wal)).length;
  await commitReadings(a, clock, 200, 5);
  await commitReadings(a, clock, 300, 5);
  await a.recorder.stop();
  const data = await readFile(wal);
  const at = before + 16;
  data[at] = (data[at] as number) ^ 0x10;
  await writeFile(wal, data);
  const log = new RecordingLogger();
  const b = await rig(t, dir, clock, { log });
  // The third record holds differences from the second's points: without the second, it cannot be read right.
  t.same(states(b.recorder), range(100, 5), 'the record before the damage; the hour after it is not guessed');
  t.equal((await copies(dir)).length, 1, 'the damaged journal is copied aside');
  const errors = log.lines.filter((l) => l.level === 'error');
  t.equal(errors.length, 1, 'one error');
  t.match(errors[0]?.msg, wal);
  t.match(errors[0]?.msg, 'skipped 1 damaged record(s)');
  t.match(errors[0]?.msg, 'and 1 record(s) after them that cannot be read without them');
  await commitReadings(b, clock, 400, 5);
  await b.recorder.stop();
  const c = await rig(t, dir, clock);
  t.same(states(c.recorder), [...range(100, 5), ...range(400, 5)]);
});

t.test('a damaged record costs the rest of its hour in the journal, not the hours after it', async (t) => {
  const dir = await dataDir(t);
  const clock = new ManualClock(START);
  // The day files refuse writes: the hour's seal fails, so the journal keeps that hour and goes on with the next.
  const a = await rig(t, dir, clock, { openDayFile: fullDisk({ bytes: 0 }).openJournal as OpenAppendFile });
  const wal = join(dir, 'recorder', 'wal');
  await commitReadings(a, clock, 100, 5);
  const before = (await readFile(wal)).length;
  await commitReadings(a, clock, 200, 5);
  await commitReadings(a, clock, 300, 5);
  clock.advance(60 * MIN);
  await a.recorder.tick();
  await commitReadings(a, clock, 400, 5);
  await a.recorder.stop();
  const data = await readFile(wal);
  const at = before + 16;
  data[at] = (data[at] as number) ^ 0x10;
  await writeFile(wal, data);
  const b = await rig(t, dir, clock);
  t.same(states(b.recorder), [...range(100, 5), ...range(400, 5)], 'the first hour up to the damage, and the next hour whole');
});
