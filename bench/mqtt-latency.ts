/**
 * State change on hub A to a WebSocket client of hub B through the broker: the driver (this process) sets the state
 * of a published sensor on hub A with REST at a fixed rate, its value a sequence number; hub A publishes it, hub B
 * adopts it, and the observer process stamps it on a WebSocket client of each hub. Hub A's own client is the
 * reference inside the same run (REST and A's fan-out, without the broker); a bare mqtt.js publisher to a bare
 * subscriber through the same mosquitto, at the same rate with the same two messages per change, is the other.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { entitiesYaml } from './configs.js';
import { mqttSection, startBenchBroker } from './mqtt-broker.js';
import type { FromObserver, HubAddress, ToObserver } from './mqtt-observer.js';
import { BENCH, HUB_NODE_ARGS, type Hub, makeDataDir, monoMs, percentile, sleep, startHub, TSX } from './procs.js';
import { next } from './ws-client-process.js';

export const RATE = Number(process.env.MQTT_BENCH_RATE ?? 200);
export const CHANGES = Number(process.env.MQTT_BENCH_CHANGES ?? 3000);
export const WARMUP = 200;
export const TARGET_P99_MS = 10;
const PROBE = 'sensor.bench_probe';
const PROBE_YAML = '  - {platform: sensor, id: bench_probe, name: Bench probe, device_class: temperature, interval: 86400}';
const ATTRIBUTES = { unit_of_measurement: '°C', device_class: 'temperature', state_class: 'measurement', friendly_name: 'Bench probe' };
/** Sequence numbers start here, clear of any reading the virtual sensor gives itself. */
const SEQ0 = 1_000_000;

export interface LatencyRow {
  readonly label: string;
  readonly path: string;
  readonly changes: number;
  readonly missing: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** The row's target applies (hub B's client); the others are references. */
  readonly target: boolean;
  /** Hub B's client: per change, its receipt less hub A's client's (what the broker and hub B add). */
  readonly hopP50Ms?: number;
  readonly hopP99Ms?: number;
}

export function forkObserver(): ChildProcess {
  return fork(`${BENCH}mqtt-observer.ts`, [], { execArgv: TSX, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
}

export async function ask<T extends FromObserver>(observer: ChildProcess, m: ToObserver, reply: T['type'], ms: number): Promise<T> {
  const answer = next<T>(observer, reply, ms);
  observer.send(m);
  return answer;
}

/**
 * Calls `fire(i)` for i in 0..count-1 at `rate` per second and returns when each was fired. A late tick fires
 * once and the schedule moves on from now: no bursts to catch up. Bounded by count and by twice the planned time.
 */
export async function drive(count: number, rate: number, fire: (i: number) => void): Promise<number[]> {
  const period = 1000 / rate;
  const sent: number[] = [];
  const deadline = monoMs() + (2 * count * period + 5000);
  let due = monoMs();
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const now = monoMs();
      if (now >= due) {
        sent.push(now);
        fire(sent.length - 1);
        due = Math.max(due + period, now);
      }
      if (sent.length >= count || now > deadline) resolve();
      else setTimeout(tick, Math.max(0, due - monoMs() - 0.5));
    };
    tick();
  });
  return sent;
}

function rowOf(
  label: string,
  path: string,
  sent: readonly number[],
  receipts: readonly [number, number][] = [],
  base?: readonly [number, number][],
): LatencyRow {
  const at = new Map(receipts);
  const baseAt = new Map(base ?? []);
  const latencies: number[] = [];
  const hops: number[] = [];
  let missing = 0;
  for (let i = WARMUP; i < sent.length; i++) {
    const t = at.get(SEQ0 + i);
    const b = baseAt.get(SEQ0 + i);
    if (t === undefined) missing++;
    else latencies.push(t - (sent[i] as number));
    if (t !== undefined && b !== undefined) hops.push(t - b);
  }
  latencies.sort((a, b) => a - b);
  hops.sort((a, b) => a - b);
  const target = base !== undefined;
  return {
    label,
    path,
    changes: sent.length - WARMUP,
    missing,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    maxMs: latencies.at(-1) ?? Number.NaN,
    target,
    ...(target ? { hopP50Ms: percentile(hops, 0.5), hopP99Ms: percentile(hops, 0.99) } : {}),
  };
}

/** A REST client on one kept-alive connection, setting the probe's state on hub A. */
function prober(hub: Hub): { post(seq: number): void; failures(): number; close(): void } {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let failed = 0;
  return {
    post(seq) {
      const req = request(
        {
          host: '127.0.0.1',
          port: hub.port,
          path: `/api/states/${PROBE}`,
          method: 'POST',
          agent,
          headers: { authorization: `Bearer ${hub.token}`, 'content-type': 'application/json' },
        },
        (res) => {
          if (res.statusCode !== 200 && res.statusCode !== 201) failed++;
          res.resume();
        },
      );
      req.on('error', () => failed++);
      req.end(JSON.stringify({ state: String(seq), attributes: ATTRIBUTES }));
    },
    failures: () => failed,
    close: () => agent.destroy(),
  };
}

/** Hubs A (the probe and `entities` published) and B (adopting) on a fresh broker; the change latency through both. */
async function hubCase(entities: number): Promise<LatencyRow[]> {
  const broker = await startBenchBroker();
  const work = mkdtempSync(join(tmpdir(), 'hearth-mqtt-latency-'));
  const dataA = await makeDataDir();
  const dataB = await makeDataDir();
  const hubs: Hub[] = [];
  const observer = forkObserver();
  try {
    const yamlA = `${entities > 0 ? entitiesYaml(entities, 'Bench A') : 'hub:\n  name: Bench A\nvirtual:\n'}${PROBE_YAML}\n${mqttSection(broker)}`;
    writeFileSync(join(work, 'a.yaml'), yamlA);
    writeFileSync(join(work, 'b.yaml'), `hub:\n  name: Bench B\n${mqttSection(broker)}`);
    const b = await startHub({ config: join(work, 'b.yaml'), data: dataB, nodeArgs: HUB_NODE_ARGS });
    hubs.push(b);
    const a = await startHub({ config: join(work, 'a.yaml'), data: dataA, nodeArgs: HUB_NODE_ARGS });
    hubs.push(a);
    const addr = (label: string, h: Hub): HubAddress => ({ label, port: h.port, token: h.token });
    // Every entity of A mirrored on B before the run, so the start-up burst is not measured.
    await ask(observer, { type: 'mirror', hub: addr('B', b), marker: '.bench_', count: entities + 1 }, 'mirrored', 60_000);
    await ask(observer, { type: 'watch', hubs: [addr('A', a), addr('B', b)], entityId: PROBE }, 'ready', 30_000);
    const probe = prober(a);
    const sent = await drive(WARMUP + CHANGES, RATE, (i) => probe.post(SEQ0 + i));
    await sleep(500);
    probe.close();
    if (probe.failures() > 0) throw new Error(`${probe.failures()} REST state changes on hub A failed`);
    const report = await ask<Extract<FromObserver, { type: 'report' }>>(observer, { type: 'report' }, 'report', 30_000);
    const load = entities > 0 ? `, ${entities.toLocaleString('en')} more entities published` : ', idle';
    return [
      rowOf(`hub A's WebSocket client${load}`, 'REST on A → A → WebSocket (reference)', sent, report.receipts.A),
      rowOf(
        `hub B's WebSocket client${load}`,
        'REST on A → A → mosquitto → B → WebSocket',
        sent,
        report.receipts.B,
        report.receipts.A ?? [],
      ),
    ];
  } finally {
    observer.kill();
    for (const h of hubs.reverse()) await h.stop();
    await dataA.remove();
    await dataB.remove();
    rmSync(work, { recursive: true, force: true });
    await broker.close();
  }
}

/** The floor: a bare mqtt.js publisher to a bare mqtt.js subscriber, the hub's two retained messages per change. */
async function bareCase(): Promise<LatencyRow> {
  const broker = await startBenchBroker();
  const observer = forkObserver();
  const login = { url: broker.url, username: broker.username, password: broker.password };
  const client = mqtt.connect(broker.url, { username: broker.username, password: broker.password, reconnectPeriod: 0 });
  try {
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', reject);
    });
    await ask(observer, { type: 'subscribe', label: 'bare', broker: login, prefix: 'bench/bare' }, 'ready', 30_000);
    const attributes = JSON.stringify(ATTRIBUTES);
    const sent = await drive(WARMUP + CHANGES, RATE, (i) => {
      client.publish(`bench/bare/${PROBE}/state`, String(SEQ0 + i), { retain: true });
      client.publish(`bench/bare/${PROBE}/attributes`, attributes, { retain: true });
    });
    await sleep(500);
    const report = await ask<Extract<FromObserver, { type: 'report' }>>(observer, { type: 'report' }, 'report', 30_000);
    return rowOf('bare mqtt.js subscriber', 'mqtt.js publish → mosquitto → mqtt.js (reference)', sent, report.receipts.bare);
  } finally {
    observer.kill();
    await new Promise<void>((resolve) => client.end(false, {}, () => resolve()));
    await broker.close();
  }
}

export async function latencyRows(): Promise<LatencyRow[]> {
  process.stderr.write('mqtt: latency, bare mqtt.js ...\n');
  const bare = await bareCase();
  process.stderr.write('mqtt: latency, two idle hubs ...\n');
  const idle = await hubCase(0);
  process.stderr.write('mqtt: latency, hub A with 1,000 published entities ...\n');
  const loaded = await hubCase(1000);
  return [bare, ...idle, ...loaded];
}
