/**
 * Disk writes of the restore-state store and the registries: bytes the process sent to the storage layer
 * (`write_bytes` of /proc/self/io, which counts whole pages), with the data dir on the machine's disk.
 *
 * A hub with 1,000 restorable entities (500 virtual lights, 500 switches) and 1,000 sensors runs a
 * SIMULATED hour with an accelerated flush clock: one restorable entity changes per simulated second
 * (through light/switch services, as a user would), and the store is flushed every 5 simulated seconds
 * (the default `restore_flush_s`), exactly as its window timer would; 720 flushes in all. Then the same hour
 * of sensors changing ten times a second, then an idle hour (720 flushes with nothing changed, plus 3 real
 * seconds of timers), then one registry change (a rename) and the registries' flush.
 * Prints markdown; writes bench/out/restore-writes.json.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seededRandom } from '../drivers/virtual/index.js';
import { parseConfigText } from '../src/config/load.js';
import type { JsonObject } from '../src/core/json.js';
import { silentLogger } from '../src/core/log.js';
import { Hub, SECTION_VALIDATORS } from '../src/hub.js';
import { BENCH, fmt } from './procs.js';

const RESTORABLE = 1000;
const SENSORS = 1000;
const HOUR_S = 3600;
const WINDOW_S = 5;
const TARGET_MB_PER_HOUR = 4;

function writeBytes(): number {
  const m = /^write_bytes: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'));
  return Number(m?.[1] ?? 0);
}

function yaml(): string {
  // The recorder has its own benchmark (recorder-disk.ts); here only restore state and the registries write.
  const lines = [
    'hub:',
    '  name: Restore bench',
    `  restore_flush_s: ${WINDOW_S}`,
    '  max_entities: 4096',
    'recorder:',
    '  enabled: false',
    'virtual:',
  ];
  for (let i = 0; i < RESTORABLE / 2; i++) lines.push(`  - {platform: light, id: l${i}, name: Light ${i}, color_modes: [color_temp, hs]}`);
  for (let i = 0; i < RESTORABLE / 2; i++) lines.push(`  - {platform: switch, id: s${i}, name: Switch ${i}}`);
  // Sensors that do not report on their own during the run: the benchmark reports for them.
  for (let i = 0; i < SENSORS; i++)
    lines.push(`  - {platform: sensor, id: t${i}, name: Temp ${i}, device_class: temperature, interval: 86400}`);
  return `${lines.join('\n')}\n`;
}

const dataDir = await mkdtemp(join(tmpdir(), 'hearth-restore-bench-'));
const hub = await Hub.start({
  config: parseConfigText(yaml(), null, SECTION_VALIDATORS),
  dataDir,
  log: silentLogger,
  host: '127.0.0.1',
  port: 0,
  random: seededRandom(1),
});
const store = hub.restoreState;
if (store === undefined) throw new Error('the hub has no restore-state store');
const { core } = hub;
// Settle: the first flush stores every entity once (a compaction), the registries write their files.
await store.flush();
await hub.registries.flush();

interface Row {
  readonly phase: string;
  readonly bytes: number;
  readonly appends: number;
  readonly compactions: number;
}
const rows: Row[] = [];
async function phase(name: string, run: () => Promise<void>): Promise<Row> {
  const before = { bytes: writeBytes(), appends: store?.stats.appends ?? 0, compactions: store?.stats.compactions ?? 0 };
  await run();
  const row = {
    phase: name,
    bytes: writeBytes() - before.bytes,
    appends: (store?.stats.appends ?? 0) - before.appends,
    compactions: (store?.stats.compactions ?? 0) - before.compactions,
  };
  rows.push(row);
  return row;
}

const restoreHour = await phase('1,000 restorable entities, one changing per second', async () => {
  for (let s = 0; s < HOUR_S; s++) {
    const i = s % RESTORABLE;
    const [domain, id] = i % 2 === 0 ? ['light', `light.l${i / 2}`] : ['switch', `switch.s${(i - 1) / 2}`];
    const on = core.states.get(id)?.state === 'on';
    const data: JsonObject = domain === 'light' && !on ? { entity_id: id, brightness: 1 + (s % 254) } : { entity_id: id };
    await core.services.call(domain, on ? 'turn_off' : 'turn_on', data);
    if ((s + 1) % WINDOW_S === 0) await store.flush();
  }
  await hub.registries.flush();
});

const sensorHour = await phase('1,000 sensors, ten changes per second (not restored)', async () => {
  for (let s = 0; s < HOUR_S; s++) {
    for (let k = 0; k < 10; k++) core.entities.get(`sensor.t${(s * 10 + k) % SENSORS}`)?.report(String(15 + ((s + k) % 100) / 10));
    if ((s + 1) % WINDOW_S === 0) await store.flush();
  }
  await hub.registries.flush();
});

const idleHour = await phase('idle (720 flushes with nothing changed, then 3 s of real timers)', async () => {
  for (let f = 0; f < HOUR_S / WINDOW_S; f++) await store.flush();
  await new Promise<void>((resolve) => setTimeout(resolve, 3000));
  await hub.registries.flush();
});

const rename = await phase('one registry change (an entity renamed), registries flushed', async () => {
  hub.registries.entities.update('light.l0', { name: 'Renamed' });
  await hub.registries.flush();
});

const restoreDir = join(dataDir, 'restore_state');
const sizes = {
  snapshot: await stat(join(restoreDir, 'snapshot.json')).then((s) => s.size),
  journal: await stat(join(restoreDir, 'journal')).then((s) => s.size),
  entityRegistry: await stat(join(dataDir, 'registry', 'entities.json')).then(
    (s) => s.size,
    () => 0,
  ),
};
await hub.stop();
await rm(dataDir, { recursive: true, force: true });

const mb = (bytes: number) => (bytes / 1e6).toFixed(2);
const perFlush = restoreHour.bytes / Math.max(1, restoreHour.appends + restoreHour.compactions);
const rewriteEveryFlush = sizes.snapshot * (HOUR_S / WINDOW_S);
const targets = [
  {
    target: `restore: <= ${TARGET_MB_PER_HOUR} MB per hour, 1,000 restorable entities, one change per second`,
    text: `${mb(restoreHour.bytes)} MB`,
    met: restoreHour.bytes <= TARGET_MB_PER_HOUR * 1e6,
  },
  { target: 'restore: sensors that are not restored write nothing', text: `${sensorHour.bytes} B`, met: sensorHour.bytes === 0 },
  { target: 'restore: nothing written while idle', text: `${idleHour.bytes} B`, met: idleHour.bytes === 0 },
];
const lines = [
  `A simulated hour per row with an accelerated flush clock (the store flushed every ${WINDOW_S} simulated seconds, as its window timer does), a hub with ${fmt(RESTORABLE)} restorable entities (virtual lights and switches changed through their services) and ${fmt(SENSORS)} sensors, data dir on the machine's disk. Bytes: \`write_bytes\` of /proc/self/io for the whole process, which counts whole 4 KiB pages (so each journal append costs at least a page: about ${mb(4096 * (HOUR_S / WINDOW_S))} MB per hour at a ${WINDOW_S} s window is the floor).`,
  '',
  '| phase | bytes written | MB per hour | journal appends | compactions |',
  '|---|---:|---:|---:|---:|',
  ...rows.map(
    (r) => `| ${r.phase} | ${fmt(r.bytes)} | ${r.phase.startsWith('one registry') ? '' : mb(r.bytes)} | ${r.appends} | ${r.compactions} |`,
  ),
  '',
  `Per flush: ${fmt(Math.round(perFlush))} B on average (a page per append, plus the rare compaction). The snapshot of all ${fmt(RESTORABLE)} entities is ${fmt(sizes.snapshot)} B (journal at the end ${fmt(sizes.journal)} B): rewriting it at every flush would cost ${mb(rewriteEveryFlush)} MB per hour. The registries write only when a registry changes (${fmt(rename.bytes)} B for one rename, the entity registry file being ${fmt(sizes.entityRegistry)} B, written once, atomically, a second after the change); state changes and idle hours cost them nothing (included in the rows above).`,
  '',
  ...targets.map((t) => `- ${t.target}: ${t.text} (${t.met ? 'met' : 'missed'})`),
];
console.log(lines.join('\n'));
writeFileSync(
  `${BENCH}out/restore-writes.json`,
  `${JSON.stringify({ benchmark: 'restore-writes', rows, sizes, perFlush, targets }, null, 2)}\n`,
);
process.exit(0);
