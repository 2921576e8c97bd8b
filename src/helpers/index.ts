import type { ConfigIssue, ConfigPath } from '../config/reader.js';
import type { HubConfig } from '../config/types.js';
import type { Component } from '../core/component.js';
import type { Core } from '../core/core.js';
import { isJsonObject, type JsonValue } from '../core/json.js';
import type { Logger } from '../core/log.js';
import type { Integration, SectionParser } from '../integration/integration.js';
import { reloadSections } from '../integration/reload.js';
import type { WriteFile } from '../storage/data-file.js';
import type { Scheduler } from '../util/scheduler.js';
import { timersScheduler } from '../util/scheduler.js';
import { HelperCollection, validateItem } from './collection.js';
import type { HelperItem } from './fields.js';
import type { HelperKind } from './kind.js';
import { COUNTER } from './kinds/counter.js';
import { INPUT_BOOLEAN } from './kinds/input-boolean.js';
import { INPUT_BUTTON } from './kinds/input-button.js';
import { INPUT_DATETIME } from './kinds/input-datetime.js';
import { INPUT_NUMBER } from './kinds/input-number.js';
import { INPUT_SELECT } from './kinds/input-select.js';
import { INPUT_TEXT } from './kinds/input-text.js';
import { TIMER } from './kinds/timer.js';

export type { HelperCollection } from './collection.js';

/** Every helper domain: a YAML section and WebSocket commands each. */
export const HELPER_KINDS: readonly HelperKind[] = [
  INPUT_BOOLEAN,
  INPUT_NUMBER,
  INPUT_SELECT,
  INPUT_TEXT,
  INPUT_DATETIME,
  INPUT_BUTTON,
  COUNTER,
  TIMER,
];

/** Home Assistant's cv.slug for the YAML keys (they become the object ids). */
const SLUG = /^[a-z0-9_]+$/;

/** Reads one helper section (`input_boolean: {id: {...}}`), every problem with its path. */
export function readHelperSection(kind: HelperKind, value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): HelperItem[] {
  if (value === undefined || value === null) return [];
  if (!isJsonObject(value)) {
    issues.push({ path, message: `expected a mapping of ids to ${kind.domain} helpers (e.g. my_helper: {name: ...})` });
    return [];
  }
  const items: HelperItem[] = [];
  for (const [id, raw] of Object.entries(value)) {
    if (!SLUG.test(id)) {
      issues.push({
        path: [...path, id],
        message: `invalid id ${JSON.stringify(id)}: expected lower-case letters, digits and underscores (it becomes ${kind.domain}.<id>)`,
      });
      continue;
    }
    const { values, problems } = validateItem(kind, raw, 'yaml');
    for (const p of problems) issues.push({ path: p.key === undefined ? [...path, id] : [...path, id, p.key], message: p.message });
    if (problems.length === 0) items.push({ id, ...values });
  }
  return items;
}

/** Each helper domain's section, as its YAML items. */
export type HelperSections = Readonly<Record<string, SectionParser<HelperItem[]>>>;

const HELPER_SECTIONS: HelperSections = Object.fromEntries(
  HELPER_KINDS.map((kind): [string, SectionParser<HelperItem[]>] => [
    kind.domain,
    (value, path, issues) => readHelperSection(kind, value, path, issues),
  ]),
);

/** The YAML helpers of each domain (`input_boolean: {...}`), as the sections read them. */
export type HelperYaml = Readonly<Record<string, readonly HelperItem[] | undefined>>;

export interface HelpersOptions {
  readonly core: Core;
  /** The YAML helpers, by domain. */
  readonly yaml: HelperYaml;
  readonly dataDir: string;
  readonly log: Logger;
  /** Timers on the hub's clock; real timers by default (tests pass a manual one). */
  readonly scheduler?: Scheduler;
  /** The hub's time zone offset from UTC in ms at a UTC instant. */
  readonly offsetMs?: (utcMs: number) => number;
  readonly writeFile?: WriteFile;
  /** Reads the configuration again for `<helper>.reload`. */
  readonly reloadConfig: () => Promise<HubConfig>;
  /** Drops a deleted helper's entity registry entry (Home Assistant removes it with the helper). */
  readonly forget?: (entityId: string) => void;
}

export const HELPERS_OWNER = 'helpers';

/**
 * The helpers (input_boolean, input_number, input_select, input_text, input_datetime, input_button, counter,
 * timer) as one component: after the registries (their entities get their registry settings), before the
 * drivers and automations (which read and act on them).
 */
export class Helpers implements Component {
  readonly name = 'helpers';
  readonly owner = HELPERS_OWNER;
  /** An unreadable helpers file is logged and the hub runs on without the helpers, as it does without a driver. */
  readonly optional = true;
  private readonly collections = new Map<string, HelperCollection>();
  private readonly scheduler: Scheduler;

  constructor(private readonly options: HelpersOptions) {
    const log = options.log;
    this.scheduler = options.scheduler ?? timersScheduler((err) => log.error({ err }, 'helper timer failed'));
    for (const kind of HELPER_KINDS) {
      // Entities are owned by their domain, so the entity registry's platform is `input_boolean`, as in Home Assistant.
      const env = { core: options.core, owner: kind.domain, scheduler: this.scheduler, offsetMs: options.offsetMs ?? (() => 0), log };
      this.collections.set(
        kind.domain,
        new HelperCollection({ kind, env, dataDir: options.dataDir, log, writeFile: options.writeFile, forget: options.forget }),
      );
    }
  }

  /** The collection of a helper domain (the WebSocket commands' way in). */
  collection(domain: string): HelperCollection | undefined {
    return this.collections.get(domain);
  }

  async start(): Promise<void> {
    const { yaml, core } = this.options;
    for (const collection of this.collections.values()) {
      const domain = collection.kind.domain;
      await collection.load(yaml[domain] ?? []);
      core.services.register(HELPERS_OWNER, {
        domain,
        service: 'reload',
        name: 'Reload',
        description: `Reloads ${domain} helpers from the YAML-configuration.`,
        schema: { fields: {} },
        handler: () => this.reload(collection),
      });
    }
  }

  /**
   * Reads the YAML again: a broken helper is left out alone and named in a persistent notification, the others
   * reloaded (Home Assistant's reload); a file that cannot be read refuses the reload, keeping the helpers as they are.
   */
  private async reload(collection: HelperCollection): Promise<void> {
    const kind = collection.kind;
    const read = await reloadSections({
      domain: kind.domain,
      sections: {
        [kind.domain]: (value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]) =>
          readHelperSection(kind, value, path, issues),
      },
      itemOf: (path) => path.slice(0, 2),
      reloadConfig: this.options.reloadConfig,
      core: this.options.core,
      log: this.options.log,
    });
    collection.reloadYaml(read[kind.domain] ?? []);
  }

  async stop(): Promise<void> {
    this.options.core.services.removeOwner(HELPERS_OWNER);
    for (const collection of this.collections.values()) await collection.stop();
    this.scheduler.stopAll();
    for (const domain of this.collections.keys()) {
      this.options.core.bus.removeOwner(domain);
      this.options.core.entities.removeOwner(domain);
    }
  }
}

/**
 * The helpers (input_boolean, input_number, ... timer): their YAML sections and the items stored from the
 * WebSocket commands, before the API listens so clients find them at once. Always on (stored helpers need no
 * section); a helper whose YAML has problems is left out alone.
 */
export const helpersIntegration: Integration<HelperSections, Helpers> = {
  name: 'helpers',
  sections: HELPER_SECTIONS,
  stage: 'core',
  itemOf: (path) => path.slice(0, 2),
  create: (ctx, yaml) =>
    new Helpers({
      core: ctx.core,
      yaml,
      dataDir: ctx.dataDir,
      log: ctx.log,
      scheduler: ctx.scheduler,
      forget: (entityId) => {
        if (ctx.registries.entities.entry(entityId) !== undefined) ctx.registries.entities.remove(entityId);
      },
      reloadConfig: ctx.reloadConfig,
      offsetMs: (utcMs) => ctx.timeZone.offsetMs(utcMs),
    }),
};
