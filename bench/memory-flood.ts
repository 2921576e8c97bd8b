/**
 * Memory under a flood of state changes, and the time to ready, with the hub as the systemd unit starts it: `node
 * <the unit's ExecStart flags> dist/hearth/cli.js serve` with the unit's `Environment=` and nothing from the shell
 * (bench/procs.ts reads both from systemd/hearth.service), on 127.0.0.1. Two loads, each with 100 WebSocket
 * subscribers in a process of their own (bench/ws-clients.ts):
 *
 * - unit: the bundled demo; 60 subscribe_events state_changed (20 of them after `supported_features`
 *   coalesce_messages) and 20 subscribe_entities; then FLOOD_CHANGES (20,000) light toggles over 16 keep-alive REST
 *   connections as fast as the hub answers. RSS right after the last toggle is answered and once every subscriber has
 *   its events; FLOOD_RUNS (5) runs, each a fresh hub and data directory, medians. Before it, ready: spawn to the
 *   first 200 from GET /api/ (the hub tells systemd READY=1 on the same step), READY_RUNS (9) starts of one data
 *   directory (after an untimed first, which keeps V8's code cache there), in turn with a bare Node + uWS server.
 * - paced: 1,000 virtual entities, 100 subscribe_events clients, settled; then FLOOD_BENCH_RATE (1,000) toggles a
 *   second for FLOOD_BENCH_SECONDS (10) on 50 lights; RSS right after, its peak during, and one reading a second for
 *   the minute after.
 *
 * RSS is VmRSS from /proc/<pid>/status, read from outside. FLOOD_PARTS (unit,paced) picks the loads;
 * FLOOD_BENCH_CLI runs another build's cli.js (to compare two builds under the same conditions); FLOOD_EXTRA_ARGS adds
 * node flags to the unit's, to try one. Prints markdown; writes bench/out/memory-flood.json.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeEntitiesConfig } from './configs.js';
import { anonSplit, peakRssMb, toggles } from './flood-load.js';
import {
  BENCH,
  type DataDir,
  fmt,
  freePort,
  type Hub,
  makeDataDir,
  median,
  memoryOf,
  monoMs,
  sleep,
  spawnFloor,
  startHub,
  stopProcess,
  UNIT_ENV,
  UNIT_NODE_ARGS,
  waitFor200,
} from './procs.js';
import { connectClients, next, subscribers } from './ws-client-process.js';
import type { FromClients, SubscriberKind, ToClients } from './ws-clients.js';

const PARTS = new Set((process.env.FLOOD_PARTS ?? 'unit,paced').split(','));
const READY_RUNS = Number(process.env.READY_RUNS ?? 9);
const FLOOD_RUNS = Number(process.env.FLOOD_RUNS ?? 5);
const CHANGES = Number(process.env.FLOOD_CHANGES ?? 20_000);
const RATE = Number(process.env.FLOOD_BENCH_RATE ?? 1000);
const PACED_S = Number(process.env.FLOOD_BENCH_SECONDS ?? 10);
const SETTLE_MS = Number(process.env.MEMORY_BENCH_SETTLE_MS ?? 12_000);
const IDLE_S = Number(process.env.FLOOD_IDLE_S ?? 60);
const CONNECTIONS = 16;
const UNIT_KINDS: readonly SubscriberKind[] = Array.from({ length: 100 }, (_, i) =>
  i % 5 === 3 ? 'coalesced-events' : i % 5 === 4 ? 'entities' : 'events',
);
/** The demo's lights (config/demo.yaml), toggled in turn. */
const DEMO_LIGHTS = ['light.living_room', 'light.kitchen', 'light.bedroom', 'light.hallway'];
/** The lights of the 1,000-entity config (bench/configs.ts: 5 %). */
const PACED_LIGHTS = Array.from({ length: 50 }, (_, i) => `light.bench_light_${i}`);
const TARGET_RSS_MB = 64;
const TARGET_READY_MS = 150;
const CLI = process.env.FLOOD_BENCH_CLI;
const NODE_ARGS = [...UNIT_NODE_ARGS, ...(process.env.FLOOD_EXTRA_ARGS ?? '').split(' ').filter(Boolean)];

const bodiesOf = (lights: readonly string[]) => lights.map((entity_id) => JSON.stringify({ entity_id }));
const stateChanged = (c: Extract<FromClients, { type: 'count' }>) => c.events.events + c.events['coalesced-events'];

function countOf(clients: ChildProcess): Promise<Extract<FromClients, { type: 'count' }>> {
  const reply = next<Extract<FromClients, { type: 'count' }>>(clients, 'count', 10_000);
  clients.send({ type: 'count' } satisfies ToClients);
  return reply;
}

/** Waits until the state_changed subscribers have `expected` events more than at `start` (at most 10 s). */
async function delivered(clients: ChildProcess, start: number, expected: number): Promise<Extract<FromClients, { type: 'count' }>> {
  const until = monoMs() + 10_000;
  let count = await countOf(clients);
  while (stateChanged(count) - start < expected && monoMs() < until) {
    await sleep(20);
    count = await countOf(clients);
  }
  return count;
}

interface FloodRun {
  readonly readyMs: number;
  readonly subscribedRssMb: number;
  readonly afterRssMb: number;
  readonly afterAnonMb: number;
  readonly afterV8PagesMb: number;
  readonly deliveredRssMb: number;
  readonly peakRssMb: number;
  readonly changesPerSecond: number;
  readonly errors: number;
  readonly deliveredPercent: number;
  readonly closed: number;
}

async function withHub<T>(config: string | null, run: (hub: Hub) => Promise<T>): Promise<T> {
  const data = await makeDataDir();
  const hub = await startHub({ config, data, nodeArgs: NODE_ARGS, cli: CLI });
  try {
    return await run(hub);
  } finally {
    await hub.stop();
    await data.remove();
  }
}

/** The unit load: the demo, 100 subscribers of three kinds, CHANGES toggles as fast as the hub answers. */
function unitFloodOnce(): Promise<FloodRun> {
  return withHub(null, async (hub) => {
    const pid = hub.child.pid as number;
    const clients = await connectClients(hub.port, hub.token, UNIT_KINDS);
    try {
      await sleep(1000);
      const subscribed = memoryOf(pid);
      const start = stateChanged(await countOf(clients));
      const flood = await toggles({
        port: hub.port,
        token: hub.token,
        bodies: bodiesOf(DEMO_LIGHTS),
        total: CHANGES,
        connections: CONNECTIONS,
      });
      const after = memoryOf(pid);
      const afterSplit = anonSplit(pid);
      const expected = CHANGES * UNIT_KINDS.filter((k) => k !== 'entities').length;
      const count = await delivered(clients, start, expected);
      return {
        readyMs: hub.readyMs,
        subscribedRssMb: subscribed.rssMb,
        afterRssMb: after.rssMb,
        afterAnonMb: after.anonMb,
        afterV8PagesMb: afterSplit.v8PagesMb,
        deliveredRssMb: memoryOf(pid).rssMb,
        peakRssMb: peakRssMb(pid),
        changesPerSecond: CHANGES / flood.seconds,
        errors: flood.errors,
        deliveredPercent: ((stateChanged(count) - start) / expected) * 100,
        closed: count.closed,
      };
    } finally {
      clients.kill('SIGKILL');
    }
  });
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

interface Target {
  readonly target: string;
  readonly text: string;
  readonly met: boolean;
}

const lines: string[] = [];
const targets: Target[] = [];
const json: Record<string, unknown> = { benchmark: 'memory-flood', nodeArgs: NODE_ARGS, env: UNIT_ENV };
const unitEnv = Object.entries(UNIT_ENV)
  .map(([k, v]) => `${k}=${v}`)
  .join(' ');
lines.push(
  `hearth as the systemd unit starts it: \`node ${NODE_ARGS.join(' ')} dist/hearth/cli.js serve\` with the unit's environment (${unitEnv}).`,
  '',
);

if (PARTS.has('unit')) {
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
    runs.push(await unitFloodOnce());
    process.stderr.write(`memory-flood: unit run ${run + 1}/${FLOOD_RUNS}\n`);
  }
  const med = (pick: (r: FloodRun) => number) => median(runs.map(pick));
  const range = (values: readonly number[], digits = 0) =>
    `${fmt(median(values), digits)} | ${fmt(Math.min(...values), digits)} | ${fmt(Math.max(...values), digits)}`;
  const row = (name: string, r: FloodRun) =>
    `| ${name} | ${fmt(r.changesPerSecond)} | ${fmt(r.deliveredPercent, 1)} % | ${fmt(r.closed)} | ${[r.subscribedRssMb, r.afterRssMb, r.afterAnonMb, r.afterV8PagesMb, r.deliveredRssMb, r.peakRssMb].map((x) => fmt(x, 1)).join(' | ')} |`;
  const readyMs = median(hubReady);
  const firstReady = runs.map((r) => r.readyMs);
  const afterMb = med((r) => r.afterRssMb);
  lines.push(
    `Ready, the bundled demo: spawn to the first 200 from GET /api/, ms, ${READY_RUNS} starts interleaved with a bare Node + uWS server.`,
    '',
    '| process | median | min | max | vs Node + uWS |',
    '|---|---:|---:|---:|---:|',
    `| Node + uWS | ${range(floorReady)} | 1.00x |`,
    `| hearth, demo | ${range(hubReady)} | ${(readyMs / median(floorReady)).toFixed(2)}x |`,
    `| hearth, demo, first start of a data directory (no code cache of its own; the flood runs) | ${range(firstReady)} | ${(median(firstReady) / median(floorReady)).toFixed(2)}x |`,
    '',
    `Flood, the bundled demo: ${UNIT_KINDS.length} WebSocket subscribers (${UNIT_KINDS.filter((k) => k === 'events').length} subscribe_events state_changed, ${UNIT_KINDS.filter((k) => k === 'coalesced-events').length} of them with coalesce_messages, ${UNIT_KINDS.filter((k) => k === 'entities').length} subscribe_entities), then ${fmt(CHANGES)} light toggles over ${CONNECTIONS} keep-alive connections as fast as the hub answers. VmRSS in MB read from outside (V8 pages: the JS heap's 256 KB pages in it); ${FLOOD_RUNS} runs, each a fresh hub.`,
    '',
    '| run | changes/s | delivered | dropped | RSS subscribed | RSS right after | anon right after | V8 pages right after | RSS delivered | peak (VmHWM) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...runs.map((r, i) => row(String(i + 1), r)),
    row('median', {
      readyMs,
      subscribedRssMb: med((r) => r.subscribedRssMb),
      afterRssMb: afterMb,
      afterAnonMb: med((r) => r.afterAnonMb),
      afterV8PagesMb: med((r) => r.afterV8PagesMb),
      deliveredRssMb: med((r) => r.deliveredRssMb),
      peakRssMb: med((r) => r.peakRssMb),
      changesPerSecond: med((r) => r.changesPerSecond),
      errors: med((r) => r.errors),
      deliveredPercent: med((r) => r.deliveredPercent),
      closed: med((r) => r.closed),
    }),
    '',
  );
  const afterAll = runs.map((r) => r.afterRssMb);
  targets.push(
    {
      target: `RSS <= ${TARGET_RSS_MB} MB right after ${fmt(CHANGES)} changes to 100 WebSocket subscribers, demo, as the unit starts it`,
      text: `${fmt(afterMb, 1)} MB (median of ${FLOOD_RUNS}, ${fmt(Math.min(...afterAll), 1)} to ${fmt(Math.max(...afterAll), 1)})`,
      met: afterMb <= TARGET_RSS_MB,
    },
    {
      target: `ready <= ${TARGET_READY_MS} ms, demo, as the unit starts it`,
      text: `${fmt(readyMs)} ms (median of ${READY_RUNS}; Node + uWS ${fmt(median(floorReady))} ms)`,
      met: readyMs <= TARGET_READY_MS,
    },
  );
  Object.assign(json, { hubReady, floorReady, runs });
}

if (PARTS.has('paced')) {
  const work = mkdtempSync(join(tmpdir(), 'hearth-flood-'));
  try {
    const paced = await withHub(writeEntitiesConfig(work, 1000), async (hub) => {
      const pid = hub.child.pid as number;
      const readyAt = monoMs();
      const clients = await connectClients(hub.port, hub.token, subscribers(100, false));
      try {
        await sleep(Math.max(0, readyAt + SETTLE_MS - monoMs()));
        const before = { ...memoryOf(pid), ...anonSplit(pid) };
        const start = stateChanged(await countOf(clients));
        let peak = before.rssMb;
        let flooding = true;
        const sampler = (async () => {
          for (; flooding; await sleep(100)) peak = Math.max(peak, memoryOf(pid).rssMb);
        })();
        const total = RATE * PACED_S;
        const flood = await toggles({
          port: hub.port,
          token: hub.token,
          bodies: bodiesOf(PACED_LIGHTS),
          total,
          connections: CONNECTIONS,
          rate: RATE,
        });
        flooding = false;
        await sampler;
        const after = { ...memoryOf(pid), ...anonSplit(pid) };
        peak = Math.max(peak, after.rssMb);
        const idle: { s: number; rssMb: number }[] = [];
        const t0 = monoMs();
        for (let s = 1; s <= IDLE_S; s++) {
          await sleep(t0 + s * 1000 - monoMs());
          idle.push({ s, rssMb: memoryOf(pid).rssMb });
        }
        const settled = { ...memoryOf(pid), ...anonSplit(pid) };
        const count = await countOf(clients);
        return {
          before,
          after,
          settled,
          peak,
          idle,
          flood,
          total,
          count,
          deliveredPercent: ((stateChanged(count) - start) / (total * 100)) * 100,
        };
      } finally {
        await stopProcess(clients);
      }
    });
    const { before, after, settled, idle } = paced;
    const under = idle.find((r) => r.rssMb <= TARGET_RSS_MB)?.s;
    lines.push(
      `Paced flood: 1,000 virtual entities and 100 subscribe_events clients, settled ${SETTLE_MS / 1000} s after start; then ${fmt(RATE)} light toggles a second for ${PACED_S} s (${CONNECTIONS} keep-alive connections) on ${PACED_LIGHTS.length} lights in turn. RSS in MB; idle: one reading a second for ${IDLE_S} s after the flood.`,
      '',
      `| state changes | changes/s | events delivered | clients dropped | RSS before | peak during | RSS right after | RSS ${IDLE_S} s after | idle under ${TARGET_RSS_MB} MB after |`,
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      `| ${fmt(paced.total)} | ${fmt(paced.flood.requests / paced.flood.seconds)} | ${fmt(paced.deliveredPercent, 1)} % | ${paced.count.closed} | ${fmt(before.rssMb, 1)} | ${fmt(paced.peak, 1)} | ${fmt(after.rssMb, 1)} | ${fmt(settled.rssMb, 1)} | ${under === undefined ? `not within ${IDLE_S} s` : `${under} s`} |`,
      '',
      `| anonymous memory, MB | before | right after | ${IDLE_S} s after |`,
      '|---|---:|---:|---:|',
      `| V8 heap pages | ${fmt(before.v8PagesMb, 1)} | ${fmt(after.v8PagesMb, 1)} | ${fmt(settled.v8PagesMb, 1)} |`,
      `| malloc heap (uWS buffers, V8 zones, native objects) | ${fmt(before.mallocMb, 1)} | ${fmt(after.mallocMb, 1)} | ${fmt(settled.mallocMb, 1)} |`,
      `| other mappings (large blocks, second arena, stacks) | ${fmt(before.otherMb, 1)} | ${fmt(after.otherMb, 1)} | ${fmt(settled.otherMb, 1)} |`,
      '',
      `Idle RSS after the flood, MB (every 5 s): ${idle
        .filter((r) => r.s % 5 === 0)
        .map((r) => fmt(r.rssMb, 1))
        .join(', ')}.`,
      '',
    );
    targets.push(
      {
        target: `RSS <= ${TARGET_RSS_MB} MB right after ${fmt(RATE)} changes/s for ${PACED_S} s to 100 WebSocket clients, 1,000 entities`,
        text: `${fmt(after.rssMb, 1)} MB`,
        met: after.rssMb <= TARGET_RSS_MB,
      },
      {
        target: `idle RSS back under ${TARGET_RSS_MB} MB within ${IDLE_S} s after that flood`,
        text:
          under === undefined ? `${fmt(settled.rssMb, 1)} MB at ${IDLE_S} s` : `${under} s (${fmt(settled.rssMb, 1)} MB at ${IDLE_S} s)`,
        met: under !== undefined && settled.rssMb <= TARGET_RSS_MB,
      },
    );
    json.paced = paced;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

for (const t of targets) lines.push(`- ${t.target}: ${t.text} (${t.met ? 'met' : 'missed'})`);
console.log(lines.join('\n'));
mkdirSync(`${BENCH}out`, { recursive: true });
writeFileSync(`${BENCH}out/memory-flood.json`, `${JSON.stringify({ ...json, targets }, null, 2)}\n`);
