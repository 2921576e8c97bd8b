import type { ConfigReader } from '../../src/config/reader.js';
import type { Core } from '../../src/core/core.js';
import type { Logger } from '../../src/core/log.js';
import type { Timers } from '../../src/util/timers.js';

/** What a simulated device gets: the core, a logger, timers cleared on stop, and a seedable random source. */
export interface VirtualContext {
  readonly core: Core;
  readonly log: Logger;
  readonly owner: string;
  readonly timers: Timers;
  /** Uniform in [0, 1); seeded in tests so simulations are repeatable. */
  readonly random: () => number;
  /** The hub's data directory (camera snapshots default to <data>/snapshots). */
  readonly dataDir?: string;
}

/** Identity of one configured virtual entity. */
export interface VirtualIdentity {
  /** Full entity id, `<platform>.<id>`. */
  readonly entityId: string;
  readonly name: string;
}

/**
 * One kind of simulated device, per domain. `parse` validates its options from the YAML item (reporting
 * problems through the reader, with their paths), `create` registers the entity and starts simulating.
 */
export interface VirtualPlatform<O> {
  readonly domain: string;
  parse(reader: ConfigReader): O;
  create(ctx: VirtualContext, identity: VirtualIdentity, options: O): void;
}
