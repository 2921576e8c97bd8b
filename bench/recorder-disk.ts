/**
 * The recorder's disk writes and memory (issue 13): `write_bytes` of /proc/<pid>/io (whole pages, as the
 * SD card sees them) for 100 entities changing 10 times a second in total, recorder and restore state on,
 * against the same load written the straightforward way (SQLite through Debian's `sqlite3`: one row per
 * change in a states table with its (entity_id, last_updated) index, one transaction every 5 s, WAL and
 * synchronous=NORMAL as Home Assistant runs it).
 *
 * Each case runs in its own child process over a SIMULATED hour on a manual clock: restore state's windows (60 s for a
 * device's own report, 5 s for a service call's change) and the commit interval (60 s) fire as their timers would, every write is fdatasync'd as in the hub, so
 * the page count is what an hour costs. The load: 80 numeric sensors (a random walk, one decimal) and 20
 * switches, one change every 100 ms to a random one of them. Then a simulated day of the 80 sensors alone
 * gives the bytes a numeric change costs on disk once its day is compacted.
 * Prints markdown; writes bench/out/recorder-disk.json.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '../drivers/virtual/index.js';
import { ManualClock } from '../src/core/clock.js';
import { createContext } from '../src/core/context.js';
import { Core } from '../src/core/core.js';
import { silentLogger } from '../src/core/log.js';
import { DEFAULT_RECORDER_CONFIG } from '../src/recorder/config.js';
import { Recorder } from '../src/recorder/recorder.js';
import { DEFAULT_REPORT_WINDOW_MS, RestoreState } from '../src/restore/restore-state.js';
import { BENCH, fmt, measuredEnv, PI_NODE_ARGS, UNIT_ENV } from './procs.js';

const SENSORS = 80;
const SWITCHES = 20;
const TICK_MS = 100;
const HOUR_S = 3600;
const RESTORE_WINDOW_S = 5;
const REPORT_WINDOW_S = DEFAULT_REPORT_WINDOW_MS / 1000;
const COMMIT_S = DEFAULT_RECORDER_CONFIG.commitIntervalS;
const T0 = Date.UTC(2026, 2, 10, 0, 0, 0) * 1000;

function ioWriteBytes(pid: number | 'self'): number {
  const m = /^write_bytes: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
  return Number(m?.[1] ?? 0);
}

interface HourResult {
  readonly writeBytes: number;
  readonly rssMb: number;
  readonly recorderBytes: number;
  readonly changes: number;
}

/** One simulated hour of the load in this process, with the recorder on or off. */
/**
 * `asked`: every switch toggle is a service call's (a user or an automation), written within restore's 5 s
 * window; otherwise the switches follow their devices (a report nobody asked for), written within 60 s.
 */
async function hour(recorderOn: boolean, asked = false): Promise<HourResult> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-recorder-bench-'));
  const clock = new ManualClock(T0);
  const core = new Core({ log: silentLogger, clock, maxEntities: 256 });
  const restore = new RestoreState({
    core,
    dataDir: dir,
    log: silentLogger,
    flushWindowS: RESTORE_WINDOW_S,
    reportWindowS: REPORT_WINDOW_S,
    timers: false,
  });
  const recorder = recorderOn
    ? new Recorder({ core, dataDir: dir, log: silentLogger, config: DEFAULT_RECORDER_CONFIG, timers: false })
    : undefined;
  await restore.start();
  await recorder?.start();
  const sensors = Array.from({ length: SENSORS }, (_, i) =>
    core.entities.add({
      entityId: `sensor.t${i}`,
      owner: 'bench',
      platform: {},
      name: `T${i}`,
      fixed: { unit_of_measurement: '°C', state_class: 'measurement', device_class: 'temperature' },
    }),
  );
  const switches = Array.from({ length: SWITCHES }, (_, i) =>
    core.entities.add({ entityId: `switch.s${i}`, owner: 'bench', platform: {}, name: `S${i}` }),
  );
  const values = sensors.map((_, i) => 200 + i);
  const on = switches.map(() => false);
  for (const [i, s] of sensors.entries()) s.report(((values[i] as number) / 10).toFixed(1));
  for (const s of switches) s.report('off');
  await restore.flush();
  await recorder?.commit();
  const random = seededRandom(7);
  const before = ioWriteBytes('self');
  let changes = 0;
  const ticks = (HOUR_S * 1000) / TICK_MS;
  for (let tick = 1; tick <= ticks; tick++) {
    clock.advance(TICK_MS * 1000);
    const pick = Math.floor(random() * (SENSORS + SWITCHES));
    if (pick < SENSORS) {
      values[pick] = (values[pick] as number) + (random() < 0.5 ? -1 : 1) * Math.ceil(random() * 2);
      sensors[pick]?.report(((values[pick] as number) / 10).toFixed(1));
    } else {
      const i = pick - SENSORS;
      on[i] = !on[i];
      // What the service layer does before a call's write (src/core/services.ts).
      if (asked) switches[i]?.useContext(createContext(clock.now()));
      switches[i]?.report(on[i] ? 'on' : 'off');
    }
    changes++;
    const ms = tick * TICK_MS;
    await restore.flushIfDue();
    if (recorder !== undefined && ms % (COMMIT_S * 1000) === 0) await recorder.tick();
  }
  const writeBytes = ioWriteBytes('self') - before;
  // What stays resident, not garbage that a collection would free: the children run with --expose-gc.
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  const result = {
    writeBytes,
    rssMb: process.memoryUsage().rss / 2 ** 20,
    recorderBytes: recorder?.memoryBytes() ?? 0,
    changes,
  };
  await recorder?.stop();
  await restore.stop();
  await rm(dir, { recursive: true, force: true });
  return result;
}

/** Bytes on disk per numeric change after a simulated day of the 80 sensors, once the day is compacted. */
async function day(): Promise<{ bytes: number; points: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-recorder-day-'));
  const clock = new ManualClock(T0);
  const core = new Core({ log: silentLogger, clock, maxEntities: 256 });
  const recorder = new Recorder({ core, dataDir: dir, log: silentLogger, config: DEFAULT_RECORDER_CONFIG, timers: false });
  await recorder.start();
  const attrs = { unit_of_measurement: '°C', state_class: 'measurement', device_class: 'temperature' };
  const values = Array.from({ length: SENSORS }, (_, i) => 200 + i);
  const random = seededRandom(11);
  let points = 0;
  const period = Math.round((TICK_MS * (SENSORS + SWITCHES)) / SENSORS);
  for (let ms = 0; ms < 24 * HOUR_S * 1000; ms += period) {
    clock.advance(period * 1000);
    const i = Math.floor(random() * SENSORS);
    values[i] = (values[i] as number) + (random() < 0.5 ? -1 : 1) * Math.ceil(random() * 2);
    core.states.set(`sensor.t${i}`, ((values[i] as number) / 10).toFixed(1), attrs);
    points++;
    if (ms % (COMMIT_S * 1000) === 0) await recorder.tick();
  }
  clock.advance(HOUR_S * 1_000_000);
  await recorder.tick();
  await recorder.housekeeping();
  const file = join(dir, 'recorder', '2026-03-10.seg');
  const bytes = (await stat(file)).size;
  await recorder.stop();
  await rm(dir, { recursive: true, force: true });
  return { bytes, points };
}

/** The same hour through sqlite3: one row per change with its index, a transaction every 5 s. */
async function sqliteHour(): Promise<{ writeBytes: number; dbBytes: number } | undefined> {
  if (spawnSync('sqlite3', ['-version']).status !== 0) return undefined;
  const dir = await mkdtemp(join(tmpdir(), 'hearth-sqlite-bench-'));
  const db = join(dir, 'home-assistant_v2.db');
  const child = spawn('sqlite3', [db], { stdio: ['pipe', 'pipe', 'inherit'] });
  const write = (s: string) =>
    new Promise<void>((resolve) => (child.stdin.write(s) ? resolve() : child.stdin.once('drain', () => resolve())));
  await write(
    'PRAGMA journal_mode=WAL;\nPRAGMA synchronous=NORMAL;\nCREATE TABLE states(state_id INTEGER PRIMARY KEY, entity_id TEXT, state TEXT, attributes_id INTEGER, last_updated_ts REAL, last_changed_ts REAL, context_id BLOB);\nCREATE INDEX ix_states_entity_id_last_updated_ts ON states(entity_id, last_updated_ts);\n',
  );
  const random = seededRandom(7);
  const values = Array.from({ length: SENSORS }, (_, i) => 200 + i);
  const on = Array.from({ length: SWITCHES }, () => false);
  const ticks = (HOUR_S * 1000) / TICK_MS;
  const perCommit = (RESTORE_WINDOW_S * 1000) / TICK_MS;
  let batch = 'BEGIN;\n';
  const waitFor = (text: string) =>
    new Promise<void>((resolve) => {
      let seen = '';
      const onData = (d: Buffer) => {
        seen += d.toString();
        if (seen.includes(text)) {
          child.stdout.off('data', onData);
          resolve();
        }
      };
      child.stdout.on('data', onData);
    });
  const started = waitFor('ready');
  await write('.print ready\n');
  await started;
  const before = ioWriteBytes(child.pid as number);
  for (let tick = 1; tick <= ticks; tick++) {
    const t = T0 / 1e6 + tick / 10;
    const pick = Math.floor(random() * (SENSORS + SWITCHES));
    let id: string;
    let state: string;
    if (pick < SENSORS) {
      values[pick] = (values[pick] as number) + (random() < 0.5 ? -1 : 1) * Math.ceil(random() * 2);
      id = `sensor.t${pick}`;
      state = ((values[pick] as number) / 10).toFixed(1);
    } else {
      on[pick - SENSORS] = !on[pick - SENSORS];
      id = `switch.s${pick - SENSORS}`;
      state = on[pick - SENSORS] ? 'on' : 'off';
    }
    batch += `INSERT INTO states(entity_id,state,attributes_id,last_updated_ts,last_changed_ts,context_id) VALUES('${id}','${state}',${pick},${t},${t},randomblob(16));\n`;
    if (tick % perCommit === 0) {
      await write(`${batch}COMMIT;\n`);
      batch = 'BEGIN;\n';
    }
  }
  const done = waitFor('done');
  await write('.print done\n');
  await done;
  const writeBytes = ioWriteBytes(child.pid as number) - before;
  child.stdin.end();
  await new Promise((resolve) => child.once('exit', resolve));
  let dbBytes = 0;
  for (const name of await readdir(dir)) dbBytes += (await stat(join(dir, name))).size;
  await rm(dir, { recursive: true, force: true });
  return { writeBytes, dbBytes };
}

function runChild(mode: string): HourResult {
  // The Node flags and glibc allocator settings the unit runs the hub with, and a collection before the reading
  // (see hour()). Without the allocator settings, glibc's dynamic mmap threshold puts zlib's buffers (a seal's
  // deflate) in the main heap after the first one, and the reading varied from 1 to 8 MB with its fragmentation.
  const r = spawnSync(process.execPath, [...PI_NODE_ARGS, '--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), mode], {
    encoding: 'utf8',
    timeout: 5 * 60_000,
    env: measuredEnv(UNIT_ENV),
  });
  if (r.status !== 0) throw new Error(`${mode} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1) as string) as HourResult;
}

const mode = process.argv[2];
if (mode === 'on' || mode === 'off' || mode === 'asked') {
  console.log(JSON.stringify(await hour(mode !== 'off', mode === 'asked')));
  process.exit(0);
}
if (mode === 'day') {
  console.log(JSON.stringify(await day()));
  process.exit(0);
}

const on = runChild('on');
const off = runChild('off');
const asked = runChild('asked');
const sqlite = await sqliteHour();
const dayResult = JSON.parse(
  (
    spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'day'], { encoding: 'utf8', timeout: 5 * 60_000 })
      .stdout ?? '{}'
  )
    .trim()
    .split('\n')
    .at(-1) ?? '{}',
) as { bytes: number; points: number };
const mb = (b: number) => b / 2 ** 20;
const perChange = dayResult.bytes / dayResult.points;
const rssAdded = on.rssMb - off.rssMb;
const targets = [
  {
    target: 'recorder + restore state <= 1 MB per hour (100 entities, 10 changes/s)',
    text: `${fmt(mb(on.writeBytes), 2)} MB (restore state ${fmt(mb(off.writeBytes), 2)} MB, the recorder ${fmt(mb(on.writeBytes - off.writeBytes), 2)} MB); ${fmt(mb(asked.writeBytes), 2)} MB if every switch toggle were a service call's`,
    met: mb(on.writeBytes) <= 1,
  },
  { target: '<= 3 bytes on disk per numeric change after a day', text: `${fmt(perChange, 2)} B`, met: perChange <= 3 },
  {
    target: 'the recorder adds <= 8 MB of resident memory at that load',
    text: `${fmt(rssAdded, 1)} MB (its buffers: ${fmt(on.recorderBytes / 1024, 0)} KB)`,
    met: rssAdded <= 8,
  },
];
const rows = [
  '| case | write_bytes in the hour | per change | vs hearth |',
  '|---|---:|---:|---:|',
  `| hearth: recorder (commit ${COMMIT_S} s) + restore state (devices' reports: ${REPORT_WINDOW_S} s window) | ${fmt(mb(on.writeBytes), 2)} MB | ${fmt(on.writeBytes / on.changes, 1)} B | 1.00x |`,
  `| hearth: restore state only (recorder off) | ${fmt(mb(off.writeBytes), 2)} MB | ${fmt(off.writeBytes / off.changes, 1)} B | ${fmt(off.writeBytes / on.writeBytes, 2)}x |`,
  `| hearth: the recorder's own share (the two rows above) | ${fmt(mb(on.writeBytes - off.writeBytes), 2)} MB | ${fmt((on.writeBytes - off.writeBytes) / on.changes, 1)} B | ${fmt((on.writeBytes - off.writeBytes) / on.writeBytes, 2)}x |`,
  `| hearth: the same, every switch toggle a service call's (${RESTORE_WINDOW_S} s window) | ${fmt(mb(asked.writeBytes), 2)} MB | ${fmt(asked.writeBytes / asked.changes, 1)} B | ${fmt(asked.writeBytes / on.writeBytes, 2)}x |`,
  sqlite === undefined
    ? '| baseline: sqlite3 not installed (apt-get install sqlite3) | | | |'
    : `| baseline: SQLite, a row per change + index, commit every 5 s (WAL, synchronous=NORMAL) | ${fmt(mb(sqlite.writeBytes), 2)} MB | ${fmt(sqlite.writeBytes / on.changes, 1)} B | ${fmt(sqlite.writeBytes / on.writeBytes, 1)}x |`,
];
const lines = [
  `A simulated hour: ${SENSORS} numeric sensors and ${SWITCHES} switches, one change every ${TICK_MS} ms (${on.changes.toLocaleString('en')} changes). Restore state writes a device's own reports within ${REPORT_WINDOW_S} s and what a service call set within ${RESTORE_WINDOW_S} s, the recorder commits every ${COMMIT_S} s and seals the hour; each write is fdatasync'd, so every flush dirties at least one 4 KB page.`,
  '',
  ...rows,
  '',
  `On disk after a simulated day of the ${SENSORS} sensors (${dayResult.points.toLocaleString('en')} changes), the compacted day file: ${fmt(dayResult.bytes / 1024, 0)} KB, ${fmt(perChange, 2)} bytes a change${sqlite === undefined ? '' : `; the SQLite baseline's files after its hour alone: ${fmt(mb(sqlite.dbBytes), 1)} MB`}.`,
  `Resident memory at the end of the hour, after a collection, with the unit's Node flags and allocator settings: ${fmt(on.rssMb, 1)} MB with the recorder, ${fmt(off.rssMb, 1)} MB without.`,
  '',
  ...targets.map((t) => `- ${t.target}: ${t.text} (${t.met ? 'met' : 'missed'})`),
];
console.log(lines.join('\n'));
writeFileSync(
  join(BENCH, 'out', 'recorder-disk.json'),
  `${JSON.stringify({ benchmark: 'recorder-disk', on, off, sqlite, day: dayResult, targets }, null, 2)}\n`,
);
