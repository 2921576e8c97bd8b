/**
 * The server side of the heap-growth measurement: the built hub (dist/, as deployed) started in this
 * process with N virtual entities, so the benchmark can write state updates straight into its state table
 * and read its heap after a full GC. Run with --expose-gc; driven over the fork IPC channel by bench/memory.ts.
 *
 * Every update goes the whole way: state table, state_changed on the bus, the automation dispatcher, and
 * the WebSocket fan-out to the clients the parent connects.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as LoadModule from '../src/config/load.js';
import type * as HubModule from '../src/hub.js';
import type * as LoggerModule from '../src/util/logger.js';
import { entitiesYaml } from './configs.js';

export type ToHarness = { readonly type: 'run'; readonly updates: number } | { readonly type: 'exit' };
export type FromHarness =
  | { readonly type: 'listening'; readonly port: number; readonly token: string }
  | { readonly type: 'error'; readonly message: string }
  | {
      readonly type: 'done';
      /** Updates written so far, in total. */
      readonly updates: number;
      readonly heapUsedMb: number;
      readonly rssMb: number;
      readonly seconds: number;
    };

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');
const dist = new URL('../dist/src/', import.meta.url);
const { Hub, SECTION_VALIDATORS } = (await import(new URL('hub.js', dist).href)) as typeof HubModule;
const { parseConfigText } = (await import(new URL('config/load.js', dist).href)) as typeof LoadModule;
const { createLogger } = (await import(new URL('util/logger.js', dist).href)) as typeof LoggerModule;

const entities = Number(process.argv[2] ?? 1000);
const dataDir = await mkdtemp(join(tmpdir(), 'hearth-heap-'));
// Errors show on stderr (the onboarding notice at warn level would only be noise here).
const { log, errorLog } = createLogger({ level: 'error', destination: process.stderr });
const hub = await Hub.start({
  config: parseConfigText(entitiesYaml(entities), null, SECTION_VALIDATORS),
  dataDir,
  log,
  errorLog,
  host: '127.0.0.1',
  port: 0,
});
const owner = await hub.auth.ensureOwner('Bench');
const token = await hub.auth.createToken(owner.id, 'heap-bench');
const { states } = hub.core;
const sensors = [...states.states()].filter((s) => s.entity_id.startsWith('sensor.')).map((s) => s.entity_id);

let written = 0;

/** Writes `count` updates in batches, yielding between them so sockets flush and timers run. */
function write(count: number): Promise<void> {
  return new Promise((resolve) => {
    let left = count;
    const batch = (): void => {
      const n = Math.min(left, 500);
      for (let k = 0; k < n; k++) {
        const id = sensors[written % sensors.length] as string;
        const old = states.get(id);
        // The same attributes object, a new value: the common case of a sensor reporting.
        states.set(id, String((written % 997) / 10), old?.attributes);
        written++;
      }
      left -= n;
      if (left > 0) setImmediate(batch);
      else resolve();
    };
    batch();
  });
}

function send(message: FromHarness): void {
  process.send?.(message);
}

process.on('message', (m: ToHarness) => {
  if (m.type === 'exit') {
    void hub
      .stop()
      .then(() => rm(dataDir, { recursive: true, force: true }))
      .finally(() => process.exit(0));
    return;
  }
  const t0 = performance.now();
  void write(m.updates).then(() => {
    // Let the last frames go out, then collect everything collectable.
    setTimeout(() => {
      gc();
      gc();
      send({
        type: 'done',
        updates: written,
        heapUsedMb: process.memoryUsage().heapUsed / 1048576,
        rssMb: process.memoryUsage().rss / 1048576,
        seconds: (performance.now() - t0) / 1000,
      });
    }, 200);
  });
});
process.on('disconnect', () => process.exit(0));
send({ type: 'listening', port: hub.port, token });
