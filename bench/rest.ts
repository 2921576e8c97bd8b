/**
 * REST throughput: requests/s and latency with wrk (one thread, 50 connections) on three endpoints of a
 * hub with 1,000 entities, against two references in the same run:
 *   - the ceiling (bench/ceiling.ts): a bare uWS app answering the same bytes, precomputed;
 *   - the baseline (bench/baseline/http-server.ts): the same endpoints on node:http, written plainly.
 * The hub runs as a Pi runs it (`node dist/hearth/cli.js serve`), each server in its own process. Each case
 * runs every server in turn for a few rounds, alternating the order, and keeps each server's best round,
 * so a burst of noise from elsewhere on the machine costs a round rather than the result.
 * Prints a markdown table; writes bench/out/rest.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CeilingRoute } from './ceiling.js';
import { BENCH_LIGHT, writeEntitiesConfig } from './configs.js';
import { BENCH, fmt, HUB_NODE_ARGS, httpRequest, makeDataDir, startHub, startReference, stopProcess } from './procs.js';
import { hasWrk, type WrkResult, wrk } from './wrk.js';

const ENTITIES = 1000;
const SECONDS = Number(process.env.REST_BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.REST_BENCH_ROUNDS ?? 2);
const CONNECTIONS = 50;

type ServerName = 'ceiling' | 'hearth' | 'baseline';
const SERVERS: readonly ServerName[] = ['ceiling', 'hearth', 'baseline'];

interface Case {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** The uWS pattern the ceiling answers it on. */
  readonly pattern: string;
  readonly body?: string;
}

const ALL_CASES: readonly Case[] = [
  { name: 'GET /api/states/<id>', method: 'GET', path: `/api/states/${BENCH_LIGHT}`, pattern: '/api/states/:entity_id' },
  { name: `GET /api/states (${fmt(ENTITIES)} entities)`, method: 'GET', path: '/api/states', pattern: '/api/states' },
  {
    name: 'POST /api/services/light/toggle',
    method: 'POST',
    path: '/api/services/light/toggle',
    pattern: '/api/services/:domain/:service',
    body: JSON.stringify({ entity_id: BENCH_LIGHT }),
  },
];

/** REST_BENCH_CASES=POST (say) runs only the cases whose name contains it, to check one path without the rest. */
const ONLY = process.env.REST_BENCH_CASES;
const CASES = ONLY === undefined ? ALL_CASES : ALL_CASES.filter((c) => c.name.includes(ONLY));

interface Row {
  readonly case: string;
  readonly server: ServerName;
  readonly result: WrkResult;
  readonly rounds: readonly number[];
  readonly responseBytes: number;
}

if (!hasWrk()) {
  console.error('rest: wrk is not installed (`make bench` installs it: apt-get install -y wrk)');
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'hearth-rest-'));
const data = await makeDataDir();
const hub = await startHub({ config: writeEntitiesConfig(work, ENTITIES), data, nodeArgs: HUB_NODE_ARGS });
const cleanup: (() => Promise<void>)[] = [() => hub.stop(), () => data.remove()];
try {
  // The references answer with what hearth answers: fetch each body once.
  const all = await httpRequest(hub.port, '/api/states', { token: hub.token });
  if (all.status !== 200) throw new Error(`GET /api/states answered ${all.status}`);
  const statesFile = join(work, 'states.json');
  writeFileSync(statesFile, all.body);
  const routes: CeilingRoute[] = [];
  const sizes = new Map<string, number>();
  for (const c of CASES) {
    const r = await httpRequest(hub.port, c.path, { method: c.method, token: hub.token, body: c.body });
    if (r.status !== 200) throw new Error(`${c.name} answered ${r.status}: ${r.body.toString().slice(0, 200)}`);
    sizes.set(c.name, r.body.length);
    routes.push({
      method: c.method === 'GET' ? 'get' : 'post',
      pattern: c.pattern,
      status: '200 OK',
      contentType: String(r.headers['content-type'] ?? 'application/json'),
      body: r.body.toString('base64'),
    });
  }
  const routesFile = join(work, 'routes.json');
  writeFileSync(routesFile, JSON.stringify(routes));

  const ceiling = await startReference(`${BENCH}ceiling.ts`, [routesFile]);
  cleanup.unshift(() => stopProcess(ceiling.child));
  const baseline = await startReference(`${BENCH}baseline/http-server.ts`, [statesFile, hub.token]);
  cleanup.unshift(() => stopProcess(baseline.child));
  const ports: Record<ServerName, number> = { ceiling: ceiling.port, hearth: hub.port, baseline: baseline.port };

  const rows: Row[] = [];
  for (const c of CASES) {
    const rounds: Record<ServerName, WrkResult[]> = { ceiling: [], hearth: [], baseline: [] };
    const request = (server: ServerName, seconds: number) =>
      wrk({ port: ports[server], path: c.path, method: c.method, body: c.body, token: hub.token, seconds, connections: CONNECTIONS });
    // Warm each server's JIT on this route first.
    for (const server of SERVERS) await request(server, 1);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? SERVERS : [...SERVERS].reverse();
      for (const server of order) {
        const r = await request(server, SECONDS);
        rounds[server].push(r);
        process.stderr.write(
          `rest: ${c.name}, ${server}, round ${round + 1}: ${fmt(r.requestsPerSecond)} req/s, p99 ${r.p99Ms.toFixed(2)} ms${r.errors ? `, ${r.errors} errors` : ''}\n`,
        );
      }
    }
    for (const server of SERVERS) {
      const best = rounds[server].reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
      rows.push({
        case: c.name,
        server,
        result: best,
        rounds: rounds[server].map((r) => r.requestsPerSecond),
        responseBytes: sizes.get(c.name) ?? 0,
      });
    }
  }

  const find = (name: string, server: ServerName) => rows.find((r) => r.case === name && r.server === server)?.result;
  const lines = [
    `wrk ${'`'}-t1 -c${CONNECTIONS} -d${SECONDS}s${'`'} on 127.0.0.1, best of ${ROUNDS} rounds per server (order alternating), after a 1 s warm-up. hearth: \`node ${HUB_NODE_ARGS.join(' ')} dist/hearth/cli.js serve\` with ${fmt(ENTITIES)} virtual entities (sensors reporting about once a minute). Ceiling: a bare uWS app answering the same bytes. Baseline: node:http, straightforward.`,
    '',
    '| endpoint | response bytes | server | requests/s | vs ceiling | vs baseline | p50 ms | p99 ms | errors |',
    '|---|---:|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const ceilingRps = find(r.case, 'ceiling')?.requestsPerSecond ?? Number.NaN;
    const baseRps = find(r.case, 'baseline')?.requestsPerSecond ?? Number.NaN;
    lines.push(
      `| ${r.case} | ${fmt(r.responseBytes)} | ${r.server} | ${fmt(r.result.requestsPerSecond)} | ${fmt((r.result.requestsPerSecond / ceilingRps) * 100)} % | ${(r.result.requestsPerSecond / baseRps).toFixed(2)}x | ${r.result.p50Ms.toFixed(2)} | ${r.result.p99Ms.toFixed(2)} | ${r.result.errors} |`,
    );
  }
  const ratio = (name: string, of: ServerName) =>
    (find(name, 'hearth')?.requestsPerSecond ?? Number.NaN) / (find(name, of)?.requestsPerSecond ?? Number.NaN);
  const one = ALL_CASES[0]?.name as string;
  const allName = ALL_CASES[1]?.name as string;
  const post = ALL_CASES[2]?.name as string;
  const targets = [
    {
      target: 'GET /api/states/<id> >= 70 % of the ceiling',
      name: one,
      value: ratio(one, 'ceiling'),
      limit: 0.7,
      text: `${fmt(ratio(one, 'ceiling') * 100)} %`,
    },
    {
      target: 'GET /api/states/<id> >= 2x the node:http baseline',
      name: one,
      value: ratio(one, 'baseline'),
      limit: 2,
      text: `${ratio(one, 'baseline').toFixed(2)}x`,
    },
    {
      target: `GET /api/states (${fmt(ENTITIES)}) >= 5x the baseline`,
      name: allName,
      value: ratio(allName, 'baseline'),
      limit: 5,
      text: `${ratio(allName, 'baseline').toFixed(2)}x`,
    },
    {
      target: 'POST /api/services/<domain>/<service> >= 65 % of the ceiling',
      name: post,
      value: ratio(post, 'ceiling'),
      limit: 0.65,
      text: `${fmt(ratio(post, 'ceiling') * 100)} %`,
    },
    {
      target: 'POST /api/services/<domain>/<service> >= 1.3x the node:http baseline',
      name: post,
      value: ratio(post, 'baseline'),
      limit: 1.3,
      text: `${ratio(post, 'baseline').toFixed(2)}x`,
    },
  ]
    .filter((t) => CASES.some((c) => c.name === t.name))
    .map(({ name: _case, ...t }) => ({ ...t, met: t.value >= t.limit }));
  lines.push('');
  for (const t of targets) lines.push(`- ${t.target}: ${t.text} (${t.met ? 'met' : 'missed'})`);
  console.log(lines.join('\n'));

  mkdirSync(`${BENCH}out`, { recursive: true });
  writeFileSync(
    `${BENCH}out/rest.json`,
    `${JSON.stringify({ benchmark: 'rest', entities: ENTITIES, seconds: SECONDS, rounds: ROUNDS, connections: CONNECTIONS, hubNodeArgs: HUB_NODE_ARGS, rows, targets }, null, 2)}\n`,
  );
} finally {
  for (const c of cleanup) await c().catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
}
