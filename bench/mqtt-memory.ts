/**
 * Memory added by the MQTT component: the built hub with 1,000 virtual entities, once without and once with an
 * `mqtt:` section (connected to mosquitto, publishing all 1,000 with discovery), each alone, with the Pi flags; the
 * settled RSS as bench/memory.ts reads it (bench/settle.ts). Alternated over three rounds (a reading now and then
 * misses V8 giving memory back): the difference of the medians is the figure.
 *
 * Both hubs answer the same WARM_UP_REQUESTS REST reads once ready, so that V8's optimizing compiler has run in both
 * before the reading. `hearth serve` holds the optimizer until it serves (src/cli/start-up-compiler.ts), and an idle
 * hub without mqtt then never uses it before the reading, while the hub with mqtt does (its announce of a thousand
 * entities is hot code): the difference was 4 MB of the node binary's compiler pages, which any hub that serves
 * clients touches, not memory of the MQTT component.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_LIGHT, entitiesYaml } from './configs.js';
import { type HeapShare, heapShares } from './heap-summary.js';
import { mqttSection, startBenchBroker } from './mqtt-broker.js';
import { httpRequest, makeDataDir, median, PI_NODE_ARGS, sleep, startHub } from './procs.js';
import { type Reading, settle } from './settle.js';

export const TARGET_MB = 6;
const ROUNDS = Number(process.env.MQTT_BENCH_MEMORY_ROUNDS ?? 3);
const WARM_UP_REQUESTS = 2000;

export interface MemoryResult {
  readonly without: Reading[];
  readonly with: Reading[];
  readonly withoutMb: number;
  readonly withMb: number;
  readonly addedMb: number;
  readonly addedAnonMb: number;
  /** What the live JS heap holds at the last round's reading, without and with (a heap snapshot right after it). */
  readonly heap: { readonly without?: HeapSummary; readonly with?: HeapSummary };
}

export interface HeapSummary {
  readonly totalMb: number;
  readonly shares: HeapShare[];
}

async function reading(config: string, snapDir?: string): Promise<{ reading: Reading; heap?: HeapSummary }> {
  const data = await makeDataDir();
  // The signal handler costs nothing until it is used, after the reading.
  const nodeArgs = snapDir === undefined ? PI_NODE_ARGS : [...PI_NODE_ARGS, '--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${snapDir}`];
  if (snapDir !== undefined) mkdirSync(snapDir);
  const hub = await startHub({ config, data, nodeArgs });
  try {
    const readyAt = performance.now();
    for (let i = 0; i < WARM_UP_REQUESTS; i++) await httpRequest(hub.port, `/api/states/${BENCH_LIGHT}`, { token: hub.token });
    const r = await settle(hub.child.pid as number, readyAt, hub.readyMs, true);
    if (snapDir === undefined) return { reading: r };
    hub.child.kill('SIGUSR2');
    // The hub writes the snapshot on its main thread; once it answers again, the file is complete.
    for (let i = 0; i < 600 && !readdirSync(snapDir).some((f) => f.endsWith('.heapsnapshot')); i++) await sleep(50);
    await httpRequest(hub.port, '/api/', { token: hub.token, timeoutMs: 60_000 });
    const file = readdirSync(snapDir).find((f) => f.endsWith('.heapsnapshot'));
    return { reading: r, heap: file === undefined ? undefined : heapShares(join(snapDir, file)) };
  } finally {
    await hub.stop();
    await data.remove();
  }
}

export async function memoryResult(): Promise<MemoryResult> {
  const broker = await startBenchBroker();
  const work = mkdtempSync(join(tmpdir(), 'hearth-mqtt-memory-'));
  try {
    const plain = join(work, 'plain.yaml');
    const withMqtt = join(work, 'mqtt.yaml');
    writeFileSync(plain, entitiesYaml(1000, 'Bench A'));
    writeFileSync(withMqtt, `${entitiesYaml(1000, 'Bench A')}${mqttSection(broker)}`);
    const without: Reading[] = [];
    const withIt: Reading[] = [];
    const heap: { without?: HeapSummary; with?: HeapSummary } = {};
    for (let round = 0; round < ROUNDS; round++) {
      process.stderr.write(`mqtt: memory, round ${round + 1} of ${ROUNDS} ...\n`);
      const last = round === ROUNDS - 1;
      const a = await reading(plain, last ? join(work, 'snap-without') : undefined);
      const b = await reading(withMqtt, last ? join(work, 'snap-with') : undefined);
      without.push(a.reading);
      withIt.push(b.reading);
      heap.without = a.heap;
      heap.with = b.heap;
    }
    const withoutMb = median(without.map((r) => r.rssMb));
    const withMb = median(withIt.map((r) => r.rssMb));
    return {
      without,
      with: withIt,
      withoutMb,
      withMb,
      addedMb: withMb - withoutMb,
      addedAnonMb: median(withIt.map((r) => r.anonMb)) - median(without.map((r) => r.anonMb)),
      heap,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
    await broker.close();
  }
}
