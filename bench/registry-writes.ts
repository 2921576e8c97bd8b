/**
 * Registry disk writes: what the registries cost an SD card. A core with 1,000 switches (each with a unique
 * id, so each has an entry in entities.json) on 100 devices in 20 areas, the registries on a temporary data
 * directory on the real disk, the production save delay (1 s) and the real atomic write (temp file, fsync,
 * rename, fsync of the directory). Measured from /proc/self/io: write_bytes (what this process sent to the
 * block device) and wchar (what it passed to write()), over three periods:
 * - idle: 1,000 state changes/s for 10 s and no registry change; the target is 0 bytes;
 * - spaced changes: an entity rename or a device's area change every 1.5 s (each its own write), so the
 *   cost per change can be scaled to an hour of churn;
 * - a burst: 200 renames at once, which the save delay turns into one write.
 * Writes bench/out/registry-writes.json and prints a markdown table. Linux only (/proc/self/io).
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../src/core/clock.js';
import { Core } from '../src/core/core.js';
import { silentLogger } from '../src/core/log.js';
import { DOMAINS } from '../src/domains/index.js';
import { addSwitch } from '../src/domains/switch.js';
import { Registries } from '../src/registry/index.js';
import { writeFileAtomic } from '../src/storage/atomic-file.js';

const ENTITIES = 1000;
const DEVICES = 100;
const AREAS = 20;
const IDLE_MS = 10_000;
const IDLE_UPDATES_PER_S = 1000;
const SPACED_CHANGES = 20;
const SPACING_MS = 1500;
const BURST = 200;
/** The save delay plus the time a write takes on a slow card. */
const SETTLE_MS = 2500;

interface Io {
  readonly writeBytes: number;
  readonly wchar: number;
  /** Registry files written (atomic writes that completed). */
  readonly writes: number;
}

function io(writes: number): Io {
  const text = readFileSync('/proc/self/io', 'utf8');
  const field = (name: string): number => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
  return { writeBytes: field('write_bytes'), wchar: field('wchar'), writes };
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-bench-registry-'));
  const core = new Core({ log: silentLogger, clock: systemClock, maxEntities: ENTITIES + 64 });
  for (const domain of DOMAINS) domain.registerServices(core);
  const areas = Array.from({ length: AREAS }, (_, i) => ({ name: `Room ${i}` }));
  let writes = 0;
  const writeFile = async (path: string, data: string): Promise<void> => {
    await writeFileAtomic(path, data, 0o600);
    writes++;
  };
  const registries = await Registries.start({ core, dataDir, sections: { areas }, log: silentLogger, writeFile });
  const devices = Array.from({ length: DEVICES }, (_, i) =>
    core.devices.register({ identifiers: [['bench', `dev${i}`]], name: `Device ${i}`, owner: 'bench', manufacturer: 'Bench', model: 'B1' }),
  );
  const switches = Array.from({ length: ENTITIES }, (_, i) => {
    const sw = addSwitch(core, {
      entityId: `switch.s${i}`,
      owner: 'bench',
      name: `Switch ${i}`,
      uniqueId: `bench-s${i}`,
      deviceId: devices[i % DEVICES]?.id,
      platform: { turnOn() {}, turnOff() {} },
    });
    sw.report(false);
    return sw;
  });
  for (let i = 0; i < DEVICES; i++) registries.devices.update((devices[i] as { id: string }).id, { area_id: `room_${i % AREAS}` });
  await registries.flush();
  const fileBytes = (name: string): number => statSync(join(dataDir, 'registry', `${name}.json`)).size;

  // Idle: state changes only.
  const idleStart = io(writes);
  let n = 0;
  const ticker = setInterval(() => {
    for (let k = 0; k < IDLE_UPDATES_PER_S / 10; k++) switches[n++ % ENTITIES]?.report(n % 2 === 0);
  }, 100);
  await delay(IDLE_MS);
  clearInterval(ticker);
  const idleEnd = io(writes);

  // Spaced changes: renames and area changes, each written on its own.
  const spacedStart = io(writes);
  for (let i = 0; i < SPACED_CHANGES; i++) {
    if (i % 2 === 0) registries.entities.update(`switch.s${i * 37}`, { name: `Renamed ${i}` });
    else registries.devices.update((devices[i] as { id: string }).id, { area_id: `room_${(i + 7) % AREAS}` });
    await delay(SPACING_MS);
  }
  await delay(SETTLE_MS);
  const spacedEnd = io(writes);

  // A burst: many renames at once (a client renaming a batch of entities).
  const burstStart = io(writes);
  for (let i = 0; i < BURST; i++) registries.entities.update(`switch.s${i}`, { name: `Batch ${i}` });
  await delay(SETTLE_MS);
  const burstEnd = io(writes);

  const sizes = { entities: fileBytes('entities'), devices: fileBytes('devices'), areas: fileBytes('areas') };
  await registries.stop();
  await rm(dataDir, { recursive: true, force: true });

  const kb = (bytes: number): string => (bytes / 1024).toLocaleString('en-US', { maximumFractionDigits: 1 });
  const mb = (bytes: number): string => (bytes / 2 ** 20).toLocaleString('en-US', { maximumFractionDigits: 1 });
  const idleWrite = idleEnd.writeBytes - idleStart.writeBytes;
  const idleChar = idleEnd.wchar - idleStart.wchar;
  const spacedWrite = spacedEnd.writeBytes - spacedStart.writeBytes;
  const spacedChar = spacedEnd.wchar - spacedStart.wchar;
  const burstWrite = burstEnd.writeBytes - burstStart.writeBytes;
  const burstChar = burstEnd.wchar - burstStart.wchar;
  const perChange = spacedWrite / SPACED_CHANGES;
  const count = (a: Io, b: Io): number => b.writes - a.writes;
  const rows = [
    `| idle: ${IDLE_UPDATES_PER_S.toLocaleString('en-US')} state changes/s for ${IDLE_MS / 1000} s, no registry change | ${kb(idleWrite)} | ${kb(idleChar)} | ${count(idleStart, idleEnd)} |`,
    `| ${SPACED_CHANGES} changes ${SPACING_MS / 1000} s apart (entity renames, device area changes) | ${kb(spacedWrite)} | ${kb(spacedChar)} | ${count(spacedStart, spacedEnd)} |`,
    `| per change | ${kb(perChange)} | ${kb(spacedChar / SPACED_CHANGES)} | ${count(spacedStart, spacedEnd) / SPACED_CHANGES} |`,
    `| a burst of ${BURST} renames at once | ${kb(burstWrite)} | ${kb(burstChar)} | ${count(burstStart, burstEnd)} |`,
  ];
  const perHour = (changesPerHour: number): string => `${mb(perChange * changesPerHour)} MB`;
  const targets = [
    { target: 'nothing written while idle', text: `${idleWrite} bytes`, met: idleWrite === 0 && count(idleStart, idleEnd) === 0 },
  ];
  mkdirSync(new URL('./out/', import.meta.url), { recursive: true });
  writeFileSync(
    new URL('./out/registry-writes.json', import.meta.url),
    `${JSON.stringify({ idleWrite, idleChar, spacedWrite, spacedChar, burstWrite, burstChar, perChange, sizes, targets }, null, 2)}\n`,
  );
  console.log(
    [
      `${ENTITIES.toLocaleString('en-US')} entities with unique ids on ${DEVICES} devices in ${AREAS} areas; registry files: entities.json ${kb(sizes.entities)} KB, devices.json ${kb(sizes.devices)} KB, areas.json ${kb(sizes.areas)} KB. Save delay 1 s, atomic writes (temp file, fsync, rename, fsync of the directory) to ${tmpdir()}. Bytes from /proc/self/io: write_bytes is what reached the block device, wchar what was passed to write().`,
      '',
      '| period | write_bytes KB | wchar KB | registry writes |',
      '|---|---:|---:|---:|',
      ...rows,
      '',
      `Per hour: ${perHour(60)} at one change a minute (an evening of setting up), ${perHour(6)} at six an hour (a busy day), 0 when nobody edits; state changes never write. A change rewrites the whole file it touches (the entity registry for a rename, the device registry for a device's area), so the cost scales with the number of entities, not with the number of changes in a burst.`,
      '',
      ...targets.map((t) => `- ${t.target}: ${t.text} (${t.met ? 'met' : 'not met'})`),
    ].join('\n'),
  );
}

await main();
