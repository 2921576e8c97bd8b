/**
 * GPIO edge to WebSocket latency: a binary_sensor on the fake GPIO line (the driver's own line interface,
 * debounce 0) toggles at a fixed rate, and 10 WebSocket clients subscribed to `state_changed` timestamp the
 * event when it arrives, while 1,000 other entities update in the same hub. Reported: p50/p99/max from the
 * edge (the moment the fake line fires it) to receipt, over every client and edge; and the in-process part
 * (edge to the event on the hub's bus) separately. Target: p99 under 2 ms.
 *
 * Three processes, as in bench/ws-fanout.ts, so neither side's work is counted in the other's latency: this
 * one runs the cases; `server` runs a real Hub (uWS, WebSocket API, the GPIO driver with a fake backend);
 * `clients` runs the ws clients. Both stamp with process.hrtime (CLOCK_MONOTONIC, shared by every process).
 * Writes bench/out/gpio-latency.json and prints a markdown table.
 */
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { monoMs, percentile } from './procs.js';
import { next, receiptLatencies, stopChild } from './ws-client-process.js';

const CLIENTS = 10;
const LOAD_ENTITIES = 1000;
const EDGE_HZ = Number(process.env.GPIO_BENCH_EDGE_HZ ?? 100);
const WARMUP_MS = 1000;
const DURATION_MS = Number(process.env.GPIO_BENCH_DURATION_MS ?? 5000);
const TARGET_P99_MS = 2;
const PIR = 'binary_sensor.bench_pir';
const PIR_PIN = 24;
/** The Pi 4 fixture (kernel 6.6): the driver resolves the chip base (512) from it, as on a real Pi. */
const SYSFS_ROOT = fileURLToPath(new URL('../test/fixtures/gpio/pi4-6.6/', import.meta.url));
const here = fileURLToPath(new URL('.', import.meta.url));
const self = fileURLToPath(import.meta.url);

interface Case {
  readonly label: string;
  /** `hub`: the real hub with the GPIO driver; `floor`: a bare `ws` server sending ready-made frames (the machine's floor). */
  readonly server: 'hub' | 'floor';
  /** Updates per second spread over the 1,000 load entities. */
  readonly loadRate: number;
  readonly coalesce: boolean;
}

type ToServer = { type: 'run'; loadRate: number; edgeHz: number; startAt: number; warmupMs: number; durationMs: number } | { type: 'exit' };
type FromServer =
  | { type: 'listening'; port: number; token: string }
  | { type: 'error'; message: string }
  | {
      type: 'done';
      /** Monotonic ms at which each edge was fired, warm-up included. */
      edges: number[];
      /** Edge to `state_changed` on the hub's bus, ms, per edge. */
      busMs: number[];
      loadWrites: number;
      loopDelayP99Ms: number;
      cpuPercent: number;
    };
type ToClients = { type: 'connect'; url: string; token: string; clients: number; coalesce: boolean } | { type: 'report' };
type FromClients = { type: 'ready' } | { type: 'error'; message: string } | { type: 'report'; receipts: number[][]; events: number };

// ---------------------------------------------------------------------------------------------- server

async function server(): Promise<void> {
  const { default: pino } = await import('pino');
  const { parseConfigText } = await import('../src/config/load.js');
  const { Hub, SECTION_VALIDATORS } = await import('../src/hub.js');
  const { INTEGRATIONS, withIntegrations } = await import('../src/sections.js');
  const { createGpioIntegration } = await import('../drivers/gpio/index.js');
  const { FakeGpioBackend } = await import('../drivers/gpio/fake-backend.js');

  const fake = new FakeGpioBackend();
  const yaml = [
    'hub:',
    '  name: GPIO bench',
    'gpio:',
    `  sysfs_root: ${JSON.stringify(SYSFS_ROOT)}`,
    '  poll_interval: 3600',
    '  devices:',
    '    - name: Bench PIR',
    '      binary_sensors:',
    `        - {pin: ${PIR_PIN}, name: Bench PIR, id: bench_pir, device_class: motion, debounce: 0}`,
    '',
  ].join('\n');
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-gpio-bench-'));
  const log = pino({ level: 'warn' }, pino.destination(2));
  const hub = await Hub.start({
    config: parseConfigText(yaml, null, SECTION_VALIDATORS),
    dataDir,
    log,
    host: '127.0.0.1',
    port: 0,
    integrations: withIntegrations(INTEGRATIONS, createGpioIntegration({ backend: async () => fake })),
  });
  const { states, bus } = hub.core;
  // The first poll exports the line and reports its level; edges count only after that.
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${PIR} never got a state`)), 10_000);
    const check = () => {
      if (states.get(PIR)?.state !== 'off') return false;
      clearTimeout(timer);
      off();
      resolve();
      return true;
    };
    const off = bus.on('bench', 'state_changed', check);
    check();
  });
  const wire = fake.wire(512 + PIR_PIN);
  const attrs = (i: number) => ({
    state_class: 'measurement',
    unit_of_measurement: '°C',
    device_class: 'temperature',
    friendly_name: `Load ${i}`,
  });
  const loadIds = Array.from({ length: LOAD_ENTITIES }, (_, i) => `sensor.load_${i}`);
  const loadAttrs = loadIds.map((_, i) => attrs(i));
  for (let i = 0; i < LOAD_ENTITIES; i++) states.set(loadIds[i] as string, '20.0', loadAttrs[i]);

  const owner = await hub.auth.ensureOwner('Bench');
  const token = await hub.auth.createToken(owner.id, 'gpio-bench');

  const run = async (r: Extract<ToServer, { type: 'run' }>): Promise<FromServer> => {
    const busMs: number[] = [];
    let lastEdge = 0;
    const offBus = bus.on('bench', 'state_changed', (e) => {
      if (e.data.entity_id === PIR) busMs.push(monoMs() - lastEdge);
    });
    const result = await drive(
      r,
      (level) => {
        lastEdge = monoMs();
        wire.set(level);
      },
      (n) => {
        const i = n % LOAD_ENTITIES;
        // A new value on every write of an entity (an unchanged one would fire no event).
        const round = Math.floor(n / LOAD_ENTITIES);
        states.set(loadIds[i] as string, (15 + ((round * 7 + i) % 1000) / 100).toFixed(2), loadAttrs[i]);
      },
    );
    offBus();
    return { ...result, busMs };
  };

  process.on('message', (m: ToServer) => {
    if (m.type === 'exit') {
      void hub
        .stop()
        .then(() => rm(dataDir, { recursive: true, force: true }))
        .finally(() => process.exit(0));
      return;
    }
    void run(m).then((result) => process.send?.(result));
  });
  process.on('disconnect', () => process.exit(0));
  process.send?.({ type: 'listening', port: hub.port, token } satisfies FromServer);
}

// ------------------------------------------------------------------------------------------ floor server

/**
 * The reference in the same run: a bare `ws` server that, on the same timers, sends a ready-made
 * state_changed frame to every client per edge (and one per load write). No hub, no driver, no JSON work:
 * whatever latency it shows is the machine's (scheduling, loopback, the client process), not hearth's.
 */
async function floorServer(): Promise<void> {
  const { WebSocketServer } = await import('ws');
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/api/websocket', perMessageDeflate: false });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const sockets = new Set<WebSocket>();
  wss.on('connection', (ws) => {
    ws.send('{"type":"auth_required","ha_version":"2025.1.0"}');
    ws.on('message', (data: Buffer) => {
      const text = data.toString();
      if (text.includes('"auth"')) ws.send('{"type":"auth_ok","ha_version":"2025.1.0"}');
      const id = /"id":(\d+)/.exec(text)?.[1];
      if (id !== undefined) ws.send(`{"id":${id},"type":"result","success":true,"result":null}`);
      if (text.includes('subscribe_events')) sockets.add(ws);
    });
    ws.on('close', () => sockets.delete(ws));
  });
  const event = (entityId: string, state: string) =>
    `{"id":2,"type":"event","event":{"event_type":"state_changed","data":{"entity_id":"${entityId}","old_state":null,"new_state":{"entity_id":"${entityId}","state":"${state}","attributes":{"device_class":"motion","friendly_name":"Bench PIR"},"last_changed":"2026-01-01T00:00:00+00:00","last_reported":"2026-01-01T00:00:00+00:00","last_updated":"2026-01-01T00:00:00+00:00","context":{"id":"01JGZ0000000000000000000000","parent_id":null,"user_id":null}}},"origin":"LOCAL","time_fired":"2026-01-01T00:00:00+00:00","context":{"id":"01JGZ0000000000000000000000","parent_id":null,"user_id":null}}}`;
  const pir = [event(PIR, 'off'), event(PIR, 'on')];
  const load = event('sensor.load_0', '20.0');
  const broadcast = (frame: string) => {
    for (const ws of sockets) ws.send(frame);
  };
  process.on('message', (m: ToServer) => {
    if (m.type === 'exit') {
      wss.close();
      process.exit(0);
    }
    void drive(
      m,
      (level) => broadcast(pir[level] as string),
      () => broadcast(load),
    ).then((r) => process.send?.({ ...r, busMs: [] } satisfies FromServer));
  });
  process.on('disconnect', () => process.exit(0));
  const address = wss.address();
  process.send?.({
    type: 'listening',
    port: typeof address === 'object' && address !== null ? address.port : 0,
    token: '',
  } satisfies FromServer);
}

// ---------------------------------------------------------------------------------------------- timers

/**
 * The run both servers share: `loadRate` load writes/s on a 1 ms timer with bounded catch-up, and edges at
 * `edgeHz` with a little jitter (so they do not line up with the load ticks). Each edge is stamped just
 * before `edge` fires it.
 */
async function drive(
  r: Extract<ToServer, { type: 'run' }>,
  edge: (level: 0 | 1) => void,
  loadWrite: (n: number) => void,
): Promise<Omit<Extract<FromServer, { type: 'done' }>, 'busMs'>> {
  const edges: number[] = [];
  const endAt = r.startAt + r.warmupMs + r.durationMs;
  const loop = monitorEventLoopDelay({ resolution: 1 });
  let cpu: NodeJS.CpuUsage | undefined;
  let cpuWall = 0;
  let loadWrites = 0;
  await new Promise<void>((resolve) => {
    const loadTick = (): void => {
      const now = monoMs();
      if (now >= endAt) return;
      if (now >= r.startAt) {
        if (cpu === undefined && now >= r.startAt + r.warmupMs) {
          cpu = process.cpuUsage();
          cpuWall = now;
          loop.enable();
        }
        const due = Math.floor(((now - r.startAt) * r.loadRate) / 1000);
        const n = Math.min(due - loadWrites, Math.ceil(r.loadRate / 10));
        for (let k = 0; k < n; k++) loadWrite(loadWrites++);
      }
      setTimeout(loadTick, 1);
    };
    const periodMs = 1000 / r.edgeHz;
    let level: 0 | 1 = 0;
    const fire = (): void => {
      if (monoMs() >= endAt) {
        resolve();
        return;
      }
      level = level === 0 ? 1 : 0;
      edges.push(monoMs());
      edge(level);
      setTimeout(fire, periodMs * (0.8 + Math.random() * 0.4));
    };
    setTimeout(loadTick, Math.max(0, r.startAt - monoMs()));
    setTimeout(fire, Math.max(0, r.startAt - monoMs()) + Math.random() * periodMs);
  });
  loop.disable();
  const used = process.cpuUsage(cpu);
  return {
    type: 'done',
    edges,
    loadWrites,
    loopDelayP99Ms: loop.percentile(99) / 1e6,
    cpuPercent: ((used.user + used.system) / 1000 / (monoMs() - cpuWall)) * 100,
  };
}

// --------------------------------------------------------------------------------------------- clients

function clients(): void {
  const MARK = Buffer.from(`{"entity_id":"${PIR}","old_state":`);
  const sockets: WebSocket[] = [];
  const receipts: number[][] = [];
  let events = 0;

  const open = (url: string, token: string, coalesce: boolean, index: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { perMessageDeflate: false, skipUTF8Validation: true });
      sockets.push(ws);
      const mine: number[] = [];
      receipts[index] = mine;
      let subscribed = false;
      ws.on('error', reject);
      ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', access_token: token })));
      ws.on('message', (data: Buffer) => {
        if (subscribed) {
          // Stamp first, then look: the search is not part of the hub's latency.
          const now = monoMs();
          events++;
          for (let at = data.indexOf(MARK); at !== -1; at = data.indexOf(MARK, at + MARK.length)) mine.push(now);
          return;
        }
        const text = data.toString();
        if (text.includes('"auth_ok"')) {
          if (coalesce) ws.send(JSON.stringify({ id: 1, type: 'supported_features', features: { coalesce_messages: 1 } }));
          ws.send(JSON.stringify({ id: 2, type: 'subscribe_events', event_type: 'state_changed' }));
        } else if (text.includes('"auth_invalid"')) reject(new Error(text));
        else if (/"id":2[,}]/.test(text) && text.includes('"success":true')) {
          subscribed = true;
          resolve();
        }
      });
    });

  process.on('message', (m: ToClients) => {
    if (m.type === 'connect') {
      Promise.all(Array.from({ length: m.clients }, (_, i) => open(m.url, m.token, m.coalesce, i)))
        .then(() => process.send?.({ type: 'ready' } satisfies FromClients))
        .catch((err: unknown) => process.send?.({ type: 'error', message: String(err) } satisfies FromClients));
    } else {
      process.send?.({ type: 'report', receipts, events } satisfies FromClients);
      for (const ws of sockets) ws.terminate();
      setImmediate(() => process.exit(0));
    }
  });
  process.on('disconnect', () => process.exit(0));
}

// ---------------------------------------------------------------------------------------------- parent

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
  const execArgv = ['--import', 'tsx'];
  const srv = fork(self, [c.server === 'hub' ? 'server' : 'floor-server'], { execArgv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const cli = fork(self, ['clients'], { execArgv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  try {
    const listening = await next<Extract<FromServer, { type: 'listening' }>>(srv, 'listening', 30_000);
    const ready = next<Extract<FromClients, { type: 'ready' }>>(cli, 'ready', 30_000);
    cli.send({
      type: 'connect',
      url: `ws://127.0.0.1:${listening.port}/api/websocket`,
      token: listening.token,
      clients: CLIENTS,
      coalesce: c.coalesce,
    } satisfies ToClients);
    await ready;
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
    // Let the last frames land before asking.
    await new Promise((r) => setTimeout(r, 200));
    const reportP = next<Extract<FromClients, { type: 'report' }>>(cli, 'report', 30_000);
    cli.send({ type: 'report' } satisfies ToClients);
    const report = await reportP;

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
    await Promise.all([stopChild(srv), stopChild(cli)]);
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
  mkdirSync(`${here}out`, { recursive: true });
  writeFileSync(
    `${here}out/gpio-latency.json`,
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

const role = process.argv[2];
if (role === 'server') {
  server().catch((err: unknown) => {
    process.send?.({ type: 'error', message: String(err) } satisfies FromServer);
    process.exit(1);
  });
} else if (role === 'floor-server') {
  floorServer().catch((err: unknown) => {
    process.send?.({ type: 'error', message: String(err) } satisfies FromServer);
    process.exit(1);
  });
} else if (role === 'clients') clients();
else await main();
