import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { packageRoot } from '../../src/util/paths.js';
import { withoutCoverage } from '../helpers/child-env.js';

/**
 * test/hub/kill-restart-child.ts and the sources it imports, bundled into one file by esbuild (packages stay in
 * node_modules). Fifty-one hubs loaded through tsx cost some 1.2 s of CPU each, bundled some 0.15 s: on a busy
 * 2-core machine that is most of the test's time. The bundle lives under dist/ (ignored by git) so that the hub
 * finds the package root, as the shipped bundle in dist/hearth/ does. Resolves with its path and a remover.
 */
export async function bundleChild(): Promise<{ readonly path: string; remove(): Promise<void> }> {
  await mkdir(join(packageRoot(), 'dist'), { recursive: true });
  const dir = await mkdtemp(join(packageRoot(), 'dist', 'kill-restart-'));
  const path = join(dir, 'child.mjs');
  await build({
    entryPoints: [join(packageRoot(), 'test', 'hub', 'kill-restart-child.ts')],
    outfile: path,
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  const remove = async () => {
    await rm(dir, { recursive: true, force: true });
    // dist/ itself only when nothing else is in it (a build may be).
    await rmdir(join(packageRoot(), 'dist')).catch(() => {});
  };
  return { path, remove };
}

/** What one run of test/hub/kill-restart-child.ts said before it was killed. */
export interface RunReport {
  /** Real time (ms) the hub answered `ready`, or undefined when it was killed before. */
  readyAt: number | undefined;
  port: number | undefined;
  token: string | undefined;
  /** Hub time (µs) of the latest restore-state flush and recorder commit that completed: changes before are on disk. */
  flushedUs: number;
  committedUs: number;
  /** Warnings and errors the hub logged: `<level> <json>`. */
  logs: string[];
  killedAt: number;
  exited: Promise<void>;
  /** Set when the process exited before it was killed: its stderr. */
  crashed: string | undefined;
}

/**
 * One hub process of the kill -9 test (`script`: the bundled child). Spawned ahead of its turn (`spare()`): it loads its modules while the
 * previous hub runs, and starts on `go()`.
 */
export class HubProcess {
  readonly report: RunReport = {
    readyAt: undefined,
    port: undefined,
    token: undefined,
    flushedUs: 0,
    committedUs: 0,
    logs: [],
    killedAt: 0,
    exited: Promise.resolve(),
    crashed: undefined,
  };
  /** Resolves when the modules are loaded; rejects when the process dies first. */
  readonly loaded: Promise<void>;
  private readonly child: ChildProcessWithoutNullStreams;
  private stderr = '';
  private readonly lineWaiters = new Set<(kind: string) => void>();

  constructor(script: string, dataDir: string, configFile: string) {
    this.child = spawn(process.execPath, [script, dataDir, configFile], {
      cwd: packageRoot(),
      env: withoutCoverage(process.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stderr.setEncoding('utf8').on('data', (d: string) => {
      // Bounded: a hub that crashes says why in its first lines.
      if (this.stderr.length < 20_000) this.stderr += d;
    });
    this.report.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        if (this.report.killedAt === 0) this.report.crashed = `exit ${code ?? signal}; stderr: ${this.stderr}`;
        resolve();
      }),
    );
    let buffered = '';
    this.child.stdout.setEncoding('utf8').on('data', (d: string) => {
      buffered += d;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) this.onLine(line);
    });
    this.loaded = this.waitFor('loaded', 60_000);
  }

  private onLine(line: string): void {
    const space = line.indexOf(' ');
    const kind = space < 0 ? line : line.slice(0, space);
    const rest = space < 0 ? '' : line.slice(space + 1);
    const r = this.report;
    if (kind === 'ready') {
      r.readyAt = Date.now();
      r.port = Number(rest);
    } else if (kind === 'token') r.token = rest;
    else if (kind === 'flushed') r.flushedUs = Math.max(r.flushedUs, Number(rest));
    else if (kind === 'committed') r.committedUs = Math.max(r.committedUs, Number(rest));
    else if (kind === 'log') r.logs.push(rest);
    for (const waiter of [...this.lineWaiters]) waiter(kind);
  }

  /** Resolves on the first line of `kind`; rejects after `ms` or when the process exits first. */
  waitFor(kind: string, ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const finish = (err?: Error) => {
        clearTimeout(timer);
        this.lineWaiters.delete(watch);
        this.child.off('exit', exited);
        if (err === undefined) resolve();
        else reject(err);
      };
      const watch = (seen: string) => {
        if (seen === kind) finish();
      };
      const exited = () => finish(new Error(`the hub exited before \`${kind}\`; stderr: ${this.stderr}`));
      const timer = setTimeout(() => finish(new Error(`no \`${kind}\` within ${ms} ms; stderr: ${this.stderr}`)), ms);
      this.lineWaiters.add(watch);
      this.child.once('exit', exited);
    });
  }

  /** Starts the hub on a clock `offsetUs` ahead of the system's; with `mint`, makes the owner's token. */
  go(offsetUs: number, mint: boolean): void {
    this.child.stdin.write(`go ${offsetUs} ${mint ? 1 : 0}\n`);
  }

  /** kill -9, once; resolves when the process is gone. */
  kill(): Promise<void> {
    if (this.report.killedAt === 0) {
      this.report.killedAt = Date.now();
      this.child.kill('SIGKILL');
    }
    return this.report.exited;
  }

  get killed(): boolean {
    return this.report.killedAt !== 0;
  }
}
