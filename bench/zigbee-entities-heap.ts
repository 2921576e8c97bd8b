/**
 * Heap of hearth's Zigbee entity layer alone, in process: the converters loaded, then 36 devices of mixed kinds (the
 * mapping table's 18 models twice: lights, plugs, radiator valves, motion, contact, leak, smoke, remotes, covers, a
 * lock) made into entities on a core with the registries. The figure is the heap after a full GC with the devices
 * less the heap with the converters loaded and no device, as a ratio-free difference in the same run.
 * Run: node --expose-gc --import tsx bench/zigbee-entities-heap.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as zhc from 'zigbee-herdsman-converters';
import { silentLogger } from '../src/core/log.js';
import { Registries } from '../src/registry/registries.js';
import { StubDevice, zigbeeTestbed } from '../test/drivers/zigbee/devices-helpers.js';
import { MAPPED_DEVICES } from '../test/drivers/zigbee/ha-mapping-table.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');
const heapMb = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

// Every definition the models resolve to, loaded before the reference reading.
for (const d of MAPPED_DEVICES)
  await zhc.findByDevice(new StubDevice({ ieee: '0x0', modelID: d.modelID, manufacturerName: d.manufacturerName }).zh);
const dataDir = await mkdtemp(join(tmpdir(), 'hearth-zb-heap-'));
const bed = zigbeeTestbed();
const registries = await Registries.start({ core: bed.core, dataDir, sections: {}, log: silentLogger, saveDelayMs: 3_600_000 });
const before = heapMb();
const kept: unknown[] = [];
let n = 0;
for (const round of [0, 1]) {
  for (const d of MAPPED_DEVICES) {
    n += 1;
    const ieee = `0x00000000000c${n.toString(16).padStart(4, '0')}`;
    kept.push(
      await bed.add(
        new StubDevice({ ieee, modelID: d.modelID, manufacturerName: d.manufacturerName, endpoints: d.endpoints }),
        `${d.name} ${round}`,
      ),
    );
  }
}
const after = heapMb();
const entities = bed.core.entities.size;
console.log(
  `${n} devices, ${entities} enabled entities: ${(after - before).toFixed(2)} MB of heap over the converters alone (${((after - before) / n).toFixed(3)} MB a device)`,
);
await registries.stop();
await rm(dataDir, { recursive: true, force: true });
process.exit(0);
