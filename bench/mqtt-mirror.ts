/**
 * 1,000 entities published by hub A, announced and their states mirrored on hub B, two ways:
 * - from A's start, B already up: A's process is spawned with B (empty but for `mqtt:`) connected; timed from the
 *   spawn, and from A's birth message at the broker (its MQTT connect);
 * - from B's start, A already up: a fresh B (new data directory) gets A's retained messages; timed from B's spawn
 *   and from B's birth message.
 * Mirrored: every one of A's entities on B's WebSocket client with a real state (not unavailable or unknown);
 * afterwards each state on B is checked against A's. The reference: the same number of messages (a config, an
 * availability, a state and attributes per entity, of the sizes hub A sends) from a bare mqtt.js publisher to a
 * bare subscriber of one wildcard, through the same kind of broker.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { entitiesYaml } from './configs.js';
import { type BenchBroker, mqttSection, startBenchBroker } from './mqtt-broker.js';
import { ask, forkObserver } from './mqtt-latency.js';
import type { BrokerLogin, FromObserver, HubAddress } from './mqtt-observer.js';
import { type DataDir, HUB_NODE_ARGS, type Hub, httpRequest, makeDataDir, monoMs, startHub } from './procs.js';
import { next } from './ws-client-process.js';

export const ENTITIES = 1000;
export const TARGET_S = 2;
const MARKER = '.bench_';
const DEADLINE_MS = 60_000;

export interface MirrorRow {
  readonly label: string;
  /** Seconds from the process's spawn, from its first 200 on /api/, from its birth at the broker, to all mirrored. */
  readonly fromSpawnS: number;
  readonly fromReadyS: number;
  readonly fromBirthS: number;
  /** States on B equal to A's when checked right after. */
  readonly equal: number;
  readonly entities: number;
}

type Mirrored = Extract<FromObserver, { type: 'mirrored' }>;
type Report = Extract<FromObserver, { type: 'report' }>;

const addr = (label: string, h: Hub): HubAddress => ({ label, port: h.port, token: h.token });
const login = (b: BenchBroker): BrokerLogin => ({ url: b.url, username: b.username, password: b.password });

async function statesOf(hub: Hub): Promise<Map<string, string>> {
  const r = await httpRequest(hub.port, '/api/states', { token: hub.token, timeoutMs: 30_000 });
  const list = JSON.parse(r.body.toString()) as { entity_id: string; state: string }[];
  return new Map(list.filter((s) => s.entity_id.includes(MARKER)).map((s) => [s.entity_id, s.state]));
}

/** How many of A's states B has the same (the virtual sensors change every minute or so: read twice if one differs). */
async function equalStates(a: Hub, b: Hub): Promise<number> {
  let best = 0;
  for (let attempt = 0; attempt < 3 && best < ENTITIES; attempt++) {
    const [sa, sb] = await Promise.all([statesOf(a), statesOf(b)]);
    best = Math.max(best, [...sa].filter(([id, s]) => sb.get(id) === s).length);
  }
  return best;
}

/**
 * Starts the measured hub while the observer watches the other side (and the broker for its birth message), and
 * returns the times to everything mirrored.
 */
async function timed(
  observer: ChildProcess,
  broker: BenchBroker,
  label: string,
  start: () => Promise<Hub>,
  watch: (h: Hub) => Hub,
  node: string,
): Promise<{ hub: Hub; row: Omit<MirrorRow, 'equal'> }> {
  await ask(
    observer,
    { type: 'stamp', label: 'birth', broker: login(broker), topic: `hearth/${node}/status`, payload: 'online' },
    'ready',
    10_000,
  );
  const t0 = monoMs();
  const hub = await start();
  const watched = watch(hub);
  const done = next<Mirrored>(observer, 'mirrored', DEADLINE_MS);
  observer.send({ type: 'mirror', hub: addr('B', watched), marker: MARKER, count: ENTITIES });
  const mirrored = await done;
  const report = await ask<Report>(observer, { type: 'report' }, 'report', 10_000);
  const birth = report.receipts.birth?.[0]?.[1] ?? Number.NaN;
  return {
    hub,
    row: {
      label,
      fromSpawnS: (mirrored.at - t0) / 1000,
      fromReadyS: (mirrored.at - t0 - hub.readyMs) / 1000,
      fromBirthS: (mirrored.at - birth) / 1000,
      entities: ENTITIES,
    },
  };
}

async function hubRows(): Promise<MirrorRow[]> {
  const broker = await startBenchBroker();
  const work = mkdtempSync(join(tmpdir(), 'hearth-mqtt-mirror-'));
  const dirs: DataDir[] = [];
  const hubs: Hub[] = [];
  const observers: ChildProcess[] = [];
  const hubFrom = async (file: string): Promise<Hub> => {
    const data = await makeDataDir();
    dirs.push(data);
    const hub = await startHub({ config: join(work, file), data, nodeArgs: HUB_NODE_ARGS });
    hubs.push(hub);
    return hub;
  };
  try {
    writeFileSync(join(work, 'a.yaml'), `${entitiesYaml(ENTITIES, 'Bench A')}${mqttSection(broker)}`);
    writeFileSync(join(work, 'b.yaml'), `hub:\n  name: Bench B\n${mqttSection(broker)}`);
    const b = await hubFrom('b.yaml');
    const first = forkObserver();
    observers.push(first);
    const one = await timed(
      first,
      broker,
      "from A's start, B already up",
      () => hubFrom('a.yaml'),
      () => b,
      'bench_a',
    );
    const a = one.hub;
    const rows: MirrorRow[] = [{ ...one.row, equal: await equalStates(a, b) }];
    await b.stop();
    const second = forkObserver();
    observers.push(second);
    const two = await timed(
      second,
      broker,
      "from B's start, A already up",
      () => hubFrom('b.yaml'),
      (h) => h,
      'bench_b',
    );
    rows.push({ ...two.row, equal: await equalStates(a, two.hub) });
    return rows;
  } finally {
    for (const o of observers) o.kill();
    for (const h of hubs.reverse()) await h.stop();
    for (const d of dirs) await d.remove();
    rmSync(work, { recursive: true, force: true });
    await broker.close();
  }
}

/** The floor: hub A's four retained messages per entity, of its sizes, from a bare publisher to a bare subscriber. */
async function bareRow(): Promise<MirrorRow> {
  const broker = await startBenchBroker();
  const observer = forkObserver();
  const client = mqtt.connect(broker.url, { username: broker.username, password: broker.password, reconnectPeriod: 0 });
  try {
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', reject);
    });
    await ask(observer, { type: 'mirror-mqtt', broker: login(broker), prefix: 'bench/bare', count: 4 * ENTITIES }, 'ready', 10_000);
    const done = next<Mirrored>(observer, 'mirrored', DEADLINE_MS);
    const config = JSON.stringify({ name: 'x'.repeat(24), padding: 'x'.repeat(900) });
    const attributes = JSON.stringify({
      state_class: 'measurement',
      unit_of_measurement: '°C',
      device_class: 'temperature',
      friendly_name: 'Bench temperature 1',
    });
    const t0 = monoMs();
    for (let i = 0; i < ENTITIES; i++) {
      const base = `bench/bare/sensor.bench_${i}`;
      client.publish(`${base}/config`, config, { qos: 1, retain: true });
      client.publish(`${base}/availability`, 'online', { qos: 1, retain: true });
      client.publish(`${base}/state`, '21.5', { retain: true });
      client.publish(`${base}/attributes`, attributes, { retain: true });
    }
    const mirrored = await done;
    const s = (mirrored.at - t0) / 1000;
    return {
      label: 'bare mqtt.js, the same 4,000 messages (reference)',
      fromSpawnS: s,
      fromReadyS: s,
      fromBirthS: s,
      equal: mirrored.count / 4,
      entities: ENTITIES,
    };
  } finally {
    observer.kill();
    await new Promise<void>((resolve) => client.end(false, {}, () => resolve()));
    await broker.close();
  }
}

export async function mirrorRows(): Promise<MirrorRow[]> {
  process.stderr.write('mqtt: 1,000 entities mirrored, bare mqtt.js ...\n');
  const bare = await bareRow();
  process.stderr.write('mqtt: 1,000 entities mirrored, hubs ...\n');
  return [bare, ...(await hubRows())];
}
