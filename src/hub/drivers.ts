import type { Driver, DriverContext, DriverKind } from '../../drivers/driver.js';
import type { HubConfig } from '../config/types.js';
import type { Component } from '../core/component.js';
import type { Core } from '../core/core.js';
import type { JsonValue } from '../core/json.js';
import type { Logger } from '../core/log.js';

export interface DriversOptions {
  readonly core: Core;
  readonly config: HubConfig;
  readonly log: Logger;
  readonly kinds: readonly DriverKind[];
  /** How long start() waits for a driver before carrying on without it. */
  readonly startTimeoutMs: number;
  /** Everything else a driver gets besides core, log and owner (data dir, random source, last states). */
  readonly context: Omit<DriverContext, 'core' | 'log' | 'owner'>;
}

/**
 * Every configured driver as one optional component. Drivers start concurrently, each with its own deadline,
 * so one slow or failing device neither holds up the others nor the hub; each failure is logged once with the
 * driver's name. On stop each driver is stopped (last created first) and what it registered under its owner
 * key is removed.
 */
export class Drivers implements Component {
  readonly name = 'drivers';
  readonly optional = true;
  private readonly running: { owner: string; driver: Driver }[] = [];

  constructor(private readonly options: DriversOptions) {}

  async start(): Promise<void> {
    const { core, config, log } = this.options;
    for (const kind of this.options.kinds) {
      const value = config.sections[kind.section];
      if (value === undefined) continue;
      const owner = kind.section;
      try {
        const driver = kind.create({ ...this.options.context, core, log: log.child({ driver: owner }), owner }, value as JsonValue);
        if (driver !== undefined) this.running.push({ owner, driver });
      } catch (err) {
        log.error({ err, driver: owner }, `driver ${owner} could not be created; the hub carries on without it`);
      }
    }
    await Promise.all(this.running.map(({ owner, driver }) => this.startOne(owner, driver)));
  }

  private async startOne(owner: string, driver: Driver): Promise<void> {
    const { log, startTimeoutMs } = this.options;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), startTimeoutMs);
    });
    try {
      const result = await Promise.race([driver.start().then(() => 'ok' as const), timeout]);
      if (result === 'timeout')
        log.warn(
          { driver: owner },
          `driver ${owner} is still starting after ${startTimeoutMs / 1000} s; the hub carries on without waiting`,
        );
    } catch (err) {
      log.error({ err, driver: owner }, `driver ${owner} failed to start; its entities stay unavailable`);
    } finally {
      clearTimeout(timer);
    }
  }

  async stop(): Promise<void> {
    const { core, log } = this.options;
    for (const { owner, driver } of this.running.reverse()) {
      try {
        await driver.stop();
      } catch (err) {
        log.error({ err, driver: owner }, `driver ${owner} failed to stop cleanly`);
      }
      core.bus.removeOwner(owner);
      core.services.removeOwner(owner);
      core.entities.removeOwner(owner);
    }
    this.running.length = 0;
  }
}
