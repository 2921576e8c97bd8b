/**
 * What the REST, memory and startup benchmarks share: starting the built hub (`node dist/hearth/cli.js serve`,
 * exactly what a Pi runs, without the tsx loader) and its references as separate processes on 127.0.0.1,
 * waiting for them to answer, and reading their memory from /proc.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const BENCH = fileURLToPath(new URL('./', import.meta.url));
/** The shipped entry point (the bundled build); UNBUNDLED_CLI is tsc's output it is made from. */
export const CLI = join(ROOT, 'dist/hearth/cli.js');
export const UNBUNDLED_CLI = join(ROOT, 'dist/src/cli.js');
export const DEMO_CONFIG = join(ROOT, 'config/demo.yaml');
/** How bench TypeScript (references, harnesses, clients) runs; the hub itself runs from dist/. */
export const TSX = ['--import', 'tsx'];
/**
 * The Node flags recommended for a Pi (systemd unit, `make run`):
 *   --max-semi-space-size=1  the young generation stays at 1 MB per semi-space instead of growing to 16 MB
 *                            during start-up and keeping that (30-40 MB of RSS with a thousand entities);
 *   --max-old-space-size=192 the bound the systemd unit already sets;
 *   --v8-pool-size=1         one V8 helper thread instead of four: a heap of ~15 MB needs no more for
 *                            concurrent marking and compiling, and each thread keeps its own malloc arena;
 *   --expose-gc              the hub's heap trim (src/hub/heap-trim.ts) gives the heap's empty pages back
 *                            once a burst is over.
 */
export const PI_NODE_ARGS: readonly string[] = ['--max-semi-space-size=1', '--max-old-space-size=192', '--v8-pool-size=1', '--expose-gc'];
/**
 * The environment the systemd unit gives the hub: its `Environment=` lines (NODE_ENV, glibc's allocator settings;
 * systemd/hearth.service says why each), read from the unit itself so that the benches follow it.
 */
export const UNIT_ENV: Readonly<Record<string, string>> = unitEnvironment(readFileSync(join(ROOT, 'systemd/hearth.service'), 'utf8'));

/** The `Environment=` assignments of a unit file (unquoted `KEY=value` words, as hearth.service writes them). */
export function unitEnvironment(unit: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of unit.split('\n')) {
    if (!line.startsWith('Environment=')) continue;
    for (const word of line.slice('Environment='.length).trim().split(/\s+/)) {
      const eq = word.indexOf('=');
      if (eq > 0) env[word.slice(0, eq)] = word.slice(eq + 1);
    }
  }
  return env;
}

/** The Node flags of the unit's ExecStart (between `node` and the script): what a Pi runs, read from the unit itself. */
export const UNIT_NODE_ARGS: readonly string[] = unitNodeArgs(readFileSync(join(ROOT, 'systemd/hearth.service'), 'utf8'));

/** The words of a unit's `ExecStart=` between the node binary and the script (the first word ending in `.js`). */
export function unitNodeArgs(unit: string): string[] {
  const line = unit.split('\n').find((l) => l.startsWith('ExecStart='));
  if (line === undefined) throw new Error('the unit has no ExecStart=');
  const words = line.slice('ExecStart='.length).trim().split(/\s+/);
  const script = words.findIndex((w) => w.endsWith('.js'));
  if (script < 1) throw new Error(`no script in ExecStart=: ${line}`);
  return words.slice(1, script);
}

/**
 * The environment of every process whose memory a bench reads: `PATH` and `vars` alone (the hub and its
 * references pass UNIT_ENV, a floor only its port), as systemd starts a service with a clean one, not the
 * shell's. The shell matters: NODE_EXTRA_CA_CERTS (set on the machines these benches run on) makes Node parse
 * a CA bundle into OpenSSL as it starts, some 1.4 MB of native memory (heaptrack) that a hub under systemd
 * does not have.
 */
export function measuredEnv(vars: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', ...vars };
}
/** Node flags the hub runs with in the REST and startup benchmarks (HEARTH_BENCH_NODE_ARGS overrides). */
export const HUB_NODE_ARGS: readonly string[] =
  process.env.HEARTH_BENCH_NODE_ARGS === undefined ? PI_NODE_ARGS : process.env.HEARTH_BENCH_NODE_ARGS.split(' ').filter(Boolean);

/** Monotonic milliseconds, comparable across processes on one machine (uv_hrtime is CLOCK_MONOTONIC). */
export function monoMs(): number {
  const [s, ns] = process.hrtime();
  return s * 1e3 + ns / 1e6;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A port nobody listens on right now (the OS picks it; closed again before the server takes it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface HttpResult {
  readonly status: number;
  readonly body: Buffer;
  readonly headers: Record<string, string | string[] | undefined>;
}

/** One request on a fresh connection; status 0 when the connection failed (nothing listening yet). */
export function httpRequest(
  port: number,
  path: string,
  options: { method?: string; token?: string; body?: string; timeoutMs?: number } = {},
): Promise<HttpResult> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = {};
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const req = request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }));
      res.on('error', () => resolve({ status: 0, body: Buffer.alloc(0), headers: {} }));
    });
    req.setTimeout(options.timeoutMs ?? 10_000, () => req.destroy());
    req.on('error', () => resolve({ status: 0, body: Buffer.alloc(0), headers: {} }));
    req.end(options.body);
  });
}

/**
 * Polls `path` on fresh connections (1 ms apart while nothing listens) until it answers 200; resolves with
 * the monotonic time of that answer. Rejects when the process exits first or after `deadlineMs`.
 */
export async function waitFor200(
  child: ChildProcess,
  port: number,
  path: string,
  token: string | undefined,
  deadlineMs = 30_000,
): Promise<number> {
  const until = monoMs() + deadlineMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before answering`);
    const r = await httpRequest(port, path, { token, timeoutMs: 5_000 });
    if (r.status === 200) return monoMs();
    if (r.status !== 0) throw new Error(`GET ${path} answered ${r.status}: ${r.body.toString().slice(0, 200)}`);
    if (monoMs() > until) throw new Error(`no answer on ${path} within ${deadlineMs} ms`);
    await sleep(1);
  }
}

export interface Memory {
  readonly rssMb: number;
  /** Anonymous memory: the JS heap, malloc, buffers; what the process itself allocated. */
  readonly anonMb: number;
  /** File-backed pages: the node binary (V8, ICU data), shared libraries, the uWS addon; shared and evictable. */
  readonly fileMb: number;
}

export function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN) / 1024;
  return { rssMb: kb('VmRSS'), anonMb: kb('RssAnon'), fileMb: kb('RssFile') };
}

export interface Hub {
  readonly child: ChildProcess;
  readonly port: number;
  readonly token: string;
  readonly dataDir: string;
  /** Process start to the first 200 from GET /api/. */
  readonly readyMs: number;
  memory(): Memory;
  stop(): Promise<void>;
}

export interface DataDir {
  readonly dir: string;
  readonly token: string;
  remove(): Promise<void>;
}

/** A fresh data directory with an owner and a long-lived token, made by the built CLI. */
export async function makeDataDir(): Promise<DataDir> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-bench-'));
  const out = execFileSync(process.execPath, [CLI, 'token', 'create', '--data', dir, '--name', 'bench'], { encoding: 'utf8' });
  const token = out.trim().split('\n').at(-1)?.trim() ?? '';
  if (token === '') throw new Error(`hearth token create printed no token: ${out}`);
  return { dir, token, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Starts `node [nodeArgs] dist/hearth/cli.js serve` (or another build's cli.js) with a config (null: the
 * bundled demo) and waits for the first 200 from GET /api/. The hub logs at warn level; stderr stays visible.
 */
export async function startHub(options: {
  config: string | null;
  data: DataDir;
  nodeArgs?: readonly string[];
  cli?: string;
  /** Variables for a bench's own instrumentation (a preload's output file), on top of the unit's environment. */
  env?: Readonly<Record<string, string>>;
}): Promise<Hub> {
  const port = await freePort();
  const args = [
    ...(options.nodeArgs ?? []),
    options.cli ?? CLI,
    'serve',
    '--data',
    options.data.dir,
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--log-level',
    'warn',
  ];
  if (options.config !== null) args.push('--config', options.config);
  const t0 = monoMs();
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: measuredEnv({ ...UNIT_ENV, ...options.env }),
  });
  let readyAt: number;
  try {
    readyAt = await waitFor200(child, port, '/api/', options.data.token);
  } catch (err) {
    await stopProcess(child);
    throw err;
  }
  return {
    child,
    port,
    token: options.data.token,
    dataDir: options.data.dir,
    readyMs: readyAt - t0,
    memory: () => memoryOf(child.pid as number),
    stop: () => stopProcess(child),
  };
}

/** Asks a process to exit (`ask`: SIGTERM), then SIGKILL after `graceMs`; resolves when the process is gone. */
export function stopProcess(child: ChildProcess, graceMs = 6000, ask: (c: ChildProcess) => void = (c) => c.kill('SIGTERM')): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    ask(child);
  });
}

/** Spawns a reference server (bench TypeScript through tsx) that prints `listening <port>` on stdout. */
export function startReference(
  file: string,
  args: readonly string[],
  nodeArgs: readonly string[] = TSX,
): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, file, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${file} did not start within 30 s`));
    }, 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, port: Number(m[1]) });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited (${code}) before listening`));
    });
  });
}

/**
 * The floors memory and startup are compared with, as inline ES modules (no tsx, no TypeScript: just
 * Node): each listens on $PORT (0: any), answers every request with 200 and prints `listening <port>`.
 */
export const FLOORS = {
  /** Node itself: node:http answering a constant body. */
  node: `import { createServer } from 'node:http';
const s = createServer((q, r) => { r.writeHead(200, { 'content-type': 'application/json' }); r.end('{"message":"API running."}'); });
s.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => console.log('listening ' + s.address().port));`,
  /** Node with uWS loaded: the least any uWS server can be. */
  uws: `import uWS from 'uWebSockets.js';
uWS.App().any('/*', (res) => { res.writeHeader('content-type', 'application/json').end('{"message":"API running."}'); })
  .listen('127.0.0.1', Number(process.env.PORT ?? 0), (s) => console.log('listening ' + uWS.us_socket_local_port(s)));`,
} as const;

export type Floor = keyof typeof FLOORS;

/** Spawns a floor server (cwd: the repository, so it finds uWebSockets.js); `port` 0 lets it choose. */
export function spawnFloor(floor: Floor, port = 0): ChildProcess {
  return spawn(process.execPath, ['--input-type=module', '-e', FLOORS[floor]], {
    cwd: ROOT,
    env: measuredEnv({ PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/** The value at fraction `p` (0.99: p99) of an ascending list, by the nearest-rank rule. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)] as number;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

export const fmt = (n: number, digits = 0): string =>
  Number.isFinite(n) ? n.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : 'n/a';
