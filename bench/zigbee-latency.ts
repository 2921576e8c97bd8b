/**
 * Zigbee attribute report to WebSocket latency: the fake stick's temperature report of an Aqara sensor (through
 * herdsman's Controller, the converters and the hub) to CLIENTS WebSocket clients subscribed to `state_changed`, at
 * REPORT_HZ for DURATION_MS after a warm-up. Two processes besides the parent, as in bench/gpio-latency.ts: `server`
 * runs a real Hub with the Zigbee driver on the fake stick; bench/stamp-clients.ts runs the clients. Both stamp with
 * process.hrtime (CLOCK_MONOTONIC, shared by every process). Also the in-process part: report to the event on the
 * hub's bus.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFloorServer, stateChangedFrame } from './floor-ws-server.js';
import { monoMs, percentile } from './procs.js';
import { next, receiptLatencies, stampClients, stampReport, stopChild } from './ws-client-process.js';

export const CLIENTS = 10;
export const REPORT_HZ = Number(process.env.ZIGBEE_BENCH_REPORT_HZ ?? 100);
const WARMUP_MS = 2000;
export const DURATION_MS = Number(process.env.ZIGBEE_BENCH_DURATION_MS ?? 20_000);
export const TARGET_P99_MS = 2;
const SENSOR = 'sensor.bench_weather_temperature';
const self = fileURLToPath(import.meta.url);

type ToServer = { type: 'run'; startAt: number } | { type: 'exit' };
type FromServer =
  | { type: 'listening'; port: number; token: string }
  | { type: 'error'; message: string }
  | { type: 'done'; reports: number[]; busMs: number[] };

async function server(): Promise<void> {
  const { default: pino } = await import('pino');
  const { parseConfigText } = await import('../src/config/load.js');
  const { Hub, SECTION_VALIDATORS } = await import('../src/hub.js');
  const { CATALOGUE } = await import('../test/fixtures/zigbee/catalogue.js');
  const { FakeStick, quietZigbeeLogs } = await import('../test/fixtures/zigbee/fake-stick.js');
  await quietZigbeeLogs();
  const weather = CATALOGUE.weather;
  const stick = new FakeStick();
  stick.install();
  const yaml = `hub:\n  name: Zigbee bench\n  time_zone: Europe/Amsterdam\nzigbee:\n  devices:\n    '${weather.ieee}': {friendly_name: Bench Weather}\n`;
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-zigbee-bench-'));
  const hub = await Hub.start({
    config: parseConfigText(yaml, null, SECTION_VALIDATORS),
    dataDir,
    log: pino({ level: 'warn' }, pino.destination(2)),
    host: '127.0.0.1',
    port: 0,
  });
  const { states, bus, services } = hub.core;
  const waitUntil = async (check: () => boolean, what: string): Promise<void> => {
    for (const deadline = Date.now() + 30_000; !check(); await new Promise((r) => setTimeout(r, 20)))
      if (Date.now() > deadline) throw new Error(`zigbee latency: no ${what} within 30 s`);
  };
  await waitUntil(() => states.get('switch.zigbee_permit_join')?.state === 'off', 'Zigbee network');
  await services.call('zigbee', 'permit_join', { duration: 254 });
  stick.join('weather');
  await waitUntil(() => states.get(SENSOR) !== undefined, SENSOR);
  const owner = await hub.auth.ensureOwner('Bench');
  const token = await hub.auth.createToken(owner.id, 'zigbee-bench');

  const run = async (startAt: number): Promise<FromServer> => {
    const busMs: number[] = [];
    let last = 0;
    const off = bus.on('bench', 'state_changed', (e) => {
      if (e.data.entity_id === SENSOR) busMs.push(monoMs() - last);
    });
    const reports = await drive(startAt, (n) => {
      last = monoMs();
      // A new value on every report (an unchanged one fires no event): 10.00 to 29.99 °C.
      stick.report(weather.ieee, 1, 'msTemperatureMeasurement', { measuredValue: 1000 + (n % 2000) });
    });
    off();
    return { type: 'done', reports, busMs };
  };

  process.on('message', (m: ToServer) => {
    if (m.type === 'exit') {
      void hub
        .stop()
        .then(() => rm(dataDir, { recursive: true, force: true }))
        .finally(() => process.exit(0));
      return;
    }
    void run(m.startAt).then((result) => process.send?.(result));
  });
  process.on('disconnect', () => process.exit(0));
  process.send?.({ type: 'listening', port: hub.port, token } satisfies FromServer);
}

/** Fires `report` at about REPORT_HZ (a little jitter) from `startAt` for the warm-up and the run; the stamps, ms. */
async function drive(startAt: number, report: (n: number) => void): Promise<number[]> {
  const stamps: number[] = [];
  const endAt = startAt + WARMUP_MS + DURATION_MS;
  const periodMs = 1000 / REPORT_HZ;
  await new Promise<void>((resolve) => {
    const fire = (): void => {
      if (monoMs() >= endAt) {
        resolve();
        return;
      }
      stamps.push(monoMs());
      report(stamps.length - 1);
      setTimeout(fire, periodMs * (0.8 + Math.random() * 0.4));
    };
    setTimeout(fire, Math.max(0, startAt - monoMs()));
  });
  return stamps;
}

/** The reference in the same run: bench/floor-ws-server.ts's bare server, the same frame on the same timer. */
async function floorServer(): Promise<void> {
  const server = await startFloorServer();
  const frame = stateChangedFrame(
    SENSOR,
    '21.5',
    '{"device_class":"temperature","unit_of_measurement":"°C","friendly_name":"Bench Weather Temperature"}',
  );
  process.on('message', (m: ToServer) => {
    if (m.type === 'exit') {
      server.close();
      process.exit(0);
    }
    void drive(m.startAt, () => server.broadcast(frame)).then((reports) =>
      process.send?.({ type: 'done', reports, busMs: [] } satisfies FromServer),
    );
  });
  process.on('disconnect', () => process.exit(0));
  process.send?.({ type: 'listening', port: server.port, token: '' } satisfies FromServer);
}

export interface LatencyResult {
  readonly reports: number;
  readonly samples: number;
  /** Reports a client never received (should be 0). */
  readonly missing: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly busP50Ms: number;
  readonly busP99Ms: number;
}

/** Runs the server and the clients, fires the reports, and pairs each measured report with each client's receipt. */
export async function zigbeeLatency(serverRole: 'server' | 'floor-server'): Promise<LatencyResult> {
  const execArgv = ['--import', 'tsx'];
  const srv = fork(self, [serverRole], { execArgv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  let cli: ChildProcess | undefined;
  try {
    const listening = await next<Extract<FromServer, { type: 'listening' }>>(srv, 'listening', 60_000);
    const url = `ws://127.0.0.1:${listening.port}/api/websocket`;
    cli = await stampClients(url, listening.token, { clients: CLIENTS, coalesce: false, entityId: SENSOR });
    const startAt = monoMs() + 200;
    const done = next<Extract<FromServer, { type: 'done' }>>(srv, 'done', WARMUP_MS + DURATION_MS + 30_000);
    srv.send({ type: 'run', startAt } satisfies ToServer);
    const result = await done;
    const report = await stampReport(cli);

    const { measured, latencies, missing, bus } = receiptLatencies(result.reports, result.busMs, report.receipts, startAt + WARMUP_MS);
    return {
      reports: measured,
      samples: latencies.length,
      missing,
      p50Ms: percentile(latencies, 0.5),
      p99Ms: percentile(latencies, 0.99),
      maxMs: latencies.at(-1) ?? Number.NaN,
      busP50Ms: percentile(bus, 0.5),
      busP99Ms: percentile(bus, 0.99),
    };
  } finally {
    await Promise.all([stopChild(srv), cli === undefined ? undefined : stopChild(cli)]);
  }
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
}
