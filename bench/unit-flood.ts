/**
 * The hub as systemd starts it: `node <the unit's ExecStart flags> dist/hearth/cli.js serve` with the unit's
 * `Environment=` and nothing from the shell, the bundled demo configuration, on 127.0.0.1.
 *
 * Ready: spawn to the first 200 from GET /api/ (the hub tells systemd READY=1 on the same step: Hub.start has
 * resolved), READY_RUNS starts of one data directory (after an untimed first, which keeps V8's code cache there)
 * in turn with a bare Node + uWS server; and the first starts of the flood runs' fresh data directories.
 * Flood: 100 WebSocket subscribers in a process of their own (60 subscribe_events state_changed, 20 of them
 * after `supported_features` coalesce_messages, 20 subscribe_entities), then 20,000 light toggles over 16
 * keep-alive REST connections as fast as the hub answers, each a state change sent to every subscriber.
 * RSS is VmRSS from /proc/<pid>/status, read from outside: right after the last toggle is answered, and once
 * every subscriber has its events. FLOOD_RUNS runs, each with a fresh hub and data directory; medians.
 * Prints markdown; writes bench/out/unit-flood.json.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import {
  BENCH,
  type DataDir,
  fmt,
  freePort,
  makeDataDir,
  median,
  memoryOf,
  monoMs,
  sleep,
  spawnFloor,
  startHub,
  stopProcess,
  TSX,
  UNIT_ENV,
  UNIT_NODE_ARGS,
  waitFor200,
} from './procs.js';
import type { FromSubscribers, SubscriberKind, ToSubscribers } from './unit-flood-clients.js';
import { next } from './ws-client-process.js';

const READY_RUNS = Number(process.env.READY_RUNS ?? 9);
const FLOOD_RUNS = Number(process.env.FLOOD_RUNS ?? 5);
const CHANGES = Number(process.env.FLOOD_CHANGES ?? 20_000);
const CONNECTIONS = 16;
const KINDS: readonly SubscriberKind[] = Array.from({ length: 100 }, (_, i) =>
  i % 5 === 3 ? 'coalesced-events' : i % 5 === 4 ? 'entities' : 'events',
);
/** The demo's lights (config/demo.yaml), toggled in turn. */
const LIGHTS = ['light.living_room', 'light.kitchen', 'light.bedroom', 'light.hallway'];
const TARGET_RSS_MB = 64;
const TARGET_READY_MS = 150;
// FLOOD_BENCH_CLI: another build's cli.js, to compare two builds under the same conditions; UNIT_FLOOD_EXTRA_ARGS:
// node flags added to the unit's, to try one.
const CLI = process.env.FLOOD_BENCH_CLI;
const NODE_ARGS = [...UNIT_NODE_ARGS, ...(process.env.UNIT_FLOOD_EXTRA_ARGS ?? '').split(' ').filter(Boolean)];

/** VmHWM: the process's peak RSS so far. */
function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/** `total` toggles over `connections` keep-alive connections, each sending the next once answered. */
async function flood(port: number, token: string, total: number, connections: number): Promise<{ errors: number; seconds: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const bodies = LIGHTS.map((entity_id) => JSON.stringify({ entity_id }));
  let sent = 0;
  let errors = 0;
  const one = (body: string) =>
    new Promise<void>((resolve) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/api/services/light/toggle',
          method: 'POST',
          agent,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        },
        (res) => {
          if (res.statusCode !== 200) errors++;
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(body);
    });
  const t0 = monoMs();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (sent < total) await one(bodies[sent++ % bodies.length] as string);
    }),
  );
  agent.destroy();
  return { errors, seconds: (monoMs() - t0) / 1000 };
}

function countOf(subscribers: ChildProcess): Promise<Extract<FromSubscribers, { type: 'count' }>> {
  const reply = next<Extract<FromSubscribers, { type: 'count' }>>(subscribers, 'count', 10_000);
  subscribers.send({ type: 'count' } satisfies ToSubscribers);
  return reply;
}

interface FloodRun {
  readonly readyMs: number;
  readonly subscribedRssMb: number;
  readonly afterRssMb: number;
  readonly afterAnonMb: number;
  readonly deliveredRssMb: number;
  readonly peakRssMb: number;
  readonly changesPerSecond: number;
  readonly errors: number;
  readonly deliveredPercent: number;
  readonly closed: number;
}

async function floodOnce(): Promise<FloodRun> {
  const data = await makeDataDir();
  const hub = await startHub({ config: null, data, nodeArgs: NODE_ARGS, cli: CLI });
  const pid = hub.child.pid as number;
  const subscribers = fork(`${BENCH}unit-flood-clients.ts`, [], { execArgv: TSX, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  try {
    const ready = next(subscribers, 'ready', 60_000);
    subscribers.send({
      type: 'connect',
      url: `ws://127.0.0.1:${hub.port}/api/websocket`,
      token: hub.token,
      kinds: KINDS,
    } satisfies ToSubscribers);
    await ready;
    await sleep(1000);
    const subscribed = memoryOf(pid);
    const start = await countOf(subscribers);
    const { errors, seconds } = await flood(hub.port, hub.token, CHANGES, CONNECTIONS);
    const after = memoryOf(pid);
    // Every state_changed subscriber has all its events (or 10 s have passed).
    const expected = CHANGES * KINDS.filter((k) => k !== 'entities').length;
    const until = monoMs() + 10_000;
    let count = await countOf(subscribers);
    const received = () => count.events.events + count.events['coalesced-events'] - start.events.events - start.events['coalesced-events'];
    while (received() < expected && monoMs() < until) {
      await sleep(20);
      count = await countOf(subscribers);
    }
    return {
      readyMs: hub.readyMs,
      subscribedRssMb: subscribed.rssMb,
      afterRssMb: after.rssMb,
      afterAnonMb: after.anonMb,
      deliveredRssMb: memoryOf(pid).rssMb,
      peakRssMb: peakRssMb(pid),
      changesPerSecond: CHANGES / seconds,
      errors,
      deliveredPercent: (received() / expected) * 100,
      closed: count.closed,
    };
  } finally {
    subscribers.kill('SIGKILL');
    await hub.stop();
    await data.remove();
  }
}

/** Spawn to the first 200 of a bare Node + uWS server, in the unit's environment. */
async function floorReadyMs(): Promise<number> {
  const port = await freePort();
  const t0 = monoMs();
  const child = spawnFloor('uws', port);
  child.stdout?.resume();
  const at = await waitFor200(child, port, '/api/', undefined);
  await stopProcess(child);
  return at - t0;
}

async function readyOnce(data: DataDir): Promise<number> {
  const hub = await startHub({ config: null, data, nodeArgs: NODE_ARGS, cli: CLI });
  await hub.stop();
  return hub.readyMs;
}

const readyData = await makeDataDir();
const hubReady: number[] = [];
const floorReady: number[] = [];
try {
  // The first start writes the data directory and keeps the compiled code (src/cli/code-cache.ts): untimed.
  await readyOnce(readyData);
  for (let run = 0; run < READY_RUNS; run++) {
    floorReady.push(await floorReadyMs());
    hubReady.push(await readyOnce(readyData));
  }
} finally {
  await readyData.remove();
}
const runs: FloodRun[] = [];
for (let run = 0; run < FLOOD_RUNS; run++) {
  runs.push(await floodOnce());
  process.stderr.write(`unit-flood: run ${run + 1}/${FLOOD_RUNS}\n`);
}

function floodRow(name: string, r: FloodRun): string {
  const mb = [r.subscribedRssMb, r.afterRssMb, r.afterAnonMb, r.deliveredRssMb, r.peakRssMb].map((x) => fmt(x, 1));
  return `| ${name} | ${fmt(r.changesPerSecond)} | ${fmt(r.deliveredPercent, 1)} % | ${fmt(r.closed)} | ${mb.join(' | ')} |`;
}
const med = (pick: (r: FloodRun) => number) => median(runs.map(pick));
const readyMs = median(hubReady);
const firstReady = runs.map((r) => r.readyMs);
const firstReadyMs = median(firstReady);
const afterMb = med((r) => r.afterRssMb);
const lines = [
  `hearth as the systemd unit starts it: \`node ${NODE_ARGS.join(' ')} dist/hearth/cli.js serve\` with the unit's environment (${Object.entries(
    UNIT_ENV,
  )
    .map(([k, v]) => `${k}=${v}`)
    .join(' ')}), the bundled demo configuration.`,
  '',
  `Ready: spawn to the first 200 from GET /api/, ms, ${READY_RUNS} starts interleaved with a bare Node + uWS server.`,
  '',
  '| process | median | min | max | vs Node + uWS |',
  '|---|---:|---:|---:|---:|',
  `| Node + uWS | ${fmt(median(floorReady))} | ${fmt(Math.min(...floorReady))} | ${fmt(Math.max(...floorReady))} | 1.00x |`,
  `| hearth, demo | ${fmt(readyMs)} | ${fmt(Math.min(...hubReady))} | ${fmt(Math.max(...hubReady))} | ${(readyMs / median(floorReady)).toFixed(2)}x |`,
  `| hearth, demo, first start of a data directory (no code cache yet; the flood runs) | ${fmt(firstReadyMs)} | ${fmt(Math.min(...firstReady))} | ${fmt(Math.max(...firstReady))} | ${(firstReadyMs / median(floorReady)).toFixed(2)}x |`,
  '',
  `Flood: ${KINDS.length} WebSocket subscribers (${KINDS.filter((k) => k === 'events').length} subscribe_events state_changed, ${KINDS.filter((k) => k === 'coalesced-events').length} of them with coalesce_messages, ${KINDS.filter((k) => k === 'entities').length} subscribe_entities), then ${fmt(CHANGES)} light toggles over ${CONNECTIONS} keep-alive connections as fast as the hub answers. VmRSS in MB read from outside; ${FLOOD_RUNS} runs, each a fresh hub.`,
  '',
  '| run | changes/s | delivered | dropped | RSS subscribed | RSS right after | anon right after | RSS delivered | peak (VmHWM) |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...runs.map((r, i) => floodRow(String(i + 1), r)),
  floodRow('median', {
    readyMs,
    subscribedRssMb: med((r) => r.subscribedRssMb),
    afterRssMb: afterMb,
    afterAnonMb: med((r) => r.afterAnonMb),
    deliveredRssMb: med((r) => r.deliveredRssMb),
    peakRssMb: med((r) => r.peakRssMb),
    changesPerSecond: med((r) => r.changesPerSecond),
    errors: med((r) => r.errors),
    deliveredPercent: med((r) => r.deliveredPercent),
    closed: med((r) => r.closed),
  }),
];
const targets = [
  {
    target: `RSS <= ${TARGET_RSS_MB} MB right after ${fmt(CHANGES)} changes to 100 WebSocket subscribers, demo, as the unit starts it`,
    text: `${fmt(afterMb, 1)} MB (median of ${FLOOD_RUNS})`,
    met: afterMb <= TARGET_RSS_MB,
  },
  {
    target: `ready <= ${TARGET_READY_MS} ms, demo, as the unit starts it`,
    text: `${fmt(readyMs)} ms (median of ${READY_RUNS}; Node + uWS ${fmt(median(floorReady))} ms)`,
    met: readyMs <= TARGET_READY_MS,
  },
];
lines.push('');
for (const t of targets) lines.push(`- ${t.target}: ${t.text} (${t.met ? 'met' : 'missed'})`);
console.log(lines.join('\n'));
mkdirSync(`${BENCH}out`, { recursive: true });
writeFileSync(
  `${BENCH}out/unit-flood.json`,
  `${JSON.stringify({ benchmark: 'unit-flood', nodeArgs: NODE_ARGS, env: UNIT_ENV, hubReady, floorReady, runs, targets }, null, 2)}\n`,
);
