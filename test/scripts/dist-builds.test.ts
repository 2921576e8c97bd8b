import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { newBuildDir, pruneBuilds, publish } from '../../scripts/dist-builds.mjs';
import { packageRoot } from '../../src/util/paths.js';
import { withoutCoverage } from '../helpers/child-env.js';

/**
 * A build next to a running hub: `npm run build` writes into a fresh directory and makes it current with
 * one rename (scripts/dist-builds.mjs), so `hearth` started at any moment finds a whole dist/hearth/cli.js.
 */

const MODULE = pathToFileURL(join(packageRoot(), 'scripts', 'dist-builds.mjs')).href;
const PADDING = 64 * 1024;
const SWAPS = 300;

/** What build `n` puts in hearth/cli.js: a header naming it, then enough bytes that a torn write would show. */
const BUILD_FILE = `(n) => 'build ' + n + '\\n' + 'x'.repeat(${PADDING})`;

/**
 * Makes `n` builds one after another, each published as scripts/build.mjs does. Old builds are pruned once at
 * the end, not after each: here a build takes a millisecond, and a reader descheduled in the middle of one open()
 * on a busy machine could find the build it was resolving pruned two builds later. Real builds are seconds
 * apart; pruning has a test of its own below.
 */
const SWAPPER = `
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { newBuildDir, publish, pruneBuilds } from '${MODULE}';
const [dist, count] = [process.argv[1], Number(process.argv[2])];
const body = ${BUILD_FILE};
let dir;
for (let n = 1; n <= count; n++) {
  dir = newBuildDir(dist);
  mkdirSync(join(dir, 'hearth'));
  writeFileSync(join(dir, 'hearth', 'cli.js'), body(n));
  publish(dist, dir);
}
pruneBuilds(dist, new Set([basename(dir)]));
`;

/** Reads dist/hearth/cli.js as fast as it can until the stop file appears (or 30 s pass), counting what it saw. */
const READER = `
import { existsSync, readFileSync } from 'node:fs';
const [file, stop] = [process.argv[1], process.argv[2]];
const body = ${BUILD_FILE};
let reads = 0, missing = 0, torn = 0;
const seen = new Set();
const until = Date.now() + 30_000;
process.stdout.write('reading\\n');
while (Date.now() < until && (reads % 64 !== 0 || !existsSync(stop))) {
  let text;
  try {
    text = readFileSync(file, 'latin1');
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
    missing++;
    reads++;
    continue;
  }
  reads++;
  const n = /^build (\\d+)\\n/.exec(text)?.[1];
  if (n === undefined || text !== body(n)) torn++;
  else seen.add(n);
}
process.stdout.write(JSON.stringify({ reads, missing, torn, builds: seen.size }) + '\\n');
`;

function run(code: string, args: readonly string[]): ChildProcess {
  return spawn(process.execPath, ['--input-type=module', '-e', code, ...args], {
    env: withoutCoverage(process.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** A child's stdout, line by line, waited on with deadlines. */
class Lines {
  private readonly lines: string[] = [];
  private text = '';
  private stderr = '';
  private wake: (() => void) | undefined;

  constructor(readonly child: ChildProcess) {
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      this.text += d;
      const parts = this.text.split('\n');
      this.text = parts.pop() ?? '';
      this.lines.push(...parts);
      this.wake?.();
    });
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      this.stderr += d;
    });
    child.on('exit', () => this.wake?.());
  }

  /** The `n`th line (from 1); rejects if the child exits without it or the deadline passes. */
  async line(n: number, deadlineMs: number): Promise<string> {
    const deadline = Date.now() + deadlineMs;
    while (this.lines.length < n) {
      if (this.child.exitCode !== null || this.child.signalCode !== null) throw new Error(`exited without line ${n}: ${this.stderr}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no line ${n} within ${deadlineMs} ms: ${this.stderr}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    return this.lines[n - 1] as string;
  }
}

function exited(child: ChildProcess, deadlineMs: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    let err = '';
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      err += d;
    });
    const timer = setTimeout(() => reject(new Error(`still running after ${deadlineMs} ms`)), deadlineMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`exit ${code}: ${err}`));
      else resolve(code);
    });
  });
}

/** One build with hearth/cli.js and a chunk, published. */
function build(dist: string, name: string): string {
  const dir = newBuildDir(dist);
  mkdirSync(join(dir, 'hearth'));
  writeFileSync(join(dir, 'hearth', 'cli.js'), name);
  writeFileSync(join(dir, 'hearth', `chunk-${name}.js`), name);
  const previous = publish(dist, dir);
  pruneBuilds(dist, new Set([basename(dir), ...(previous === undefined ? [] : [previous])]));
  return dir;
}

t.test('dist/hearth/cli.js is there, whole, through 300 builds made next to a process reading it', async (t) => {
  const dist = join(await mkdtemp(join(tmpdir(), 'hearth-dist-')), 'dist');
  t.teardown(() => rm(dirname(dist), { recursive: true, force: true }));
  const first = run(SWAPPER, [dist, '1']);
  t.equal(await exited(first, 10_000), 0, 'the first build');
  const stop = join(dirname(dist), 'stop');
  const reader = new Lines(run(READER, [join(dist, 'hearth', 'cli.js'), stop]));
  t.teardown(() => reader.child.kill('SIGKILL'));
  t.equal(await reader.line(1, 10_000), 'reading');

  const swapper = run(SWAPPER, [dist, String(SWAPS)]);
  t.teardown(() => swapper.kill('SIGKILL'));
  t.equal(await exited(swapper, 60_000), 0, `${SWAPS} builds made`);
  writeFileSync(stop, '');
  const seen = JSON.parse(await reader.line(2, 35_000)) as { reads: number; missing: number; torn: number; builds: number };
  t.equal(seen.missing, 0, `never missing (${seen.reads} reads)`);
  t.equal(seen.torn, 0, 'never half written');
  t.ok(seen.builds > 1, `the reads saw the builds change (${seen.builds} builds seen)`);
  t.ok(readFileSync(join(dist, 'hearth', 'cli.js'), 'latin1').startsWith(`build ${SWAPS}\n`), 'the last build is current');
});

t.test('a process keeps loading chunks of its own build through the next build; the one before that is removed', async (t) => {
  const dist = join(await mkdtemp(join(tmpdir(), 'hearth-dist-')), 'dist');
  t.teardown(() => rm(dirname(dist), { recursive: true, force: true }));
  build(dist, 'a');
  // Node runs a module from its real path: a hub started now loads its later chunks from there.
  const running = dirname(realpathSync(join(dist, 'hearth', 'cli.js')));
  build(dist, 'b');
  t.equal(readFileSync(join(dist, 'hearth', 'cli.js'), 'utf8'), 'b', 'dist/hearth is the new build');
  t.equal(readFileSync(join(running, 'chunk-a.js'), 'utf8'), 'a', "the running hub's chunks are still there");
  build(dist, 'c');
  t.notOk(existsSync(running), 'the build two back is removed');
  t.equal(readFileSync(join(dist, 'hearth', 'chunk-c.js'), 'utf8'), 'c');
});

t.test("a build another live process is still writing is left alone; a dead builder's is removed", async (t) => {
  const dist = join(await mkdtemp(join(tmpdir(), 'hearth-dist-')), 'dist');
  t.teardown(() => rm(dirname(dist), { recursive: true, force: true }));
  const builds = join(dist, '.builds');
  mkdirSync(builds, { recursive: true });
  // pid 1 is always alive; a pid above the kernel's maximum (4194304) never is.
  mkdirSync(join(builds, '1-inprogress'));
  mkdirSync(join(builds, '99999999-leftover'));
  build(dist, 'a');
  t.ok(existsSync(join(builds, '1-inprogress')), 'in progress: kept');
  t.notOk(existsSync(join(builds, '99999999-leftover')), 'leftover of a dead build: removed');
});

t.test('the first build over the older layout (real directories in dist/) replaces them with the links', async (t) => {
  const dist = join(await mkdtemp(join(tmpdir(), 'hearth-dist-')), 'dist');
  t.teardown(() => rm(dirname(dist), { recursive: true, force: true }));
  mkdirSync(join(dist, 'hearth'), { recursive: true });
  writeFileSync(join(dist, 'hearth', 'cli.js'), 'old');
  mkdirSync(join(dist, 'src'));
  build(dist, 'new');
  t.equal(readFileSync(join(dist, 'hearth', 'cli.js'), 'utf8'), 'new');
  t.match(realpathSync(join(dist, 'hearth')), /[/]\.builds[/]\d+-[^/]+[/]hearth$/);
});
