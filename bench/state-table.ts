/**
 * State table throughput: updates/s with 0, 1 and 100 in-process `state_changed` subscribers, against a
 * reference in the same run (a plain Map write with the same values), so the figure reads as a ratio.
 */
import { writeFileSync } from 'node:fs';
import { systemClock } from '../src/core/clock.js';
import { EventBus } from '../src/core/event-bus.js';
import { StateTable } from '../src/core/state-table.js';

const ENTITIES = 1000;
const UPDATES = 500_000;

function runTable(subscribers: number, serialize: boolean): number {
  const bus = new EventBus(systemClock);
  const table = new StateTable(16384, bus, systemClock);
  let sink = 0;
  for (let i = 0; i < subscribers; i++) {
    bus.on(`sub${i}`, 'state_changed', (e) => {
      // A subscriber that serializes (as the WebSocket fan-out does) pays for the JSON once per event.
      sink += serialize ? e.json.length : 1;
    });
  }
  const ids = Array.from({ length: ENTITIES }, (_, i) => `sensor.s${i}`);
  for (const id of ids) table.set(id, '0', { unit_of_measurement: '°C' });
  const attrs = { unit_of_measurement: '°C' };
  const start = process.hrtime.bigint();
  for (let n = 0; n < UPDATES; n++) table.set(ids[n % ENTITIES] as string, String(n), attrs);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (sink < 0) console.log(sink);
  return UPDATES / seconds;
}

function runMap(): number {
  const map = new Map<string, { state: string; attributes: object }>();
  const ids = Array.from({ length: ENTITIES }, (_, i) => `sensor.s${i}`);
  const attrs = { unit_of_measurement: '°C' };
  const start = process.hrtime.bigint();
  for (let n = 0; n < UPDATES; n++) map.set(ids[n % ENTITIES] as string, { state: String(n), attributes: attrs });
  return UPDATES / (Number(process.hrtime.bigint() - start) / 1e9);
}

// Warm up the JIT once, then measure.
runTable(1, true);
runMap();
const reference = runMap();
const rows = [
  { case: '0 subscribers', updatesPerSecond: runTable(0, false) },
  { case: '1 subscriber (serializing)', updatesPerSecond: runTable(1, true) },
  { case: '100 subscribers (1 serializing)', updatesPerSecond: runTable(100, false) },
];
const result = { benchmark: 'state-table', entities: ENTITIES, updates: UPDATES, referenceMapWritesPerSecond: reference, rows };
writeFileSync(new URL('./out/state-table.json', import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
console.log('| case | updates/s | vs plain Map write |');
console.log('|---|---|---|');
for (const r of rows)
  console.log(`| ${r.case} | ${Math.round(r.updatesPerSecond).toLocaleString('en')} | ${(r.updatesPerSecond / reference).toFixed(2)} |`);
