import type { ConfigIssue, ConfigPath } from '../config/reader.js';
import type { HubConfig, HubSection } from '../config/types.js';
import type { Component } from '../core/component.js';
import type { Core } from '../core/core.js';
import type { JsonObject, JsonValue } from '../core/json.js';
import type { Logger } from '../core/log.js';
import type { Registries } from '../registry/index.js';
import type { TemplateEngine } from '../template/index.js';
import type { LogLevels } from '../util/logger.js';
import type { Scheduler } from '../util/scheduler.js';

/**
 * Reads one top-level section into the typed configuration its part is created with, appending each problem with
 * its path. Called with `undefined` when the section is absent (return what that means: nothing, or defaults).
 */
export type SectionParser<T = unknown> = (value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[], hub?: HubSection) => T;

export type SectionParsers = Readonly<Record<string, SectionParser>>;

/** A parser for a section whose absence means "nothing configured": undefined then, `parse` otherwise. */
export function optionalSection<T>(
  parse: (value: JsonValue, path: ConfigPath, issues: ConfigIssue[], hub?: HubSection) => T,
): SectionParser<T | undefined> {
  return (value, path, issues, hub) => (value === undefined ? undefined : parse(value, path, issues, hub));
}

/** Something the hub could not set up: a part, one item of a part (`automation[2]`), an unknown section. */
export interface Broken {
  /** As the file names it: `mqtt`, `automation ui[2] (Porch light)`, `frobnicate`. */
  readonly name: string;
  /** The first problem, with its place in the file, and how many more there are. */
  readonly reason: string;
  /** When one item of a section was left out: where it is and what it says (HA shows such an automation unavailable). */
  readonly item?: { readonly path: ConfigPath; readonly value: JsonValue | undefined };
}

/** What `create` gets: each section's parse, by section name. */
export type ParsedSections<S extends SectionParsers> = { readonly [K in keyof S]: ReturnType<S[K]> };

/** The hub's time zone: its IANA name and its offset from UTC at an instant. */
export interface ZoneInfo {
  readonly name: string;
  offsetMs(utcMs: number): number;
}

/** What `mqtt` triggers subscribe through: the MQTT part's broker connection, while it runs. */
export interface MessageSource {
  subscribe(
    filter: string,
    fn: (message: { readonly topic: string; readonly payload: string; readonly retain: boolean }) => void,
  ): () => void;
  render(template: string, variables: JsonObject): string;
}

/** An entity's state from before the restart (the restore-state store). */
export interface LastState {
  readonly state: string;
  readonly attributes?: JsonObject;
}

/**
 * What a part gets from the hub, and all it may reach. Whatever it registers (bus listeners, services, entities,
 * devices) goes under `owner`, and is removed in bulk when the part is taken down at run time (a failed start
 * before a retry); at shutdown the hub keeps its entities, as Home Assistant does.
 */
export interface IntegrationContext {
  readonly core: Core;
  readonly log: Logger;
  readonly owner: string;
  readonly dataDir: string;
  /** The hub's timers (a manual one in tests), scoped to this part: its `stopAll` clears only the part's own. */
  readonly scheduler: Scheduler;
  /** The `hub:` settings: name, location, units. */
  readonly hub: HubSection;
  readonly timeZone: ZoneInfo;
  /** The hub's one template engine (shared with the API). */
  readonly templates: TemplateEngine;
  /** Restore state: the entity's state from before the restart. */
  readonly lastState: (entityId: string) => LastState | undefined;
  readonly registries: Registries;
  /**
   * Reads the configuration file again for `<domain>.reload` (problems a part can be left out for come back in
   * `problems`; others throw); the bundled demo has no file to re-read and gives the configuration loaded at start.
   */
  readonly reloadConfig: () => Promise<HubConfig>;
  /** The MQTT broker connection, when an `mqtt:` section is configured. */
  readonly mqtt?: MessageSource;
  /** Random source for simulations (the virtual devices); tests seed it. */
  readonly random?: () => number;
  /** The port the API listens on, once it does (parts of the 'devices' stage start after that). */
  readonly httpPort?: () => number;
  /** The log's levels, changed by the `logger:` section and its services; absent in tests with a plain logger. */
  readonly logLevels?: LogLevels;
}

/** When a part starts, relative to the hub's own components. */
export type Stage =
  /** Before the registries, so it sees everything after it (the recorder). */
  | 'storage'
  /** After the registries, before the API listens, so clients find it at once (helpers). */
  | 'core'
  /** After the API listens, in list order (drivers, MQTT, templates, thermostats, automations). */
  | 'devices';

/**
 * One optional part of the hub (a driver kind, MQTT, the recorder, template entities, thermostats, automations,
 * helpers, later HomeKit or Matter): one folder exporting one of these, and one line in src/sections.ts.
 *
 * The hub reads each section once (its parse, at load), creates the part from what was read, and starts it in
 * isolation: a part whose section has problems, whose create or start throws, is not started; a start that fails
 * with a cause that can pass (NotReadyError, a device not there yet) is retried with backoff; every other part
 * starts, and each broken one is named once in the log and in the `invalid_config` persistent notification.
 */
export interface Integration<S extends SectionParsers = SectionParsers, P extends Component = Component> {
  /** Its name in logs and in the notification; the owner key of what it registers. */
  readonly name: string;
  /** The top-level sections it reads, each with its parser (most parts have one: `{ mqtt: parseMqtt }`). */
  readonly sections: S;
  /** 'devices' unless told. */
  readonly stage?: Stage;
  /**
   * For parts made of independent items (automations, scripts, template entities): the item a problem's path is
   * in (`['automation', 3]`, `['template', 0, 'sensor', 1]`), or the section itself for a problem of its shape.
   * Only that item (or section) is left out and the rest starts. Without it, any problem keeps the part from
   * starting (a driver, MQTT: half a configuration could drive the wrong pins or the wrong broker).
   */
  readonly itemOf?: (path: ConfigPath) => ConfigPath;
  /**
   * The part for what its sections configure, or undefined when they configure nothing (no section, an empty
   * list). Builds objects only: I/O belongs in the part's start().
   */
  /** `broken`: the items of its sections left out for their problems (already named), for parts that show them. */
  create(ctx: IntegrationContext, config: ParsedSections<S>, broken?: readonly Broken[]): P | undefined;
}

/** Any integration, whatever its sections and part (create is a method, so each typed one fits): what lists hold. */
export type AnyIntegration = Integration<SectionParsers, Component>;

/**
 * Thrown by a part's start() when something it needs is not there yet (a device, a broker, a file another
 * service makes): the part is retried with backoff, as Home Assistant's ConfigEntryNotReady.
 */
export class NotReadyError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NotReadyError';
  }
}

/** Error codes of a device or connection that may come back (unplugged, busy, permissions not yet set at boot). */
const TRANSIENT_CODES: ReadonlySet<string> = new Set([
  'ENOENT',
  'ENODEV',
  'ENXIO',
  'EBUSY',
  'EAGAIN',
  'EIO',
  'EACCES',
  'ETIMEDOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** Whether a start failure can pass by itself, so the part is retried rather than left off. */
export function isTransient(err: unknown): boolean {
  if (err instanceof NotReadyError) return true;
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && TRANSIENT_CODES.has(code);
}
