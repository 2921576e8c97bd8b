/**
 * State table throughput: updates/s with 0, 1 and 100 in-process `state_changed` subscribers, against a
 * baseline in the same run that implements the same rules plainly (bench/baseline/state-machine.ts: a Map
 * of plain objects, an EventEmitter, JSON.stringify per serializing subscriber), with the same subscribers
 * and the same writes. A plain Map write of the same values is shown as the floor of any state store.
 * Writes bench/out/state-table.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { systemClock } from '../src/core/clock.js';
import { EventBus } from '../src/core/event-bus.js';
import { StateTable } from '../src/core/state-table.js';
import { PlainStateMachine } from './baseline/state-machine.js';

const ENTITIES = 1000;
const UPDATES = 300_000;
const ROUNDS = 3;

interface Case {
  readonly name: string;
  readonly subscribers: number;
  /** How many of them serialize each event (as a WebSocket subscriber does). */
  readonly serializing: number;
}

const CASES: readonly Case[] = [
  { name: '0 subscribers', subscribers: 0, serializing: 0 },
  { name: '1 subscriber (serializing)', subscribers: 1, serializing: 1 },
  { name: '100 subscribers (1 serializing)', subscribers: 100, serializing: 1 },
];

const ids = Array.from({ length: ENTITIES }, (_, i) => `sensor.s${i}`);
const attrs = { unit_of_measurement: '°C', device_class: 'temperature', friendly_name: 'Sensor' };
let sink = 0;

function timed(write: (n: number) => void): number {
  const start = process.hrtime.bigint();
  for (let n = 0; n < UPDATES; n++) write(n);
  return UPDATES / (Number(process.hrtime.bigint() - start) / 1e9);
}

function runHearth(c: Case): number {
  const bus = new EventBus(systemClock);
  const table = new StateTable(16384, bus, systemClock);
  for (let i = 0; i < c.subscribers; i++) {
    const serialize = i < c.serializing;
    // hearth builds an event's JSON once (cached on the event) for every subscriber that wants it.
    bus.on(`sub${i}`, 'state_changed', (e) => {
      sink += serialize ? e.json.length : 1;
    });
  }
  for (const id of ids) table.set(id, '0', attrs);
  return timed((n) => table.set(ids[n % ENTITIES] as string, String(n), attrs));
}

function runBaseline(c: Case): number {
  const machine = new PlainStateMachine();
  for (let i = 0; i < c.subscribers; i++) {
    const serialize = i < c.serializing;
    machine.events.on('state_changed', (e: unknown) => {
      sink += serialize ? JSON.stringify(e).length : 1;
    });
  }
  for (const id of ids) machine.set(id, '0', attrs);
  return timed((n) => machine.set(ids[n % ENTITIES] as string, String(n), attrs));
}

function runMap(): number {
  const map = new Map<string, { state: string; attributes: object }>();
  return timed((n) => map.set(ids[n % ENTITIES] as string, { state: String(n), attributes: attrs }));
}

const best = (f: () => number) => Math.max(...Array.from({ length: ROUNDS }, f));

// Warm up the JIT on every path once, then keep the best of a few rounds of each.
for (const c of CASES) {
  runHearth(c);
  runBaseline(c);
}
runMap();
const mapWrites = best(runMap);
const rows = CASES.map((c) => ({ case: c.name, hearth: best(() => runHearth(c)), baseline: best(() => runBaseline(c)) }));
if (sink < 0) console.log(sink);

const fmt = (n: number) => Math.round(n).toLocaleString('en');
console.log(
  `${fmt(UPDATES)} writes over ${fmt(ENTITIES)} entities, a new state string each time, best of ${ROUNDS} rounds; every write fires state_changed. Baseline: the same rules written plainly (bench/baseline/state-machine.ts). Floor: a plain Map write, ${fmt(mapWrites)}/s.`,
);
console.log('');
console.log('| case | hearth updates/s | baseline updates/s | hearth vs baseline |');
console.log('|---|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.case} | ${fmt(r.hearth)} | ${fmt(r.baseline)} | ${(r.hearth / r.baseline).toFixed(2)}x |`);
mkdirSync(new URL('./out/', import.meta.url), { recursive: true });
writeFileSync(
  new URL('./out/state-table.json', import.meta.url),
  `${JSON.stringify({ benchmark: 'state-table', entities: ENTITIES, updates: UPDATES, rounds: ROUNDS, mapWritesPerSecond: mapWrites, rows }, null, 2)}\n`,
);
