import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import type { JsonObject } from '../../src/core/json.js';
import { DEFAULT_RECORDER_CONFIG } from '../../src/recorder/config.js';
import { DEFAULT_MEMORY_BUDGET_BYTES, Recorder, type RecorderOptions } from '../../src/recorder/recorder.js';
import type { OpenAppendFile } from '../../src/storage/journal.js';
import { fullDisk } from '../fakes/full-disk.js';
import { RecordingLogger } from '../fakes/recording-logger.js';
import type { Teardown } from '../helpers/hub.js';

const START = Date.UTC(2026, 2, 10, 10, 0, 0) * 1000;
const S = 1_000_000;
const HOUR = 3600 * S;

async function rig(t: Teardown, opts: Partial<RecorderOptions> = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-budget-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const clock = new ManualClock(START);
  const log = new RecordingLogger();
  const core = new Core({ log, clock });
  const recorder = new Recorder({ core, dataDir: dir, log, config: DEFAULT_RECORDER_CONFIG, timers: false, ...opts });
  await recorder.start();
  t.teardown(() => recorder.stop());
  return { core, clock, log, recorder };
}

/** Attributes of about `chars` characters that no other state shares (nothing to deduplicate or compress away). */
function uniqueAttributes(chars: number): JsonObject {
  return { friendly_name: 'Big', payload: randomBytes(chars / 2).toString('hex') };
}

function states(r: Recorder, id: string): { s: string; a: string }[] {
  const out: { s: string; a: string }[] = [];
  r.forEachState(id, 0, START + 2 * HOUR, false, (s, a) => out.push({ s, a }));
  return out;
}

function disk(log: RecordingLogger): string[] {
  return log.lines.filter((l) => /disk/i.test(l.msg)).map((l) => l.msg);
}

t.test('states with large unique attributes past the budget: sealed early, every change kept, no disk blamed', async (t) => {
  const { core, clock, log, recorder } = await rig(t);
  const BIG = 440; // 440 x 20 KB: more than the 8 MB budget
  const attrs = new Map<string, string>();
  let most = 0;
  for (let i = 0; i < BIG; i++) {
    const id = `sensor.big_${i}`;
    core.states.set(id, String(i), uniqueAttributes(20_000));
    attrs.set(id, core.states.get(id)?.attributesJson ?? '');
    clock.advance(10_000);
    // The pace of a client sending one request after another: the recorder's writes keep up.
    await recorder.settled();
    most = Math.max(most, recorder.memoryBytes());
  }
  t.ok(most <= DEFAULT_MEMORY_BUDGET_BYTES, `at most ${most} bytes held`);
  // One entity whose single state's attributes are more than one entity's share of the budget.
  for (let i = 0; i < 3; i++) {
    core.states.set('sensor.huge', String(i), uniqueAttributes(600_000));
    clock.advance(10_000);
    await recorder.settled();
  }
  // Then ordinary changes of every entity.
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < BIG; i++) {
      // The same attributes again: after an early seal they are new to the hot tier.
      core.states.set(`sensor.big_${i}`, `${round}-${i}`, JSON.parse(attrs.get(`sensor.big_${i}`) ?? '{}') as JsonObject);
      if (i < 20) core.states.set(`sensor.small_${i}`, String(round), { unit_of_measurement: 'W' });
      await recorder.settled();
    }
    clock.advance(60 * S);
  }
  t.ok(recorder.stats.seals >= 2, `sealed early ${recorder.stats.seals} times within the hour`);
  t.equal(recorder.stats.droppedPoints, 0, 'nothing dropped');
  let missing = 0;
  for (let i = 0; i < BIG; i++) {
    const id = `sensor.big_${i}`;
    const got = states(recorder, id);
    const want = [String(i), `0-${i}`, `1-${i}`, `2-${i}`];
    if (got.map((p) => p.s).join() !== want.join() || got.some((p) => p.a !== attrs.get(id))) missing++;
  }
  t.equal(missing, 0, 'every change of every large entity, with its attributes');
  for (let i = 0; i < 20; i++) t.equal(states(recorder, `sensor.small_${i}`).length, 3, `sensor.small_${i}`);
  t.same(
    states(recorder, 'sensor.huge'),
    ['0', '1', '2'].map((s) => ({ s, a: '{}' })),
    'the entity over its share: every state, without its attributes',
  );
  const warnings = log.lines.filter((l) => l.level === 'warn' || l.level === 'error');
  t.equal(warnings.length, 1, 'one warning in all');
  t.match(warnings[0]?.msg, /sensor\.huge/, 'naming the offending entity');
  t.same(disk(log), [], 'no line blames the disk');
});

t.test('a burst faster than the disk: states kept without their new attributes, the true cause logged once', async (t) => {
  const { core, log, recorder } = await rig(t);
  // 12 MB of new attributes in one turn of the event loop: no write can finish in between.
  for (let i = 0; i < 600; i++) core.states.set(`sensor.burst_${i}`, String(i), uniqueAttributes(20_000));
  t.ok(recorder.memoryBytes() <= DEFAULT_MEMORY_BUDGET_BYTES * 1.25, `${recorder.memoryBytes()} bytes held`);
  await recorder.settled();
  let kept = 0;
  let bare = 0;
  for (let i = 0; i < 600; i++) {
    const got = states(recorder, `sensor.burst_${i}`);
    if (got.length === 1 && got[0]?.s === String(i)) kept++;
    if (got[0]?.a === '{}') bare++;
  }
  t.equal(kept, 600, 'every state');
  t.ok(bare > 0 && bare < 600, `${bare} recorded without their attributes`);
  t.equal(recorder.stats.droppedPoints, 0);
  const lines = log.lines.filter((l) => l.level === 'warn' || l.level === 'error');
  t.equal(lines.length, 1, 'logged once');
  t.match(lines[0]?.msg, /faster than they are written/);
  t.same(disk(log), [], 'no line blames the disk');
  // Once the writes caught up, attributes are kept again.
  core.states.set('sensor.burst_0', 'after', uniqueAttributes(20_000));
  t.not(states(recorder, 'sensor.burst_0').at(-1)?.a, '{}');
});

t.test('a disk that refuses writes: the budget fills, and the log says the disk is the cause', async (t) => {
  const capacity = { bytes: 0 };
  const full = fullDisk(capacity).openJournal as OpenAppendFile;
  const { core, log, recorder } = await rig(t, { openJournal: full, openDayFile: full, memoryBudgetBytes: 256 * 1024 });
  for (let i = 0; i < 200; i++) {
    core.states.set(`sensor.d${i % 10}`, String(i), uniqueAttributes(4_000));
    await recorder.settled();
  }
  t.ok(recorder.memoryBytes() <= 256 * 1024 * 1.25, `${recorder.memoryBytes()} bytes held`);
  t.ok(recorder.stats.failedWrites > 0);
  t.ok(
    log.lines.some((l) => l.level === 'error' && /ENOSPC/.test(l.msg)),
    'the write error',
  );
  t.ok(
    log.lines.some((l) => /disk refuses writes/.test(l.msg)),
    'the budget line names the disk',
  );
});
