/**
 * Memory added by the MQTT component: the built hub with 1,000 virtual entities, once without and once with an
 * `mqtt:` section (connected to mosquitto, publishing all 1,000 with discovery), each alone, with the Pi flags; the
 * settled RSS as bench/memory.ts reads it (bench/settle.ts). Alternated over three rounds (a reading now and then
 * misses V8 giving memory back): the difference of the medians is the figure.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { entitiesYaml } from './configs.js';
import { mqttSection, startBenchBroker } from './mqtt-broker.js';
import { makeDataDir, median, PI_NODE_ARGS, startHub } from './procs.js';
import { type Reading, settle } from './settle.js';

export const TARGET_MB = 6;
const ROUNDS = Number(process.env.MQTT_BENCH_MEMORY_ROUNDS ?? 3);

export interface MemoryResult {
  readonly without: Reading[];
  readonly with: Reading[];
  readonly withoutMb: number;
  readonly withMb: number;
  readonly addedMb: number;
  readonly addedAnonMb: number;
}

async function reading(config: string): Promise<Reading> {
  const data = await makeDataDir();
  const hub = await startHub({ config, data, nodeArgs: PI_NODE_ARGS });
  try {
    return await settle(hub.child.pid as number, performance.now(), hub.readyMs, true);
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
    for (let round = 0; round < ROUNDS; round++) {
      process.stderr.write(`mqtt: memory, round ${round + 1} of ${ROUNDS} ...\n`);
      without.push(await reading(plain));
      withIt.push(await reading(withMqtt));
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
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
    await broker.close();
  }
}
