import type { Core } from '../../src/core/core.js';
import type { Logger } from '../../src/core/log.js';
import type { Timers } from '../../src/util/timers.js';
import { addOrRefuse } from '../common/add-or-refuse.js';
import { type BackoffOptions, DevicePoller } from '../common/device-poller.js';
import type { GpioChip } from './chip.js';
import type { GpioDeviceConfig } from './config.js';
import { RelayCover } from './cover.js';
import { BinaryInput } from './input.js';
import type { GpioBackend, GpioLine } from './line.js';
import type { Part, PartContext } from './part.js';
import { RelayOutput } from './relay.js';
import type { LastStateLookup } from './restore.js';

/** What every GPIO device shares: the core, the driver's timers, and the (cached) chip and backend. */
export interface GpioEnv {
  readonly core: Core;
  readonly log: Logger;
  readonly owner: string;
  readonly timers: Timers;
  /** The header chip; rejects (with the reason) while there is none, and is retried on the next call. */
  chip(): Promise<GpioChip>;
  backend(): Promise<GpioBackend>;
  readonly backoff?: BackoffOptions;
  readonly lastState: LastStateLookup;
}

/**
 * One configured device (a relay board, a PIR, a cover controller): one registry entry, its entities, and
 * one poller. The first poll exports the lines; a failure anywhere (no sysfs, no onoff, a line that cannot
 * be exported or read) marks all its entities unavailable, logs the cause once, and the poller retries with
 * backoff, exporting again, until the device answers.
 */
export class GpioDevice {
  private readonly parts: Part[] = [];
  /** Every line the parts hold now, for the synchronous safe-off when the process goes away. */
  private readonly lines = new Set<GpioLine>();
  private readonly poller: DevicePoller;
  private opened = false;
  private stopped = false;

  constructor(
    private readonly env: GpioEnv,
    readonly config: GpioDeviceConfig,
  ) {
    const entry = env.core.devices.register({
      identifiers: [['gpio', config.id]],
      name: config.name,
      owner: env.owner,
      manufacturer: config.manufacturer,
      model: config.model,
      suggested_area: config.area,
    });
    const ctx: PartContext = {
      core: env.core,
      log: env.log,
      owner: env.owner,
      timers: env.timers,
      deviceId: entry.id,
      lastState: env.lastState,
    };
    // An entity that cannot be added (a duplicate) is refused with one log line; the rest of the device works.
    const add = (what: string, make: () => Part) => {
      const part = addOrRefuse(env, `GPIO entity ${what}`, make);
      if (part !== undefined) this.parts.push(part);
    };
    for (const r of config.relays) add(r.entityId, () => new RelayOutput(ctx, r));
    for (const i of config.inputs) add(i.entityId, () => new BinaryInput(ctx, i));
    for (const c of config.covers) add(c.entityId, () => new RelayCover(ctx, c));
    this.poller = new DevicePoller({
      name: `${config.name} (GPIO)`,
      intervalMs: config.pollIntervalS * 1000,
      timers: env.timers,
      log: env.log,
      backoff: env.backoff,
      read: () => this.read(),
      onFailure: () => this.failed(),
    });
  }

  start(): void {
    this.poller.start();
  }

  stop(): void {
    this.stopped = true;
    this.poller.stop();
    this.closeAll();
  }

  /** The process is going away: every output to its safe level, synchronously where the backend can. */
  safeSync(): void {
    for (const line of this.lines) line.safeSync();
  }

  private async read(): Promise<void> {
    try {
      if (!this.opened) {
        const chip = await this.env.chip();
        const backend = this.tracking(await this.env.backend());
        for (const part of this.parts) {
          await part.open(chip, backend);
          if (this.stopped) break;
        }
        this.opened = true;
      }
      for (const part of this.parts) await part.refresh();
    } catch (err) {
      // Export again on the next try: a line that failed once may be a stale handle.
      this.closeAll();
      throw err;
    } finally {
      // A poll that was under way when the driver stopped gives its lines back too.
      if (this.stopped) this.closeAll();
    }
  }

  /** The backend as the parts see it: every line they open is remembered until closeAll. */
  private tracking(backend: GpioBackend): GpioBackend {
    return {
      name: backend.name,
      open: async (request) => {
        const line = await backend.open(request);
        this.lines.add(line);
        return line;
      },
    };
  }

  private failed(): void {
    for (const part of this.parts) part.fail();
  }

  private closeAll(): void {
    this.opened = false;
    for (const part of this.parts) part.close();
    this.lines.clear();
  }
}
