import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../../src/util/paths.js';
import { withoutCoverage } from '../helpers/child-env.js';

/** The repository root: the CLI runs from there through tsx, so the tests need no build. */
export const REPO_ROOT = packageRoot();

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = withoutCoverage({ ...process.env, ...extra });
  if (extra.UWS_USE_FALLBACK === undefined) delete env.UWS_USE_FALLBACK;
  return env;
}

/** The shipped entry point, as `npm run build` (part of `make test`) makes it and systemd runs it. */
export const BUILT_CLI = join(REPO_ROOT, 'dist', 'hearth', 'cli.js');

/**
 * Which hearth runs: the TypeScript sources (through tsx), the built bundle, or the bundle of an unpacked
 * release (`make release`), run from that folder.
 */
export type CliBuild = 'source' | 'built' | { readonly release: string };

function spawnCli(args: readonly string[], env?: Record<string, string>, build: CliBuild = 'source'): ChildProcess {
  const entry =
    build === 'source'
      ? ['--import', 'tsx', 'src/cli.ts']
      : [build === 'built' ? BUILT_CLI : join(build.release, 'dist', 'hearth', 'cli.js')];
  return spawn(process.execPath, [...entry, ...args], {
    cwd: typeof build === 'object' ? build.release : REPO_ROOT,
    env: cliEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs `hearth <args>` to completion; rejects (and kills it) past the deadline. */
export function runCli(
  args: readonly string[],
  options: { env?: Record<string, string>; timeoutMs?: number; build?: CliBuild } = {},
): Promise<CliResult> {
  const child = spawnCli(args, options.env, options.build);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const timeoutMs = options.timeoutMs ?? 30_000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`hearth ${args.join(' ')} did not finish within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** A running `hearth serve`, its output read line by line. */
export class ServeProcess {
  readonly child: ChildProcess;
  readonly lines: string[] = [];
  stderr = '';
  private readonly waiters = new Set<() => void>();
  private buffer = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(args: readonly string[], env?: Record<string, string>, build: CliBuild = 'source') {
    this.child = spawnCli(['serve', ...args], env, build);
    this.child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      this.buffer += d;
      let nl = this.buffer.indexOf('\n');
      while (nl >= 0) {
        this.lines.push(this.buffer.slice(0, nl));
        this.buffer = this.buffer.slice(nl + 1);
        nl = this.buffer.indexOf('\n');
      }
      for (const w of this.waiters) w();
    });
    this.child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      this.stderr += d;
    });
    this.exited = new Promise((resolve) => {
      this.child.on('close', (code, signal) => {
        for (const w of this.waiters) w();
        resolve({ code, signal });
      });
    });
  }

  /** Log records (JSON lines) so far. */
  records(): Record<string, unknown>[] {
    return this.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  /** Resolves with the first log record whose msg matches; rejects past the deadline or if the process ends first. */
  waitForLog(msg: string | RegExp, timeoutMs = 20_000): Promise<Record<string, unknown>> {
    const match = (): Record<string, unknown> | undefined =>
      this.lines
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((r) => (typeof msg === 'string' ? r.msg === msg : msg.test(String(r.msg))));
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const hit = match();
        if (hit !== undefined) {
          done(() => resolve(hit));
          return;
        }
        if (this.child.exitCode !== null || this.child.signalCode !== null) {
          done(() =>
            reject(
              new Error(`hearth serve exited before logging ${String(msg)}\nstdout: ${this.lines.join('\n')}\nstderr: ${this.stderr}`),
            ),
          );
        }
      };
      const timer = setTimeout(
        () =>
          done(() =>
            reject(new Error(`no log ${String(msg)} within ${timeoutMs} ms\nstdout: ${this.lines.join('\n')}\nstderr: ${this.stderr}`)),
          ),
        timeoutMs,
      );
      const done = (settle: () => void): void => {
        clearTimeout(timer);
        this.waiters.delete(check);
        settle();
      };
      this.waiters.add(check);
      check();
    });
  }

  /** Sends `signal` and resolves with how the process ended and how long it took; rejects past the deadline. */
  async stop(signal: NodeJS.Signals, timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
    const started = Date.now();
    this.child.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`hearth serve did not exit within ${timeoutMs} ms of ${signal}`)), timeoutMs);
    });
    try {
      const result = await Promise.race([this.exited, deadline]);
      return { ...result, ms: Date.now() - started };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Last resort for a test that failed half-way: never leave a hub running. */
  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}
