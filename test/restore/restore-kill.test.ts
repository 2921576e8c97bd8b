import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { decodeRecords } from '../../src/storage/journal.js';
import { packageRoot } from '../../src/util/paths.js';
import { withoutCoverage } from '../helpers/child-env.js';

/**
 * kill -9 at random moments of a burst of changes, then restart on the same data dir: no file is torn and
 * no change older than the flush window is lost. Every fifth cycle runs on a nearly full disk (injected
 * ENOSPC: appends that do not fit write part of the record, then fail).
 */
const KILLS = 50;
const CHILD_ENTITIES = 20;
const CHILD_FLUSH_WINDOW_S = 0.05;
/** Beyond the flush window, for fsync on a busy CI machine and the pipe's delay in reporting a change. */
const SLACK_MS = 2000;
const CYCLE_DEADLINE_MS = 20_000;
const CHANGES_PER_CYCLE_MAX = 30_000;

interface Cycle {
  /** What the restarted child loaded: entity -> change number. */
  loaded: Record<string, number | null>;
  /** Changes up to this number were made, as seen by the parent, with the time it saw each line. */
  made: { n: number; at: number }[];
  /** Highest change number a completed write carried, and the oldest change's age when it completed. */
  written: number;
  maxAgeMs: number;
  killedAt: number;
  /** When the child printed what it loaded: the burst starts then. */
  burstAt: number;
}

function runCycle(dataDir: string, first: number, killAfter: number | null, diskBytes: number | null): Promise<Cycle> {
  const args = [
    '--import',
    'tsx',
    'test/restore/restore-child.ts',
    dataDir,
    String(first),
    String(CHILD_ENTITIES),
    String(CHILD_FLUSH_WINDOW_S),
  ];
  if (diskBytes !== null) args.push(String(diskBytes));
  const child = spawn(process.execPath, args, { cwd: packageRoot(), env: withoutCoverage(process.env), stdio: ['ignore', 'pipe', 'pipe'] });
  const cycle: Cycle = { loaded: {}, made: [], written: -1, maxAgeMs: 0, killedAt: 0, burstAt: 0 };
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cycle did not finish within ${CYCLE_DEADLINE_MS} ms; stderr: ${stderr}`));
    }, CYCLE_DEADLINE_MS);
    let buffered = '';
    const kill = () => {
      if (cycle.killedAt !== 0) return;
      cycle.killedAt = Date.now();
      child.kill('SIGKILL');
    };
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      buffered += d;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (cycle.killedAt !== 0) return;
        const [kind, a, b] = line.split(' ');
        if (kind === 'loaded') {
          cycle.loaded = JSON.parse(line.slice('loaded '.length)) as Record<string, number | null>;
          cycle.burstAt = Date.now();
          if (killAfter === null) kill();
        } else if (kind === 'c') {
          const n = Number(a);
          cycle.made.push({ n, at: Date.now() });
          if (killAfter !== null && n - first >= killAfter) kill();
        } else if (kind === 'w') {
          cycle.written = Math.max(cycle.written, Number(a));
          cycle.maxAgeMs = Math.max(cycle.maxAgeMs, Number(b));
        }
      }
    });
    child.on('exit', () => {
      clearTimeout(timer);
      if (cycle.killedAt === 0) reject(new Error(`child exited before it was killed; stderr: ${stderr}`));
      else resolve(cycle);
    });
  });
}

/** The highest change of entity `e` at or below `n` (changes go round-robin), or null if none since `first`. */
function lastOf(e: number, n: number, first: number): number | null {
  if (n < first) return null;
  const k = n - ((((n - e) % CHILD_ENTITIES) + CHILD_ENTITIES) % CHILD_ENTITIES);
  return k >= first ? k : null;
}

// 51 child starts of some 0.5 s each on a busy 2-core machine: more than the suite's 60 s per file.
t.setTimeout(180_000);

t.test(`${KILLS} kill -9 at random offsets of a burst: no torn file, nothing older than the flush window lost`, async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-restore-kill-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const dir = join(dataDir, 'restore_state');
  const windowMs = CHILD_FLUSH_WINDOW_S * 1000;
  /** What must survive: per entity, the highest change that was durable (or old enough) at the kill. */
  const mustHave = new Array<number | null>(CHILD_ENTITIES).fill(null);
  const figures = {
    kills: 0,
    tornTails: 0,
    fullDiskCycles: 0,
    maxWriteAgeMs: 0,
    lostOlderThanWindow: 0,
    offsetsMs: new Set<number>(),
    /** Changes into the burst at which each kill was asked for. */
    killPoints: new Set<number>(),
    tempFilesLeft: 0,
  };
  const started = Date.now();

  for (let cycle = 0; cycle <= KILLS; cycle++) {
    const first = (cycle + 1) * 10_000_000;
    const last = cycle === KILLS;
    const fullDisk = cycle % 5 === 4;
    if (fullDisk) figures.fullDiskCycles++;
    // One random point in each of KILLS slices of the burst: every kill lands at a different offset by construction,
    // however fast the machine runs the burst (milliseconds alone collide on a quiet machine).
    const killAfter = last ? null : Math.floor(((cycle + Math.random()) * CHANGES_PER_CYCLE_MAX) / KILLS);
    const result = await runCycle(dataDir, first, killAfter, fullDisk ? 3000 : null);

    // The restart loaded every change that must have survived the previous kill.
    for (let e = 0; e < CHILD_ENTITIES; e++) {
      const got = result.loaded[`input_number.e${e}`] ?? null;
      const want = mustHave[e] ?? null;
      if (want !== null && (got === null || got < want)) {
        figures.lostOlderThanWindow++;
        t.fail(`cycle ${cycle}: input_number.e${e} restored ${got}, but change ${want} was durable or older than the window`);
      }
      if (got !== null && got % CHILD_ENTITIES !== e)
        t.fail(`cycle ${cycle}: input_number.e${e} restored ${got}, which is not one of its changes`);
    }
    if (last) break;
    figures.kills++;
    figures.offsetsMs.add(result.killedAt - result.burstAt);
    if (killAfter !== null) figures.killPoints.add(killAfter);
    figures.maxWriteAgeMs = Math.max(figures.maxWriteAgeMs, result.maxAgeMs);

    // No file is torn: the snapshot is whole JSON, the journal at most has a torn last record, no temp file is read.
    const names = await readdir(dir);
    if (names.some((name) => name.endsWith('.tmp'))) figures.tempFilesLeft++;
    if (names.includes('snapshot.json')) JSON.parse(await readFile(join(dir, 'snapshot.json'), 'utf8'));
    const journal = await readFile(join(dir, 'journal')).catch(() => Buffer.alloc(0));
    if (decodeRecords(journal).goodBytes < journal.length) figures.tornTails++;

    // Durable: every change up to the last completed write; and every change the parent saw made more than
    // the window (plus slack) before the kill, on a disk with room.
    let durable = result.written;
    if (!fullDisk) {
      for (const { n, at } of result.made) if (at <= result.killedAt - windowMs - SLACK_MS) durable = Math.max(durable, n);
    }
    for (let e = 0; e < CHILD_ENTITIES; e++) {
      const k = lastOf(e, durable, first);
      if (k !== null) mustHave[e] = k;
    }
  }
  t.equal(figures.kills, KILLS);
  t.equal(figures.lostOlderThanWindow, 0);
  t.ok(figures.maxWriteAgeMs <= windowMs + SLACK_MS, `a change waits at most the window plus fsync (${figures.maxWriteAgeMs} ms)`);
  t.equal(figures.killPoints.size, KILLS, 'every kill at a different offset of the burst');
  const size = (await stat(join(dir, 'journal'))).size;
  t.comment(
    `kills ${figures.kills} (${figures.fullDiskCycles} on a full disk), torn journal tails ${figures.tornTails}, ` +
      `snapshot temp files left by a kill ${figures.tempFilesLeft}, ` +
      `max age of a change when written ${figures.maxWriteAgeMs} ms (window ${windowMs} ms), lost ${figures.lostOlderThanWindow}, ` +
      `kill offsets ${Math.min(...figures.offsetsMs)}-${Math.max(...figures.offsetsMs)} ms, journal ${size} B, total ${Date.now() - started} ms`,
  );
});
