/**
 * Memory: the resident size of the built hub (`node dist/hearth/cli.js serve`) after start with the bundled
 * demo, with 1,000 and 10,000 virtual entities, and with 1,000 entities and 100 WebSocket clients
 * subscribed to state_changed (the clients in a process of their own); and the heap after 1,000,000
 * state updates against after 10,000.
 *
 * Each hub runs alone, with the V8 flags recommended for a Pi (PI_NODE_ARGS) and, for the demo and the
 * target case, also with Node's defaults; beside two floors measured the same way: Node alone with
 * node:http, and Node with uWS. RSS is read from /proc SETTLE_MS after the first 200: V8 gives start-up
 * garbage back to the OS only once its memory reducer runs, about 8 s after the last full GC of the start.
 * The peak is VmHWM. Prints markdown; writes bench/out/memory.json.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeEntitiesConfig } from './configs.js';
import type { FromHarness, ToHarness } from './heap-harness.js';
import { type HeapShare, heapShares } from './heap-summary.js';
import { BENCH, type Floor, fmt, httpRequest, makeDataDir, PI_NODE_ARGS, sleep, spawnFloor, startHub, stopProcess, TSX } from './procs.js';
import { MAX_SETTLE_MS, type Reading, SETTLE_MS, STABLE_MB, STABLE_MS, settle } from './settle.js';
import { connectClients, next, subscribers } from './ws-client-process.js';

const CLIENTS = 100;
const TARGET_RSS_MB = 64;
const HEAP_WARMUP_UPDATES = 10_000;
const HEAP_UPDATES = 1_000_000;
/** Heap that may differ between the two readings without counting as growth (JIT code, caches filling). */
const HEAP_NOISE_MB = 1;

interface Case {
  readonly name: string;
  readonly entities: number | null;
  readonly clients: number;
  /** Also measured with Node's default V8 settings. */
  readonly withDefaults: boolean;
}

const CASES: readonly Case[] = [
  { name: 'demo config', entities: null, clients: 0, withDefaults: true },
  { name: '1,000 entities', entities: 1000, clients: 0, withDefaults: false },
  { name: '10,000 entities', entities: 10_000, clients: 0, withDefaults: false },
  { name: `1,000 entities + ${CLIENTS} WebSocket clients`, entities: 1000, clients: CLIENTS, withDefaults: true },
];

const PI = { name: 'Pi flags', args: PI_NODE_ARGS };
const DEFAULTS = { name: 'Node defaults', args: [] as readonly string[] };

interface HubReading extends Reading {
  /** What the JS heap held at the reading, from a heap snapshot taken right after it (target case only). */
  readonly heap?: { readonly totalMb: number; readonly shares: HeapShare[] };
}

async function measureHub(c: Case, args: readonly string[], work: string, snapshot = false): Promise<HubReading> {
  const data = await makeDataDir();
  const config = c.entities === null ? null : writeEntitiesConfig(work, c.entities);
  const snapDir = join(work, `snap-${Date.now()}`);
  // The signal handler costs nothing until it is used, after the reading.
  const nodeArgs = snapshot ? [...args, '--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${snapDir}`] : args;
  if (snapshot) mkdirSync(snapDir);
  const hub = await startHub({ config, data, nodeArgs });
  let clients: ChildProcess | undefined;
  try {
    const readyAt = performance.now();
    if (c.clients > 0) clients = await connectClients(hub.port, hub.token, subscribers(c.clients, false));
    const reading = await settle(hub.child.pid as number, readyAt, hub.readyMs, args === PI_NODE_ARGS);
    if (!snapshot) return reading;
    hub.child.kill('SIGUSR2');
    // The hub writes the snapshot on its main thread; once it answers again, the file is complete.
    for (let i = 0; i < 600 && !readdirSync(snapDir).some((f) => f.endsWith('.heapsnapshot')); i++) await sleep(50);
    await httpRequest(hub.port, '/api/', { token: hub.token, timeoutMs: 60_000 });
    const file = readdirSync(snapDir).find((f) => f.endsWith('.heapsnapshot'));
    return file === undefined ? reading : { ...reading, heap: heapShares(join(snapDir, file)) };
  } finally {
    if (clients !== undefined) await stopProcess(clients);
    await hub.stop();
    await data.remove();
    rmSync(snapDir, { recursive: true, force: true });
  }
}

async function measureFloor(floor: Floor): Promise<Reading> {
  const child = spawnFloor(floor);
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (d: Buffer) => {
        if (d.toString().includes('listening')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`floor ${floor} exited (${code})`)));
    });
    return await settle(child.pid as number, performance.now(), Number.NaN);
  } finally {
    await stopProcess(child);
  }
}

interface HeapResult {
  readonly afterWarmupMb: number;
  readonly afterAllMb: number;
  readonly growthMb: number;
  readonly updatesPerSecond: number;
  readonly rssAfterAllMb: number;
}

/** The heap after 10,000 and after 1,000,000 updates through the whole hub, one coalescing WebSocket client listening. */
async function heapGrowth(): Promise<HeapResult> {
  const harness = fork(`${BENCH}heap-harness.ts`, ['1000'], {
    execArgv: ['--expose-gc', ...TSX],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  let clients: ChildProcess | undefined;
  try {
    const listening = await next<Extract<FromHarness, { type: 'listening' }>>(harness, 'listening', 60_000);
    clients = await connectClients(listening.port, listening.token, subscribers(1, true));
    const run = async (updates: number) => {
      const done = next<Extract<FromHarness, { type: 'done' }>>(harness, 'done', 300_000);
      harness.send({ type: 'run', updates } satisfies ToHarness);
      return done;
    };
    const warm = await run(HEAP_WARMUP_UPDATES);
    const all = await run(HEAP_UPDATES - HEAP_WARMUP_UPDATES);
    return {
      afterWarmupMb: warm.heapUsedMb,
      afterAllMb: all.heapUsedMb,
      growthMb: all.heapUsedMb - warm.heapUsedMb,
      updatesPerSecond: (HEAP_UPDATES - HEAP_WARMUP_UPDATES) / all.seconds,
      rssAfterAllMb: all.rssMb,
    };
  } finally {
    if (clients !== undefined) await stopProcess(clients);
    // Asked to exit, the harness stops its hub and removes its data directory; SIGTERM only if it hangs.
    if (harness.connected && harness.exitCode === null) {
      const exited = new Promise<void>((resolve) => harness.once('exit', () => resolve()));
      harness.send({ type: 'exit' } satisfies ToHarness);
      await Promise.race([exited, sleep(10_000)]);
    }
    await stopProcess(harness);
  }
}

const work = mkdtempSync(join(tmpdir(), 'hearth-memory-'));
const floors = await Promise.all((['node', 'uws'] as const).map(async (f) => ({ floor: f, reading: await measureFloor(f) })));
const rows: { case: Case; variant: string; args: readonly string[]; reading: HubReading }[] = [];
// One hub at a time: V8's memory reducer waits for a quiet process, and neighbours make that a lottery.
for (const c of CASES) {
  for (const v of c.withDefaults ? [PI, DEFAULTS] : [PI]) {
    process.stderr.write(`memory: ${c.name}, ${v.name} ...\n`);
    const snapshot = c.clients > 0 && v === PI;
    rows.push({ case: c, variant: v.name, args: v.args, reading: await measureHub(c, v.args, work, snapshot) });
  }
}
process.stderr.write(`memory: heap after ${fmt(HEAP_UPDATES)} updates ...\n`);
const heap = await heapGrowth();

const uwsFloor = floors.find((f) => f.floor === 'uws')?.reading.rssMb ?? Number.NaN;
const lines = [
  `Settled RSS in MB: read at least ${SETTLE_MS / 1000} s after the first 200 from GET /api/, once it has not moved by more than ${STABLE_MB} MB for ${STABLE_MS / 1000} s (at most ${MAX_SETTLE_MS / 1000} s). Anon: the process's own memory; file: pages of the node binary and libraries, shared and evictable. Peak: VmHWM. Pi flags: \`${PI_NODE_ARGS.join(' ')}\`. Every process runs in the systemd unit's environment (its \`Environment=\` lines, nothing from the shell).`,
  '',
  '| process | node flags | RSS | anon | file | over the uWS floor | RSS at 2 s | peak | settled after |',
  '|---|---|---:|---:|---:|---:|---:|---:|---:|',
];
for (const f of floors) {
  const r = f.reading;
  lines.push(
    `| floor: ${f.floor === 'node' ? 'Node + node:http' : 'Node + uWS'} | defaults | ${fmt(r.rssMb, 1)} | ${fmt(r.anonMb, 1)} | ${fmt(r.fileMb, 1)} | ${fmt(r.rssMb - uwsFloor, 1)} | ${fmt(r.earlyRssMb, 1)} | ${fmt(r.peakRssMb, 1)} | ${fmt(r.settledAfterS)} s |`,
  );
}
for (const r of rows) {
  const m = r.reading;
  lines.push(
    `| hearth, ${r.case.name} | ${r.variant} | ${fmt(m.rssMb, 1)} | ${fmt(m.anonMb, 1)} | ${fmt(m.fileMb, 1)} | ${fmt(m.rssMb - uwsFloor, 1)} | ${fmt(m.earlyRssMb, 1)} | ${fmt(m.peakRssMb, 1)} | ${fmt(m.settledAfterS)} s |`,
  );
}
const target = rows.find((r) => r.case.clients > 0 && r.variant === 'Pi flags')?.reading;
const targets = [
  {
    target: `RSS <= ${TARGET_RSS_MB} MB with 1,000 entities and ${CLIENTS} WebSocket clients (Pi flags)`,
    text: `${fmt(target?.rssMb ?? Number.NaN, 1)} MB`,
    met: (target?.rssMb ?? Number.POSITIVE_INFINITY) <= TARGET_RSS_MB,
  },
  {
    target: `no heap growth over ${fmt(HEAP_UPDATES)} updates`,
    text: `${heap.growthMb >= 0 ? '+' : ''}${fmt(heap.growthMb, 2)} MB`,
    met: heap.growthMb <= HEAP_NOISE_MB,
  },
];
if (target?.heap !== undefined) {
  lines.push(
    '',
    `Of the target case's ${fmt(target.anonMb, 1)} MB of anonymous memory, the live JS heap (a heap snapshot taken right after the reading) is ${fmt(target.heap.totalMb, 1)} MB; the rest is V8's free heap space, malloc (uWS buffers, compiler zones) and thread stacks. The live heap holds:`,
    '',
    '| in the heap | MB | objects |',
    '|---|---:|---:|',
    ...target.heap.shares.filter((h) => h.mb >= 0.05).map((h) => `| ${h.category} | ${fmt(h.mb, 2)} | ${fmt(h.count)} |`),
  );
}
lines.push(
  '',
  `Heap after a full GC, 1,000 entities, one coalescing WebSocket client subscribed, every update through the state table, the bus, automations and the fan-out: ${fmt(heap.afterWarmupMb, 2)} MB after ${fmt(HEAP_WARMUP_UPDATES)} updates, ${fmt(heap.afterAllMb, 2)} MB after ${fmt(HEAP_UPDATES)} (${fmt(heap.updatesPerSecond)} updates/s; RSS then ${fmt(heap.rssAfterAllMb, 1)} MB).`,
  '',
);
for (const t of targets) lines.push(`- ${t.target}: ${t.text} (${t.met ? 'met' : 'missed'})`);
console.log(lines.join('\n'));

mkdirSync(`${BENCH}out`, { recursive: true });
writeFileSync(
  `${BENCH}out/memory.json`,
  `${JSON.stringify({ benchmark: 'memory', settleMs: SETTLE_MS, piNodeArgs: PI_NODE_ARGS, floors, rows, heap, targets }, null, 2)}\n`,
);
rmSync(work, { recursive: true, force: true });
