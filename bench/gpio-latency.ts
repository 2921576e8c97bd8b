/**
 * GPIO edge to WebSocket latency: a binary_sensor on the fake GPIO line (the driver's own line interface,
 * debounce 0) toggles at a fixed rate, and 10 WebSocket clients subscribed to `state_changed` timestamp the
 * event when it arrives, while 1,000 other entities update in the same hub. Reported: p50/p99/max from the
 * edge (the moment the fake line fires it) to receipt, over every client and edge; and the in-process part
 * (edge to the event on the hub's bus) separately. Target: p99 under 2 ms.
 *
 * Three processes, as in bench/ws-fanout.ts, so neither side's work is counted in the other's latency: this
 * one runs the cases; a server (gpio-latency-server.ts: a real Hub with the GPIO driver on a fake backend, or
 * gpio-latency-floor.ts: a bare `ws` server, the machine's floor) drives the edges and the load
 * (gpio-latency-drive.ts); stamp-clients.ts runs the ws clients. They speak gpio-latency-protocol.ts and
 * stamp with process.hrtime (CLOCK_MONOTONIC, shared by every process).
 * Writes bench/out/gpio-latency.json and prints a markdown table.
 */
import { type ChildProcess, type ForkOptions, fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { type FromServer, PIR, type ToServer } from './gpio-latency-protocol.js';
import { BENCH, monoMs, percentile, TSX } from './procs.js';
import { next, receiptLatencies, stampClients, stampReport, stopChild } from './ws-client-process.js';

const CLIENTS = 10;
const EDGE_HZ = Number(process.env.GPIO_BENCH_EDGE_HZ ?? 100);
const WARMUP_MS = 1000;
const DURATION_MS = Number(process.env.GPIO_BENCH_DURATION_MS ?? 5000);
const TARGET_P99_MS = 2;

interface Case {
  readonly label: string;
  /** `hub`: the real hub with the GPIO driver; `floor`: a bare `ws` server sending ready-made frames (the machine's floor). */
  readonly server: 'hub' | 'floor';
  /** Updates per second spread over the 1,000 load entities. */
  readonly loadRate: number;
  readonly coalesce: boolean;
}

interface Row extends Case {
  readonly clients: number;
  readonly edges: number;
  readonly samples: number;
  /** Edges a client never received (should be 0). */
  readonly missing: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly busP50Ms: number;
  readonly busP99Ms: number;
  readonly loadPerSecond: number;
  readonly framesPerClientPerSecond: number;
  readonly serverCpuPercent: number;
  readonly serverLoopDelayP99Ms: number;
  readonly meetsTarget: boolean;
}

async function runCase(c: Case): Promise<Row> {
  const options: ForkOptions = { execArgv: TSX, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] };
  const srv = fork(`${BENCH}gpio-latency-${c.server === 'hub' ? 'server' : 'floor'}.ts`, [], options);
  let cli: ChildProcess | undefined;
  try {
    const listening = await next<Extract<FromServer, { type: 'listening' }>>(srv, 'listening', 30_000);
    const url = `ws://127.0.0.1:${listening.port}/api/websocket`;
    cli = await stampClients(url, listening.token, { clients: CLIENTS, coalesce: c.coalesce, entityId: PIR });
    const startAt = monoMs() + 200;
    const done = next<Extract<FromServer, { type: 'done' }>>(srv, 'done', WARMUP_MS + DURATION_MS + 30_000);
    srv.send({
      type: 'run',
      loadRate: c.loadRate,
      edgeHz: EDGE_HZ,
      startAt,
      warmupMs: WARMUP_MS,
      durationMs: DURATION_MS,
    } satisfies ToServer);
    const result = await done;
    const report = await stampReport(cli);

    const {
      measured: measuredEdges,
      latencies,
      missing,
      bus,
    } = receiptLatencies(result.edges, result.busMs, report.receipts, startAt + WARMUP_MS);
    const seconds = (WARMUP_MS + DURATION_MS) / 1000;
    const p99 = percentile(latencies, 0.99);
    return {
      ...c,
      clients: CLIENTS,
      edges: measuredEdges,
      samples: latencies.length,
      missing,
      p50Ms: percentile(latencies, 0.5),
      p99Ms: p99,
      maxMs: latencies.at(-1) ?? Number.NaN,
      busP50Ms: percentile(bus, 0.5),
      busP99Ms: percentile(bus, 0.99),
      loadPerSecond: result.loadWrites / seconds,
      framesPerClientPerSecond: report.events / CLIENTS / seconds,
      serverCpuPercent: result.cpuPercent,
      serverLoopDelayP99Ms: result.loopDelayP99Ms,
      meetsTarget: missing === 0 && p99 < TARGET_P99_MS,
    };
  } finally {
    await Promise.all([stopChild(srv), cli === undefined ? undefined : stopChild(cli)]);
  }
}

const f = (n: number, digits = 3) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

async function main(): Promise<void> {
  const cases: Case[] = [
    { label: 'hearth, idle (no other updates)', server: 'hub', loadRate: 0, coalesce: false },
    { label: 'hearth, 1,000 entities × 1/s', server: 'hub', loadRate: 1000, coalesce: false },
    { label: 'hearth, 1,000 entities × 1/s, coalescing clients', server: 'hub', loadRate: 1000, coalesce: true },
    { label: 'hearth, 1,000 entities × 10/s', server: 'hub', loadRate: 10_000, coalesce: false },
    { label: 'floor: bare ws server, idle', server: 'floor', loadRate: 0, coalesce: false },
    { label: 'floor: bare ws server, 1,000/s', server: 'floor', loadRate: 1000, coalesce: false },
  ];
  const rows: Row[] = [];
  for (const c of cases) {
    process.stderr.write(`gpio-latency: ${c.label} ...\n`);
    rows.push(await runCase(c));
  }
  mkdirSync(`${BENCH}out`, { recursive: true });
  writeFileSync(
    `${BENCH}out/gpio-latency.json`,
    `${JSON.stringify(
      {
        benchmark: 'gpio-latency',
        clients: CLIENTS,
        edgeHz: EDGE_HZ,
        warmupMs: WARMUP_MS,
        durationMs: DURATION_MS,
        targetP99Ms: TARGET_P99_MS,
        cores: cpus().length,
        cpu: cpus()[0]?.model ?? 'unknown',
        node: process.version,
        rows,
      },
      null,
      2,
    )}\n`,
  );
  const lines = [
    `Edge on the fake GPIO line -> \`state_changed\` received by each of ${CLIENTS} WebSocket clients; ${EDGE_HZ} edges/s for ${DURATION_MS / 1000} s after ${WARMUP_MS / 1000} s warm-up; target p99 < ${TARGET_P99_MS} ms.`,
    '',
    '| load | samples | missing | p50 ms | p99 ms | max ms | edge->bus p50 / p99 ms | load writes/s | frames/client/s | server CPU % | loop delay p99 ms | p99 < 2 ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.label} | ${r.samples} | ${r.missing} | ${f(r.p50Ms)} | ${f(r.p99Ms)} | ${f(r.maxMs)} | ${f(r.busP50Ms)} / ${f(r.busP99Ms)} | ${Math.round(r.loadPerSecond)} | ${Math.round(r.framesPerClientPerSecond)} | ${f(r.serverCpuPercent, 0)} | ${f(r.serverLoopDelayP99Ms, 2)} | ${r.server === 'floor' ? '(reference)' : r.meetsTarget ? 'yes' : 'no'} |`,
    ),
  ];
  console.log(lines.join('\n'));
}

await main();
