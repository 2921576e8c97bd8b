/**
 * Automations: the cost of a state update with 500 automations over 1,000 entities loaded, as a ratio to the
 * same update on the same core without them (bench/automation-rig.ts), for updates no trigger reads, updates a
 * trigger reads that match nothing, and updates that fire one automation (run to its end); then the cost of
 * 100 render_template subscriptions over one WebSocket per state change (bench/automation-templates.ts).
 * Both measurements alternate hub and reference rounds in this process and keep the best of each.
 * Writes bench/out/automations.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { attrsOf, COUNTS, type Rig, startRig, WATCHED } from './automation-rig.js';
import { measureTemplates, type TemplateRow } from './automation-templates.js';

const ROUNDS = 5;
const UPDATES = 20_000;
const FIRES = 2_000;

interface UpdateCase {
  readonly name: string;
  /** One update; `n` counts from 0. */
  readonly update: (rig: Rig, n: number) => void;
  readonly updates: number;
  /** Let the runs the updates started finish before the clock stops (they are promises). */
  readonly drain: boolean;
  /** Runs each update is expected to start, with automations loaded. */
  readonly firesPerUpdate: number;
}

/** Motion automations without for: (i % 5 != 0) and without a condition (i % 4 != 0): each "on" fires one. */
const FIRING = Array.from({ length: WATCHED.motion }, (_, i) => i).filter((i) => i % 5 !== 0 && i % 4 !== 0);
const temp = (rig: Rig, i: number, v: number) => rig.core.states.set(`sensor.temp_${i}`, v.toFixed(1), attrsOf.temp);
const unwatchedTemps = COUNTS.temp - WATCHED.temp;

const CASES: readonly UpdateCase[] = [
  {
    name: 'an entity no trigger reads (sensor.temp_150..299)',
    update: (rig, n) => temp(rig, WATCHED.temp + (n % unwatchedTemps), 20 + (n % 7) / 10),
    updates: UPDATES,
    drain: false,
    firesPerUpdate: 0,
  },
  {
    name: 'an entity a numeric_state trigger reads, no match (20 to 20.6 °C, trigger above 25 or below 15)',
    update: (rig, n) => temp(rig, n % WATCHED.temp, 20 + (n % 7) / 10),
    updates: UPDATES,
    drain: false,
    firesPerUpdate: 0,
  },
  {
    name: 'an entity a template trigger reads, no match (power 100 to 106 W, template > 2000 W)',
    update: (rig, n) => rig.core.states.set(`sensor.power_${n % WATCHED.power}`, String(100 + (n % 7)), attrsOf.power),
    updates: UPDATES,
    drain: false,
    firesPerUpdate: 0,
  },
  {
    name: 'motion off then on: the "on" fires one automation, run to its end (per pair of updates)',
    update: (rig, n) => {
      const i = FIRING[n % FIRING.length] as number;
      rig.core.states.set(`binary_sensor.motion_${i}`, 'off', attrsOf.motion);
      rig.core.states.set(`binary_sensor.motion_${i}`, 'on', attrsOf.motion);
    },
    updates: FIRES,
    drain: true,
    firesPerUpdate: 1,
  },
];

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Microseconds per update over one round. */
async function round(rig: Rig, c: UpdateCase): Promise<number> {
  const start = process.hrtime.bigint();
  for (let n = 0; n < c.updates; n++) {
    c.update(rig, n);
    if (c.drain) await tick();
  }
  const us = Number(process.hrtime.bigint() - start) / 1000 / c.updates;
  if (c.drain) for (let i = 0; i < 10; i++) await tick();
  return us;
}

async function measureUpdates() {
  const hub = await startRig(true);
  const bare = await startRig(false);
  const rows = [];
  for (const c of CASES) {
    // Warm-up, then alternate, keeping the best round of each.
    await round(hub, c);
    await round(bare, c);
    let bestHub = Number.POSITIVE_INFINITY;
    let bestBare = Number.POSITIVE_INFINITY;
    const firedBefore = hub.fired();
    for (let r = 0; r < ROUNDS; r++) {
      bestHub = Math.min(bestHub, await round(hub, c));
      bestBare = Math.min(bestBare, await round(bare, c));
    }
    const fired = (hub.fired() - firedBefore) / ROUNDS / c.updates;
    if (Math.abs(fired - c.firesPerUpdate) > 0.01) throw new Error(`${c.name}: ${fired} runs per update, expected ${c.firesPerUpdate}`);
    rows.push({ case: c.name, hubUs: bestHub, bareUs: bestBare, ratio: bestHub / bestBare, firesPerUpdate: fired });
  }
  await hub.stop();
  await bare.stop();
  return rows;
}

const updateRows = await measureUpdates();
const templateRows: TemplateRow[] = await measureTemplates();

const f = (n: number, digits = 2) => n.toFixed(digits);
console.log(
  `500 automations over 1,000 entities (bench/automation-rig.ts: 200 state triggers from off to on, 150 numeric_state above/below, 100 state triggers on plugs, 50 template triggers; a fifth with for:), loaded through the configuration loader. Reference: the same core and entities without automations. ${UPDATES.toLocaleString('en')} updates per round (${FIRES.toLocaleString('en')} pairs when one fires, each followed by a turn of the event loop in both), best of ${ROUNDS} alternating rounds.`,
);
console.log('');
console.log('| update | with 500 automations µs | bare update µs | ratio |');
console.log('|---|---:|---:|---:|');
for (const r of updateRows) console.log(`| ${r.case} | ${f(r.hubUs)} | ${f(r.bareUs)} | ${f(r.ratio)}x |`);
console.log('');
console.log(
  '100 render_template subscriptions over one WebSocket (templates reading 1 to 5 entities; 20 of them also read sensor.outdoor), client in its own process; CPU of the hub process per state change (process.cpuUsage), each change followed by a turn of the timers so the re-render and its send happen in the round. Re-render coalescing (templateEntityIntervalMs, 250 ms by default) is set to 0 here so every change re-renders. Reference: the same changes with the same connection and no subscription.',
);
console.log('');
console.log('| change | with 100 subscriptions µs CPU | no subscription µs CPU | ratio | re-renders per change | event bytes per change |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const r of templateRows) {
  console.log(
    `| ${r.case} | ${f(r.subsUs)} | ${f(r.bareUs)} | ${f(r.ratio)}x | ${f(r.rendersPerChange, 1)} | ${Math.round(r.bytesPerChange)} |`,
  );
}
mkdirSync(new URL('./out/', import.meta.url), { recursive: true });
writeFileSync(
  new URL('./out/automations.json', import.meta.url),
  `${JSON.stringify({ benchmark: 'automations', rounds: ROUNDS, updates: updateRows, templates: templateRows }, null, 2)}\n`,
);
