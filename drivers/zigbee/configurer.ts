import type { Clock } from '../../src/core/clock.js';
import type { Logger } from '../../src/core/log.js';
import type { Scheduler } from '../../src/util/scheduler.js';
import { type BackoffOptions, backoffDelay } from '../common/device-poller.js';
import type { DeviceEntities, ZigbeeDevice } from './types.js';

/**
 * Runs a definition's configure (binds, reporting, and the reads of divisors and multipliers a plug's power and
 * energy are scaled by) as zigbee2mqtt's configure extension does: after the interview, again on a device's next
 * message or announcement while it is not configured, routers at start; the definition version it ran for is kept
 * in herdsman's device meta (`configured`), so it runs once per version. A failure is retried on the next message
 * no sooner than the backoff allows (a router, which may stay silent, on a timer), up to CONFIGURE_ATTEMPTS; then
 * it waits for `zigbee.reconfigure_device`.
 */

/** zigbee2mqtt gives up after three failed attempts until it is asked again. */
export const CONFIGURE_ATTEMPTS = 3;
export const CONFIGURE_BACKOFF: BackoffOptions = { initialMs: 30_000, maxMs: 10 * 60_000 };

interface Attempts {
  count: number;
  /** Clock micros before which no automatic attempt is made. */
  notBefore: number;
  timer: unknown;
}

export interface ConfigurerDeps {
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly log: Logger;
  readonly nameOf: (ieee: string) => string;
  readonly backoff?: BackoffOptions;
}

export type ConfigureOutcome = 'configured' | 'not_needed' | 'busy' | 'waiting' | 'given_up';

export class Configurer {
  private readonly attempts = new Map<string, Attempts>();
  private readonly running = new Set<string>();

  constructor(private readonly deps: ConfigurerDeps) {}

  /** Whether the device's definition still has to be configured (never, or for an older definition version). */
  static needed(device: ZigbeeDevice, version: string | undefined): boolean {
    const configured = device.meta?.configured;
    return configured === undefined || (version !== undefined && version !== '0.0.0' && configured !== version);
  }

  /** A rejoined device starts over: its binds and reporting are gone. */
  reset(device: ZigbeeDevice): void {
    this.forget(device.ieeeAddr);
    if (device.meta?.configured !== undefined) {
      delete device.meta.configured;
      device.save();
    }
  }

  forget(ieee: string): void {
    const a = this.attempts.get(ieee);
    if (a !== undefined) this.deps.scheduler.clear(a.timer);
    this.attempts.delete(ieee);
  }

  /**
   * Configures the device when it needs it and the attempts allow. `force` (a user's reconfigure) runs it anyway
   * and throws its failure; otherwise failures are logged and counted.
   */
  async run(device: ZigbeeDevice, entities: DeviceEntities, force = false): Promise<ConfigureOutcome> {
    const ieee = device.ieeeAddr;
    const version = entities.definitionVersion;
    if (!entities.configurable) return 'not_needed';
    if (!force && !Configurer.needed(device, version)) return 'not_needed';
    if (this.running.has(ieee)) return 'busy';
    const a = this.attempts.get(ieee);
    if (!force && a !== undefined) {
      if (a.count >= CONFIGURE_ATTEMPTS) return 'given_up';
      if (this.deps.clock.now() < a.notBefore) return 'waiting';
    }
    this.running.add(ieee);
    try {
      await entities.configure();
      this.forget(ieee);
      device.meta.configured = version ?? '0.0.0';
      device.save();
      if (a !== undefined)
        this.deps.log.info({ ieee }, 'Zigbee device %s configured after %s failed attempt(s)', this.deps.nameOf(ieee), a.count);
      return 'configured';
    } catch (err) {
      if (force) {
        this.forget(ieee);
        throw err;
      }
      this.failed(device, entities, err);
      return 'waiting';
    } finally {
      this.running.delete(ieee);
    }
  }

  private failed(device: ZigbeeDevice, entities: DeviceEntities, err: unknown): void {
    const ieee = device.ieeeAddr;
    const a = this.attempts.get(ieee) ?? { count: 0, notBefore: 0, timer: undefined };
    this.attempts.set(ieee, a);
    a.count += 1;
    const delay = backoffDelay(a.count, this.deps.backoff ?? CONFIGURE_BACKOFF);
    a.notBefore = this.deps.clock.now() + delay * 1000;
    const reason = err instanceof Error ? err.message : String(err);
    const name = this.deps.nameOf(ieee);
    if (a.count >= CONFIGURE_ATTEMPTS) {
      this.deps.log.error(
        { ieee },
        'Zigbee device %s could not be configured after %s attempts (%s); its readings may be unscaled until zigbee.reconfigure_device succeeds',
        name,
        a.count,
        reason,
      );
      return;
    }
    // Once, on the first failure; the retries are quiet until they give up.
    if (a.count === 1)
      this.deps.log.warn(
        { ieee },
        'Zigbee device %s could not be configured (%s); retrying on its next message, no sooner than %s s',
        name,
        reason,
        Math.round(delay / 1000),
      );
    // A router may report nothing for long: it is retried on a timer as well.
    if (device.type === 'Router') {
      this.deps.scheduler.clear(a.timer);
      a.timer = this.deps.scheduler.timeout(() => void this.run(device, entities), delay);
    }
  }

  stop(): void {
    for (const ieee of [...this.attempts.keys()]) this.forget(ieee);
  }
}
