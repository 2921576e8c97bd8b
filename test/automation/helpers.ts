import { parse } from 'yaml';
import { parseVirtualSection, seededRandom, VirtualDriver } from '../../drivers/virtual/index.js';
import { AutomationExtension } from '../../src/automation/index.js';
import { automationIntegration } from '../../src/automation/integration.js';
import { formatPath } from '../../src/config/reader.js';
import type { HubSection } from '../../src/config/types.js';
import type { Clock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import type { EventType, HubEvent } from '../../src/core/event-bus.js';
import type { JsonValue } from '../../src/core/json.js';
import type { Logger } from '../../src/core/log.js';
import type { State } from '../../src/core/state.js';
import { DOMAINS } from '../../src/domains/index.js';
import type { SectionParser } from '../../src/integration/integration.js';

export interface Teardown {
  teardown(fn: () => unknown): void;
}

import { type LogEntry, memoryLogger } from '../helpers/logger.js';

export { type LogEntry, memoryLogger };

export const HUB_SECTION: HubSection = {
  name: 'Test Home',
  latitude: 52.37,
  longitude: 4.89,
  elevation: 0,
  unit_system: 'metric',
  time_zone: 'Europe/Amsterdam',
  currency: 'EUR',
  country: null,
  language: 'en',
  port: 0,
  host: '127.0.0.1',
  max_entities: 1024,
  external_url: null,
  internal_url: null,
};

/** The devices most tests act on. */
export const DEVICES = `
virtual:
  - { platform: light, id: kitchen, name: Kitchen, color_modes: [brightness] }
  - { platform: light, id: living_room, name: Living Room, color_modes: [hs, color_temp] }
  - { platform: switch, id: coffee_maker, name: Coffee Maker }
`;

export interface Setup {
  readonly core: Core;
  readonly log: Logger & { entries: LogEntry[] };
  readonly extension: AutomationExtension;
}

/**
 * A core with every domain, the virtual devices of `yaml`'s `virtual:` section, and the automation
 * extension started on its `automation:`, `script:` and `scene:` sections (which must be valid).
 */
export async function setup(t: Teardown, yaml: string, options: { clock?: Clock; timeZone?: string } = {}): Promise<Setup> {
  const doc = (parse(yaml) ?? {}) as Record<string, JsonValue>;
  const log = memoryLogger();
  const core = new Core({ log, clock: options.clock, maxEntities: 1024 });
  for (const domain of DOMAINS) domain.registerServices(core);
  const issues: { path: readonly (string | number)[]; message: string }[] = [];
  const items = parseVirtualSection(doc.virtual, ['virtual'], issues);
  const { automation, script, scene, sun } = automationIntegration.sections;
  const definitions = {
    automation: automation(doc.automation, ['automation'], issues),
    script: script(doc.script, ['script'], issues),
    scene: scene(doc.scene, ['scene'], issues),
    sun: sun(doc.sun, ['sun'], issues),
  };
  if (issues.length > 0) throw new Error(issues.map((i) => `${formatPath(i.path)}: ${i.message}`).join('\n'));
  const driver = new VirtualDriver({ core, log, owner: 'virtual', dataDir: '' }, { items, random: seededRandom(7) });
  await driver.start();
  const hub = { ...HUB_SECTION, time_zone: options.timeZone ?? HUB_SECTION.time_zone };
  const extension = new AutomationExtension(core, hub, log, { definitions });
  await extension.start();
  core.runState = 'RUNNING';
  t.teardown(async () => {
    await extension.stop();
    await driver.stop();
  });
  return { core, log, extension };
}

/** Resolves with the first matching event; rejects after `ms` so a test fails instead of hanging. */
export function nextEvent<T extends EventType>(
  core: Core,
  type: T,
  match: (e: HubEvent<T>) => boolean = () => true,
  ms = 2000,
): Promise<HubEvent<T>> {
  return new Promise((resolve, reject) => {
    const owner = `test-wait-${Math.random()}`;
    const timer = setTimeout(() => {
      core.bus.removeOwner(owner);
      reject(new Error(`no ${type} event within ${ms} ms`));
    }, ms);
    core.bus.on(owner, type, (event: HubEvent<T>) => {
      if (!match(event)) return;
      clearTimeout(timer);
      core.bus.removeOwner(owner);
      resolve(event);
    });
  });
}

/** Resolves once the entity has the state (at once if it has it already); rejects after `ms`. */
export async function stateBecomes(core: Core, entityId: string, state: string, ms = 2000): Promise<State> {
  const now = core.states.get(entityId);
  if (now?.state === state) return now;
  const event = await nextEvent(core, 'state_changed', (e) => e.data.entity_id === entityId && e.data.new_state?.state === state, ms);
  return event.data.new_state as State;
}

/**
 * Lets pending promise callbacks and the runner's turn run (one event-loop turn, no timer), so a run that
 * announced itself has reached its next action, e.g. attached a wait_for_trigger.
 */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Every event of a type from now on. */
export function recordEvents<T extends EventType>(core: Core, type: T): HubEvent<T>[] {
  const out: HubEvent<T>[] = [];
  core.bus.on('test-record', type, (e: HubEvent<T>) => out.push(e));
  return out;
}

/** Validates sections as check-config does and returns the messages as "path: message". */
export function validate(yaml: string): string[] {
  const doc = (parse(yaml) ?? {}) as Record<string, JsonValue>;
  const issues: { path: readonly (string | number)[]; message: string }[] = [];
  const parsers: Readonly<Record<string, SectionParser>> = automationIntegration.sections;
  for (const [key, value] of Object.entries(doc)) {
    const parse = parsers[key];
    if (parse === undefined) throw new Error(`no parser for ${key}`);
    parse(value, [key], issues);
  }
  return issues.map((i) => `${formatPath(i.path)}: ${i.message}`);
}
