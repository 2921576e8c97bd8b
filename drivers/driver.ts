import type { SectionValidator } from '../src/config/load.js';
import type { Core } from '../src/core/core.js';
import type { JsonObject, JsonValue } from '../src/core/json.js';
import type { Logger } from '../src/core/log.js';

/** What a driver gets from the hub. `owner` is the key its listeners, entities and services go under. */
export interface DriverContext {
  readonly core: Core;
  readonly log: Logger;
  readonly owner: string;
  readonly dataDir: string;
  /** Random source for simulations; tests seed it. */
  readonly random?: () => number;
  /** The entity's state from before the restart (the restore-state store), for drivers that restore outputs themselves. */
  readonly lastState?: (entityId: string) => { readonly state: string; readonly attributes?: JsonObject } | undefined;
}

/**
 * A source of entities: the virtual demo, GPIO, I²C, 1-Wire, serial, Zigbee. `start()` registers entities
 * and begins I/O; it must not block the hub on slow hardware (a device that does not answer is marked
 * unavailable and retried with backoff). `stop()` ends all I/O and timers; the hub then removes
 * everything registered under the driver's owner key.
 */
export interface Driver {
  readonly kind: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A kind of driver, configured by one top-level YAML section. Hardware drivers load their packages
 * (onoff, i2c-bus, serialport) lazily inside `create`, so a hub without that hardware never pays for them.
 */
export interface DriverKind {
  readonly section: string;
  readonly validate: SectionValidator;
  /** The driver for the section's value, or undefined when the section configures nothing. */
  create(ctx: DriverContext, value: JsonValue): Driver | undefined;
}
