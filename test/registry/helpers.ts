import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { HubConfig } from '../../src/config/types.js';
import { ManualClock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import type { EventType, HubEvent } from '../../src/core/event-bus.js';
import type { Logger } from '../../src/core/log.js';
import { DOMAINS } from '../../src/domains/index.js';
import { addSwitch } from '../../src/domains/switch.js';
import { Registries } from '../../src/registry/index.js';
import { writeFileAtomic } from '../../src/storage/atomic-file.js';

export interface Teardown {
  teardown(fn: () => unknown): void;
}

import { type LogEntry, memoryLogger } from '../helpers/logger.js';

export { type LogEntry, memoryLogger };

export async function tempDir(t: Teardown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-registry-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Counts registry file writes and lets a test wait for the next one (with a deadline, never a sleep). */
export class WriteLog {
  readonly files: string[] = [];
  private waiters: (() => void)[] = [];

  readonly writeFile = async (path: string, data: string): Promise<void> => {
    await writeFileAtomic(path, data);
    this.files.push(basename(path));
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  };

  /** Resolves once `count` writes happened in total; rejects after `ms`. */
  until(count: number, ms = 3000): Promise<void> {
    if (this.files.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`expected ${count} writes within ${ms} ms, saw ${this.files.join(', ')}`)), ms);
      const check = (): void => {
        if (this.files.length >= count) {
          clearTimeout(timer);
          resolve();
        } else this.waiters.push(check);
      };
      this.waiters.push(check);
    });
  }
}

export interface CoreSetup {
  readonly core: Core;
  readonly clock: ManualClock;
  readonly registries: Registries;
  readonly writes: WriteLog;
  readonly log: Logger & { entries: LogEntry[] };
  readonly dir: string;
}

/** A core with every domain's services and the registries started on a data directory. */
export async function startCore(
  t: Teardown,
  options: { dir?: string; sections?: HubConfig['sections']; saveDelayMs?: number } = {},
): Promise<CoreSetup> {
  const dir = options.dir ?? (await tempDir(t));
  const clock = new ManualClock();
  const log = memoryLogger();
  const core = new Core({ log, clock, maxEntities: 64 });
  for (const domain of DOMAINS) domain.registerServices(core);
  const writes = new WriteLog();
  const registries = await Registries.start({
    core,
    dataDir: dir,
    sections: options.sections ?? {},
    log,
    saveDelayMs: options.saveDelayMs ?? 10,
    writeFile: writes.writeFile,
  });
  t.teardown(() => registries.stop());
  return { core, clock, registries, writes, log, dir };
}

/** A switch that does what it is told, reporting `off` at first. */
export function testSwitch(core: Core, entityId: string, options: { name?: string; deviceId?: string; uniqueId?: string } = {}) {
  const calls: string[] = [];
  const sw = addSwitch(core, {
    entityId,
    owner: 'test',
    name: options.name,
    deviceId: options.deviceId,
    uniqueId: options.uniqueId,
    platform: {
      turnOn() {
        calls.push(`on:${sw.entity.id}`);
        sw.report(true);
      },
      turnOff() {
        calls.push(`off:${sw.entity.id}`);
        sw.report(false);
      },
    },
  });
  sw.report(false);
  return { ...sw, calls };
}

/** Every event of the given types, in order. */
export function recordEvents(core: Core, types: readonly EventType[]): HubEvent[] {
  const events: HubEvent[] = [];
  for (const type of types) core.bus.on('test-recorder', type, (e) => events.push(e as HubEvent));
  return events;
}

/** Events in firing order across types (one listener for all). */
export function recordAll(core: Core, types: readonly string[]): { type: string; data: unknown }[] {
  const out: { type: string; data: unknown }[] = [];
  core.bus.on('test-recorder', '*', (e) => {
    if (types.includes(e.event_type)) out.push({ type: e.event_type, data: JSON.parse(e.json).data });
  });
  return out;
}

/** A home with floors, areas, labels, devices and customized entities, for the tests of the registries through a hub. */
/** The keys of an entity registry entry as Home Assistant's `config/entity_registry/list` gives them, in order. */
export const ENTITY_ENTRY_KEYS: readonly string[] = [
  'area_id',
  'categories',
  'config_entry_id',
  'created_at',
  'device_id',
  'disabled_by',
  'entity_category',
  'entity_id',
  'has_entity_name',
  'hidden_by',
  'icon',
  'id',
  'labels',
  'modified_at',
  'name',
  'options',
  'original_name',
  'platform',
  'translation_key',
  'unique_id',
];

export const REGISTRY_HOME_YAML = `
hub:
  name: Test Home
  latitude: 52.37
  longitude: 4.89
  elevation: 3
  time_zone: Europe/Amsterdam
floors:
  - name: Ground Floor
    level: 0
  - name: Upstairs
    level: 1
labels:
  - name: Christmas
    color: red
areas:
  - name: Kitchen
    floor: ground_floor
  - name: Living Room
    floor: Ground Floor
    labels: [christmas]
  - name: Bedroom
    floor: upstairs
virtual:
  - platform: light
    id: kitchen_ceiling
    name: Kitchen Ceiling
    device: {name: Kitchen Lights, manufacturer: IKEA, model: TRADFRI, area: kitchen}
  - platform: light
    id: kitchen_counter
    name: Kitchen Counter
    device: {name: Kitchen Lights}
  - platform: light
    id: sofa
    name: Sofa Lamp
  - platform: light
    id: bedside
    name: Bedside
  - platform: switch
    id: tree
    name: Tree
customize:
  light.kitchen_counter: {area: living_room}
  light.sofa: {area: living_room}
  light.bedside: {area: Bedroom, labels: [Christmas]}
  switch.tree: {area: living_room, icon: "mdi:pine-tree"}
`;
