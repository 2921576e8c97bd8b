/**
 * WebSocket fan-out: N clients subscribed to state_changed while the server writes state changes at a
 * fixed rate. hearth (uWS, with and without coalescing) against a straightforward `ws` server fed by the
 * same generator (bench/baseline/ws-server.ts), in the same run.
 *
 * Each case starts a fresh server process and a fresh client process (so neither shares an event loop or a
 * heap with the other), all on 127.0.0.1. After a warm-up, it counts the events the clients receive in a
 * fixed window, and their latency from the table write (a monotonic timestamp in an attribute) to receipt.
 * Prints a markdown table; writes bench/out/ws-fanout.json.
 */
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { next as nextMessage, stopChild, subscribers } from './ws-client-process.js';
import type { FromClients, ToClients } from './ws-clients.js';
import { monoMs } from './ws-generator.js';
import type { FromServer, ToServer } from './ws-server-harness.js';

type ServerKind = 'hearth' | 'ws';

interface Case {
  readonly server: ServerKind;
  readonly coalesce: boolean;
  readonly clients: number;
  /** State changes per second written in the server. */
  readonly rate: number;
}

interface Row extends Case {
  readonly label: string;
  readonly offeredPerSecond: number;
  readonly deliveredPerSecond: number;
  readonly deliveredPercent: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly serverRssMb: number;
  readonly serverCpuPercent: number;
  readonly serverLoopDelayP99Ms: number;
  readonly clientsCpuPercent: number;
  readonly clientsLoopDelayP99Ms: number;
  readonly clientsDropped: number;
}

const WARMUP_MS = 1000;
const DURATION_MS = Number(process.env.WS_BENCH_DURATION_MS ?? 3000);
const LATENCY_RATE = 1000;
/** The throughput case: more than a 2-core machine can deliver to 100 clients, so delivered/s is capacity. */
const THROUGHPUT_RATE = Number(process.env.WS_BENCH_THROUGHPUT_RATE ?? 4000);

const here = fileURLToPath(new URL('.', import.meta.url));
const SERVER_FILES: Record<ServerKind, string> = { hearth: `${here}ws-hearth-server.ts`, ws: `${here}baseline/ws-server.ts` };
const EXEC_ARGV = ['--import', 'tsx'];

function label(c: Case): string {
  if (c.server === 'ws') return 'ws baseline';
  return c.coalesce ? 'hearth (coalescing)' : 'hearth';
}

async function runCase(c: Case): Promise<Row> {
  // WS_BENCH_SERVER_ARGS adds Node flags to the server process (e.g. --cpu-prof to profile it).
  const serverArgs = [...EXEC_ARGV, ...(process.env.WS_BENCH_SERVER_ARGS?.split(' ').filter(Boolean) ?? [])];
  const server = fork(SERVER_FILES[c.server], [], { execArgv: serverArgs, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const clients = fork(`${here}ws-clients.ts`, [], { execArgv: EXEC_ARGV, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  try {
    const listening = await nextMessage<Extract<FromServer, { type: 'listening' }>>(server, 'listening', 20_000);
    const url = `ws://127.0.0.1:${listening.port}/api/websocket`;
    const ready = nextMessage<Extract<FromClients, { type: 'ready' }>>(clients, 'ready', 30_000);
    clients.send({ type: 'connect', url, token: listening.token, kinds: subscribers(c.clients, c.coalesce) } satisfies ToClients);
    await ready;

    const startAt = monoMs() + 100;
    const from = startAt + WARMUP_MS;
    clients.send({ type: 'window', from, to: from + DURATION_MS } satisfies ToClients);
    const done = nextMessage<Extract<FromServer, { type: 'done' }>>(server, 'done', WARMUP_MS + DURATION_MS + 30_000);
    server.send({ type: 'run', rate: c.rate, startAt, warmupMs: WARMUP_MS, durationMs: DURATION_MS } satisfies ToServer);
    const serverResult = await done;
    const reportP = nextMessage<Extract<FromClients, { type: 'report' }>>(clients, 'report', 30_000);
    clients.send({ type: 'report' } satisfies ToClients);
    const report = await reportP;

    const offered = (serverResult.generated * c.clients) / (DURATION_MS / 1000);
    const delivered = report.received / (DURATION_MS / 1000);
    return {
      ...c,
      label: label(c),
      offeredPerSecond: offered,
      deliveredPerSecond: delivered,
      deliveredPercent: offered === 0 ? 0 : (delivered / offered) * 100,
      p50Ms: report.p50Ms,
      p99Ms: report.p99Ms,
      maxMs: report.maxMs,
      serverRssMb: serverResult.rssMaxMb,
      serverCpuPercent: serverResult.cpuPercent,
      serverLoopDelayP99Ms: serverResult.loopDelayP99Ms,
      clientsCpuPercent: report.cpuPercent,
      clientsLoopDelayP99Ms: report.loopDelayP99Ms,
      clientsDropped: report.closed,
    };
  } finally {
    await Promise.all([stopChild(server, 3000), stopChild(clients, 3000)]);
  }
}

const cases: Case[] = [];
for (const clients of [1, 10, 100]) {
  cases.push({ server: 'hearth', coalesce: false, clients, rate: LATENCY_RATE });
  cases.push({ server: 'hearth', coalesce: true, clients, rate: LATENCY_RATE });
  cases.push({ server: 'ws', coalesce: false, clients, rate: LATENCY_RATE });
}
for (const server of [
  { server: 'hearth', coalesce: false },
  { server: 'hearth', coalesce: true },
  { server: 'ws', coalesce: false },
] as const) {
  cases.push({ ...server, clients: 100, rate: THROUGHPUT_RATE });
}

// WS_BENCH_ONLY=hearth:true:100:1000 runs the matching cases only (server:coalesce:clients:rate, `*` for any).
const only = process.env.WS_BENCH_ONLY?.split(':');
const selected = cases.filter(
  (c) =>
    only === undefined ||
    [c.server, String(c.coalesce), String(c.clients), String(c.rate)].every(
      (v, i) => only[i] === undefined || only[i] === '*' || only[i] === v,
    ),
);

const rows: Row[] = [];
for (const c of selected) {
  process.stderr.write(`ws-fanout: ${label(c)}, ${c.clients} clients, ${c.rate} changes/s ... `);
  const row = await runCase(c);
  rows.push(row);
  process.stderr.write(
    `${Math.round(row.deliveredPerSecond)} events/s, p99 ${row.p99Ms.toFixed(2)} ms, RSS ${row.serverRssMb.toFixed(0)} MB, server CPU ${row.serverCpuPercent.toFixed(0)} % loop p99 ${row.serverLoopDelayP99Ms.toFixed(1)} ms; clients CPU ${row.clientsCpuPercent.toFixed(0)} % loop p99 ${row.clientsLoopDelayP99Ms.toFixed(1)} ms\n`,
  );
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const lines = [
  `Server and clients in separate processes on 127.0.0.1 (${cpus().length} cores: ${cpus()[0]?.model ?? 'unknown'}); ${WARMUP_MS / 1000} s warm-up, then a ${DURATION_MS / 1000} s window. Latency: table write to receipt at the client.`,
  '',
  '| server | clients | changes/s | events/s offered | events/s delivered | delivered | p50 ms | p99 ms | max ms | server RSS MB | server CPU | clients dropped |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|',
];
for (const r of rows) {
  lines.push(
    `| ${r.label} | ${r.clients} | ${fmt(r.rate)} | ${fmt(r.offeredPerSecond)} | ${fmt(r.deliveredPerSecond)} | ${fmt(r.deliveredPercent, 1)} % | ${fmt(r.p50Ms, 2)} | ${fmt(r.p99Ms, 2)} | ${fmt(r.maxMs, 1)} | ${fmt(r.serverRssMb, 0)} | ${fmt(r.serverCpuPercent, 0)} % | ${r.clientsDropped} |`,
  );
}
const at = (server: ServerKind, coalesce: boolean, rate: number) =>
  rows.find((r) => r.server === server && r.coalesce === coalesce && r.clients === 100 && r.rate === rate);
const base = at('ws', false, THROUGHPUT_RATE);
const ratios: Record<string, number> = {};
for (const coalesce of [false, true]) {
  const h = at('hearth', coalesce, THROUGHPUT_RATE);
  if (h && base && base.deliveredPerSecond > 0) ratios[h.label] = h.deliveredPerSecond / base.deliveredPerSecond;
}
lines.push('');
for (const [name, ratio] of Object.entries(ratios)) {
  lines.push(`- ${name} delivers ${ratio.toFixed(1)}x the ws baseline's events/s at 100 clients and ${fmt(THROUGHPUT_RATE)} changes/s.`);
}
const latency = at('hearth', false, LATENCY_RATE);
if (latency) {
  lines.push(
    `- hearth, 100 clients x ${fmt(LATENCY_RATE)} changes/s: ${fmt(latency.deliveredPercent, 1)} % delivered in the window, p99 ${latency.p99Ms.toFixed(2)} ms (target: under 10 ms).`,
  );
}
console.log(lines.join('\n'));

mkdirSync(`${here}out`, { recursive: true });
// A filtered run (WS_BENCH_ONLY) does not overwrite the full results.
writeFileSync(
  `${here}out/ws-fanout${only === undefined ? '' : '.partial'}.json`,
  `${JSON.stringify({ benchmark: 'ws-fanout', warmupMs: WARMUP_MS, durationMs: DURATION_MS, cores: cpus().length, rows, ratios }, null, 2)}\n`,
);
