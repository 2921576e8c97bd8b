import { closeSync, constants, fdatasyncSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import { DEFAULT_RECORDER_CONFIG } from '../../src/recorder/config.js';
import { Recorder, type RecorderOptions } from '../../src/recorder/recorder.js';
import type { OpenAppendFile } from '../../src/storage/journal.js';
import { RecordingLogger } from '../fakes/recording-logger.js';

const MIN = 60_000_000;
const HOUR = 60 * MIN;
const DAY0 = Date.UTC(2026, 2, 10) * 1000;
const DAY1 = DAY0 + 24 * HOUR;
/** Series of the day: its compaction merges one per turn of the event loop. */
const ENTITIES = 5;
const PER_HOUR = 10;

/**
 * A disk whose day-file appends wait until the test lets them go, then complete at once (synchronous writes):
 * a seal's whole write then lands between two turns of the loop, wherever the test puts it.
 */
function heldDisk() {
  let requested = () => {};
  const appendRequested = new Promise<void>((resolve) => {
    requested = resolve;
  });
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const open: OpenAppendFile = async (path) => {
    const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, 0o600);
    return {
      async append(data) {
        requested();
        await released;
        writeSync(fd, data);
        fdatasyncSync(fd);
      },
      async truncate(length) {
        ftruncateSync(fd, length);
        fdatasyncSync(fd);
      },
      async close() {
        closeSync(fd);
      },
    };
  };
  return { open, appendRequested, release };
}

async function open(dir: string, clock: ManualClock, opts: Partial<RecorderOptions> = {}) {
  const log = new RecordingLogger();
  const core = new Core({ log, clock });
  const recorder = new Recorder({ core, dataDir: dir, log, config: DEFAULT_RECORDER_CONFIG, timers: false, ...opts });
  await recorder.start();
  return { core, recorder, log };
}

const rows = (r: Recorder, id: string) => r.forEachState(id, DAY0, DAY1 + HOUR, false, () => {});
const problems = (log: RecordingLogger) => log.lines.filter((l) => l.level === 'warn' || l.level === 'error').map((l) => l.msg);

t.test("a seal written while its day's compaction merges: every point stays, before and after a restart", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-compaction-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const clock = new ManualClock(DAY0 + 22 * HOUR);
  {
    // Hour 22 sealed into the day's file; hour 23 only in the journal when the hub stops.
    const { core, recorder } = await open(dir, clock);
    for (const hour of [22, 23]) {
      clock.advance(DAY0 + hour * HOUR - clock.now());
      await recorder.tick();
      for (let i = 0; i < PER_HOUR; i++) {
        for (let e = 0; e < ENTITIES; e++) core.states.set(`sensor.s${e}`, `${hour}.${i}`);
        clock.advance(MIN);
      }
    }
    await recorder.stop();
    t.equal(recorder.stats.seals, 1, 'hour 22 sealed, hour 23 in the journal');
  }

  // Back within hour 23, so that nothing is sealed or compacted at start; then midnight passes.
  clock.advance(DAY0 + 24 * HOUR - 1_000_000 - clock.now());
  const disk = heldDisk();
  const { recorder, log } = await open(dir, clock, { openDayFile: disk.open });
  t.teardown(() => recorder.stop());
  await recorder.housekeeping();
  t.equal(recorder.stats.compactions, 0, 'the day is not over yet');
  clock.advance(2_000_000);

  // The seal of hour 23 into the finished day, held at the disk; the day's compaction starts merging.
  const sealed = recorder.tick();
  await disk.appendRequested;
  let compactionDone = false;
  const compacted = recorder.housekeeping().then(() => {
    compactionDone = true;
  });
  // One turn later the compaction has merged its first series, not the others: the seal lands in between.
  await new Promise((resolve) => setImmediate(resolve));
  disk.release();
  await sealed;
  t.notOk(compactionDone, 'the seal was written while the compaction merged');
  await compacted;
  await recorder.housekeeping();

  for (let e = 0; e < ENTITIES; e++) t.equal(rows(recorder, `sensor.s${e}`), 2 * PER_HOUR, `sensor.s${e}: both hours`);
  t.ok(recorder.stats.compactions >= 1, 'the day was compacted once the seal was in it');
  await recorder.stop();

  const again = await open(dir, clock);
  t.teardown(() => again.recorder.stop());
  await again.recorder.housekeeping();
  for (let e = 0; e < ENTITIES; e++)
    t.equal(rows(again.recorder, `sensor.s${e}`), 2 * PER_HOUR, `sensor.s${e}: both hours after a restart`);
  t.same([...problems(log), ...problems(again.log)], [], 'nothing logged as damaged or lost');
});
