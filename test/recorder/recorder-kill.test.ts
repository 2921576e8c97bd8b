import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { DEFAULT_RECORDER_CONFIG } from '../../src/recorder/config.js';
import { Recorder } from '../../src/recorder/recorder.js';
import { packageRoot } from '../../src/util/paths.js';
import { withoutCoverage } from '../helpers/child-env.js';

const CYCLES = 12;
const CYCLE_DEADLINE_MS = 30_000;

/** Starts the child, kills it with SIGKILL after `commits` commits; resolves with what it loaded and what it had on disk. */
function cycle(dataDir: string, commits: number): Promise<{ loaded: number; written: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/recorder/recorder-child.ts', dataDir], {
    cwd: packageRoot(),
    env: withoutCoverage(process.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  return new Promise((resolve, reject) => {
    const result = { loaded: Number.NaN, written: -1 };
    let seen = 0;
    let buffered = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no ${commits} commits within ${CYCLE_DEADLINE_MS} ms; stderr: ${stderr}`));
    }, CYCLE_DEADLINE_MS);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      buffered += d;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const [kind, value] = line.split(' ');
        if (kind === 'loaded') result.loaded = Number(value);
        if (kind === 'w' && child.exitCode === null && !child.killed) {
          result.written = Number(value);
          // Killed right after a commit returned, while the next changes and commit are under way.
          if (++seen >= commits) child.kill('SIGKILL');
        }
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(result);
    });
  });
}

t.test('kill -9 during commits, seals and compactions: nothing committed is lost, no file is torn, no value twice', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-recorder-kill-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  let written = -1;
  for (let i = 0; i < CYCLES; i++) {
    // Different kill points: after 3 to 60 commits, so kills land in commits, hourly seals and day compactions.
    const r = await cycle(dir, 3 + ((i * 17) % 58));
    t.ok(r.loaded >= written, `cycle ${i}: loaded ${r.loaded}, at least the ${written} committed before the kill`);
    written = r.written;
  }
  const core = new Core({ log: silentLogger, clock: new ManualClock(Date.UTC(2027, 0, 1) * 1000) });
  const recorder = new Recorder({
    core,
    dataDir: dir,
    log: silentLogger,
    config: { ...DEFAULT_RECORDER_CONFIG, purgeKeepDays: 3650 },
    timers: false,
  });
  await recorder.start();
  t.teardown(() => recorder.stop());
  const values: number[] = [];
  recorder.forEachState('sensor.k', 0, Number.MAX_SAFE_INTEGER, false, (s) => values.push(Number(s)));
  t.ok(values.length > written, `${values.length} values kept, the last committed was ${written}`);
  t.same(
    values.findIndex((v, i) => v !== i),
    -1,
    'every value once, in order, from 0',
  );
  const names = await readdir(join(dir, 'recorder'));
  t.notOk(
    names.some((n) => n.includes('corrupt')),
    `no file moved aside (${names.join(', ')})`,
  );
});
