/**
 * Memory under a flood: the built hub with the Pi flags, 1,000 entities and 100 WebSocket clients
 * subscribed to state_changed (in a process of their own), settled; then the lights are toggled at
 * FLOOD_BENCH_RATE changes/s (default 1,000; 0: wrk, as fast as the hub answers) for FLOOD_S seconds, each
 * toggle one state change sent to every client. Reports the RSS right after the flood, its peak during it,
 * and the idle RSS over the minute after it, read from /proc.
 * Prints markdown; writes bench/out/memory-flood.json.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeEntitiesConfig } from './configs.js';
import { BENCH, fmt, makeDataDir, memoryOf, PI_NODE_ARGS, sleep, startHub, stopProcess } from './procs.js';
import { hasWrk, wrk } from './wrk.js';
import { connectClients, next } from './ws-client-process.js';
import type { FromClients, ToClients } from './ws-clients.js';
import { monoMs } from './ws-generator.js';

const ENTITIES = 1000;
const CLIENTS = 100;
/** The lights of the 1,000-entity config (bench/configs.ts: 5 %), toggled in turn. */
const LIGHTS = 50;
const FLOOD_S = Number(process.env.FLOOD_BENCH_SECONDS ?? 10);
const SETTLE_MS = Number(process.env.MEMORY_BENCH_SETTLE_MS ?? 12_000);
const IDLE_S = 60;
/** State changes per second; 0 floods as fast as the hub answers (wrk), which drops every client as a slow consumer. */
const RATE = Number(process.env.FLOOD_BENCH_RATE ?? 1000);
const TARGET_RSS_MB = 64;
/** Node flags for the hub (FLOOD_BENCH_NODE_ARGS overrides, to compare settings). */
const NODE_ARGS: readonly string[] =
  process.env.FLOOD_BENCH_NODE_ARGS === undefined ? PI_NODE_ARGS : process.env.FLOOD_BENCH_NODE_ARGS.split(' ').filter(Boolean);

/**
 * Toggles at a steady `rate` per second for `seconds` over keep-alive connections, a batch every 10 ms.
 * 1,000 changes/s to 100 clients is the fan-out benchmark's standard load (100,000 events/s).
 */
async function paced(
  port: number,
  token: string,
  bodies: readonly string[],
  rate: number,
  seconds: number,
): Promise<{ requests: number; requestsPerSecond: number; errors: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  let sent = 0;
  let errors = 0;
  let inFlight = 0;
  let done: (() => void) | undefined;
  const one = (body: string) => {
    inFlight++;
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
        res.on('end', finish);
      },
    );
    req.on('error', () => {
      errors++;
      finish();
    });
    req.end(body);
  };
  const finish = () => {
    inFlight--;
    if (inFlight === 0) done?.();
  };
  const t0 = performance.now();
  const total = rate * seconds;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * rate));
    for (; sent < due; sent++) one(bodies[sent % bodies.length] as string);
    await sleep(10);
  }
  if (inFlight > 0) await new Promise<void>((resolve) => (done = resolve));
  const elapsed = (performance.now() - t0) / 1000;
  agent.destroy();
  return { requests: sent, requestsPerSecond: sent / elapsed, errors };
}

interface AnonSplit {
  /** The main malloc arena (`[heap]`, grown with brk): uWS's buffers, V8's zones, Node's native objects. */
  readonly mallocMb: number;
  /** Other anonymous mappings: V8's heap pages (256 KB each), thread arenas and stacks. */
  readonly mappedMb: number;
}

/** Where the anonymous memory is, from /proc/<pid>/smaps. */
function anonSplit(pid: number): AnonSplit {
  let malloc = 0;
  let mapped = 0;
  let name = '';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (mapping !== null) name = mapping[1] ?? '';
    else if (line.startsWith('Rss:')) {
      const kb = Number(line.split(/\s+/)[1]);
      if (name === '[heap]') malloc += kb;
      else if (name === '') mapped += kb;
    }
  }
  return { mallocMb: malloc / 1024, mappedMb: mapped / 1024 };
}

if (!hasWrk()) {
  console.error('memory-flood: wrk is not installed (`make bench` installs it: apt-get install -y wrk)');
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'hearth-flood-'));
const data = await makeDataDir();
// FLOOD_BENCH_CLI: another build's cli.js, to compare two builds in the same conditions.
const hub = await startHub({ config: writeEntitiesConfig(work, ENTITIES), data, nodeArgs: NODE_ARGS, cli: process.env.FLOOD_BENCH_CLI });
const pid = hub.child.pid as number;
const readyAt = performance.now();
const clients = await connectClients(hub.port, hub.token, CLIENTS);
try {
  await sleep(Math.max(0, readyAt + SETTLE_MS - performance.now()));
  const before = memoryOf(pid);
  const beforeSplit = anonSplit(pid);

  // Count what the clients receive during the flood (and whether any was dropped as a slow consumer).
  const from = monoMs() + 50;
  clients.send({ type: 'window', from, to: from + FLOOD_S * 1000 } satisfies ToClients);
  const bodies = Array.from({ length: LIGHTS }, (_, i) => JSON.stringify({ entity_id: `light.bench_light_${i}` }));
  let peak = before.rssMb;
  let flooding = true;
  const sampler = (async () => {
    while (flooding) {
      peak = Math.max(peak, memoryOf(pid).rssMb);
      await sleep(100);
    }
  })();
  await sleep(50);
  const flood =
    RATE > 0
      ? await paced(hub.port, hub.token, bodies, RATE, FLOOD_S)
      : await wrk({
          port: hub.port,
          path: '/api/services/light/toggle',
          method: 'POST',
          bodies,
          token: hub.token,
          seconds: FLOOD_S,
        });
  flooding = false;
  await sampler;
  const after = memoryOf(pid);
  const afterSplit = anonSplit(pid);
  peak = Math.max(peak, after.rssMb);

  // The minute after: one reading a second.
  const idle: { s: number; rssMb: number }[] = [];
  const t0 = performance.now();
  for (let s = 1; s <= IDLE_S; s++) {
    await sleep(t0 + s * 1000 - performance.now());
    idle.push({ s, rssMb: memoryOf(pid).rssMb });
  }
  const settled = memoryOf(pid);
  const settledSplit = anonSplit(pid);
  const under = idle.find((r) => r.rssMb <= TARGET_RSS_MB)?.s;
  const report = next<Extract<FromClients, { type: 'report' }>>(clients, 'report', 30_000);
  clients.send({ type: 'report' } satisfies ToClients);
  const received = await report;

  const changes = flood.requests;
  const lines = [
    `hearth: \`node ${NODE_ARGS.join(' ')} dist/hearth/cli.js serve\` in the systemd unit's environment, with ${fmt(ENTITIES)} virtual entities and ${CLIENTS} WebSocket clients subscribed to state_changed (one client process), settled ${SETTLE_MS / 1000} s after start. Flood: ${RATE > 0 ? `${fmt(RATE)} POSTs/s of light/toggle for ${FLOOD_S} s (16 keep-alive connections)` : `wrk \`-t1 -c50 -d${FLOOD_S}s\` POSTs of light/toggle`} on ${LIGHTS} lights in turn, each a state change sent to every client. RSS in MB from /proc (anonymous + file-backed); idle: one reading a second for ${IDLE_S} s after the flood.`,
    '',
    '| state changes | changes/s | events delivered | clients dropped | RSS before | peak during | RSS right after | anon after | idle under 64 MB after | RSS 60 s after | anon 60 s after |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| ${fmt(changes)} | ${fmt(flood.requestsPerSecond)} | ${fmt((received.events / Math.max(1, changes * CLIENTS)) * 100, 1)} % | ${received.closed} | ${fmt(before.rssMb, 1)} | ${fmt(peak, 1)} | ${fmt(after.rssMb, 1)} | ${fmt(after.anonMb, 1)} | ${under === undefined ? 'not within 60 s' : `${under} s`} | ${fmt(settled.rssMb, 1)} | ${fmt(settled.anonMb, 1)} |`,
    '',
    '| anonymous memory, MB | before | right after | 60 s after |',
    '|---|---:|---:|---:|',
    `| malloc heap (uWS buffers, V8 zones, native objects) | ${fmt(beforeSplit.mallocMb, 1)} | ${fmt(afterSplit.mallocMb, 1)} | ${fmt(settledSplit.mallocMb, 1)} |`,
    `| other mappings (V8 heap pages, thread arenas, stacks) | ${fmt(beforeSplit.mappedMb, 1)} | ${fmt(afterSplit.mappedMb, 1)} | ${fmt(settledSplit.mappedMb, 1)} |`,
    '',
    `Idle RSS after the flood, MB (every 5 s): ${idle
      .filter((r) => r.s % 5 === 0)
      .map((r) => fmt(r.rssMb, 1))
      .join(', ')}.`,
  ];
  const targets = [
    {
      target: `RSS <= ${TARGET_RSS_MB} MB right after a flood of state changes to ${CLIENTS} WebSocket clients (Pi flags)`,
      text: `${fmt(after.rssMb, 1)} MB`,
      met: after.rssMb <= TARGET_RSS_MB,
    },
    {
      target: `idle RSS back under ${TARGET_RSS_MB} MB within ${IDLE_S} s after the flood`,
      text: under === undefined ? `${fmt(settled.rssMb, 1)} MB at ${IDLE_S} s` : `${under} s (${fmt(settled.rssMb, 1)} MB at ${IDLE_S} s)`,
      met: under !== undefined && settled.rssMb <= TARGET_RSS_MB,
    },
  ];
  lines.push('');
  for (const t of targets) lines.push(`- ${t.target}: ${t.text} (${t.met ? 'met' : 'missed'})`);
  console.log(lines.join('\n'));
  mkdirSync(`${BENCH}out`, { recursive: true });
  writeFileSync(
    `${BENCH}out/memory-flood.json`,
    `${JSON.stringify({ benchmark: 'memory-flood', nodeArgs: NODE_ARGS, floodSeconds: FLOOD_S, rate: RATE, before, beforeSplit, peakRssMb: peak, after, afterSplit, idle, settled, settledSplit, received, flood, targets }, null, 2)}\n`,
  );
} finally {
  await stopProcess(clients);
  await hub.stop();
  await data.remove();
  rmSync(work, { recursive: true, force: true });
}
