/**
 * Runs Debian's wrk (one thread, 50 connections by default) and reads its result through a Lua `done`
 * hook that prints JSON, so nothing depends on wrk's human-readable output.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface WrkResult {
  readonly requestsPerSecond: number;
  readonly requests: number;
  /** Connect, read, write and timeout errors, and answers with a status >= 400. */
  readonly errors: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

export interface WrkRequest {
  readonly port: number;
  readonly path: string;
  readonly method?: 'GET' | 'POST';
  readonly body?: string;
  /** Bodies sent in turn, one per request (instead of `body`): e.g. a service call on a different entity each time. */
  readonly bodies?: readonly string[];
  readonly token: string;
  readonly seconds: number;
  readonly connections?: number;
}

const REPORT = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK_JSON {"requests":%d,"durationUs":%d,"errors":%d,"p50":%d,"p99":%d,"max":%d}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.status + e.timeout,
    latency:percentile(50), latency:percentile(99), latency.max))
end
`;

let scriptDir: string | undefined;

let scripts = 0;

function script(method: string, body: string | undefined, bodies: readonly string[] | undefined): string {
  if (scriptDir === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-wrk-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    scriptDir = dir;
  }
  const file = join(scriptDir, `${method}-${scripts++}.lua`);
  let setup =
    method === 'GET'
      ? ''
      : `wrk.method = "${method}"\nwrk.body = ${JSON.stringify(body ?? '')}\nwrk.headers["Content-Type"] = "application/json"\n`;
  if (bodies !== undefined && bodies.length > 0) {
    // Lua strings take JSON's escapes for the ASCII JSON sent here.
    setup += `local bodies = {${bodies.map((b) => JSON.stringify(b)).join(',')}}\nlocal n = 0\n`;
    setup += `request = function()\n  n = n % #bodies + 1\n  return wrk.format(nil, nil, nil, bodies[n])\nend\n`;
  }
  writeFileSync(file, setup + REPORT);
  return file;
}

export function hasWrk(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    // wrk --version exits 1 after printing its banner; only a missing binary is ENOENT.
    return (err as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

export function wrk(r: WrkRequest): Promise<WrkResult> {
  const args = [
    '-t1',
    `-c${r.connections ?? 50}`,
    `-d${r.seconds}s`,
    '--latency',
    '-H',
    `Authorization: Bearer ${r.token}`,
    '-s',
    script(r.method ?? 'GET', r.body, r.bodies),
    `http://127.0.0.1:${r.port}${r.path}`,
  ];
  return new Promise((resolve, reject) => {
    execFile('wrk', args, { encoding: 'utf8', timeout: (r.seconds + 30) * 1000 }, (err, stdout) => {
      const line = /WRK_JSON (\{.*\})/.exec(stdout ?? '')?.[1];
      if (line === undefined) {
        reject(new Error(`wrk gave no result${err ? `: ${err.message}` : ''}\n${stdout}`));
        return;
      }
      const j = JSON.parse(line) as { requests: number; durationUs: number; errors: number; p50: number; p99: number; max: number };
      resolve({
        requestsPerSecond: j.requests / (j.durationUs / 1e6),
        requests: j.requests,
        errors: j.errors,
        p50Ms: j.p50 / 1000,
        p99Ms: j.p99 / 1000,
        maxMs: j.max / 1000,
      });
    });
  });
}
