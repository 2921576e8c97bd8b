import { HubError } from '../../src/core/errors.js';
import { addCover, CoverFeature, type CoverHandle, type CoverModel } from '../../src/domains/cover.js';
import { errorText } from '../common/device-poller.js';
import type { GpioChip } from './chip.js';
import type { CoverConfig } from './config.js';
import type { GpioBackend, GpioLine } from './line.js';
import { levelOf, openLine, type Part, type PartContext, unavailableError, writeError } from './part.js';
import { RESTORES_ITSELF, type RememberedState, rememberedPosition } from './restore.js';

/**
 * The position at start. A cover that was opening or closing when the hub went away ran on for an unknown
 * time (until its relay was switched off), so its position is unknown: never a guess.
 */
export function startPosition(config: CoverConfig, remembered: RememberedState | undefined): number | null {
  if (config.restore === 'off' || remembered === undefined) return config.initialPosition;
  if (remembered.state === 'opening' || remembered.state === 'closing') return null;
  return rememberedPosition(remembered) ?? config.initialPosition;
}

interface Motion {
  /** +1 opening (open relay on), -1 closing (close relay on). */
  readonly dir: 1 | -1;
  /** Where it started, null when the position was not known. */
  from: number | null;
  startedAt: number;
  /** 0-100; a move from an unknown position always goes to an end. */
  target: number;
}

/**
 * A cover driven by two relays (one per direction), as on garage doors, awnings and vent motors. Its position
 * is estimated from how long a relay has run against `travel_time`; there is no sensor. The two relays are
 * never on together: every command runs after the previous one, and a reversal stops first.
 */
export class RelayCover implements Part {
  private openRelay: GpioLine | undefined;
  private closeRelay: GpioLine | undefined;
  private position: number | null;
  /** When the position is unknown: false once it is known not to be closed (it moved and was stopped). */
  private closedUnknown: boolean | null = null;
  private motion: Motion | undefined;
  private endTimer: NodeJS.Timeout | undefined;
  private tickTimer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  private readonly cover: CoverHandle;
  private readonly travelMs: number;
  private readonly updateMs: number;

  constructor(
    private readonly ctx: PartContext,
    private readonly config: CoverConfig,
  ) {
    this.position = startPosition(config, ctx.lastState(config.entityId));
    this.travelMs = config.travelTimeS * 1000;
    // About one report a second, and at least ten per full travel so short travels still move visibly.
    this.updateMs = Math.max(20, Math.min(1000, this.travelMs / 10));
    this.cover = addCover(ctx.core, {
      entityId: config.entityId,
      name: config.name,
      owner: ctx.owner,
      deviceId: ctx.deviceId,
      uniqueId: `gpio-${ctx.deviceId}-${config.entityId}`,
      deviceClass: config.deviceClass,
      icon: config.icon,
      supportedFeatures: CoverFeature.OPEN | CoverFeature.CLOSE | CoverFeature.STOP | CoverFeature.SET_POSITION,
      platform: {
        openCover: () => this.serial(() => this.moveTo(100)),
        closeCover: () => this.serial(() => this.moveTo(0)),
        stopCover: () => this.serial(() => this.halt()),
        setCoverPosition: (p) => this.serial(() => this.moveTo(p)),
        ...RESTORES_ITSELF,
      },
    });
  }

  async open(chip: GpioChip, backend: GpioBackend): Promise<void> {
    // A cover always starts still: both relays off, and off again before the lines are given back.
    const off = levelOf(false, this.config.invert);
    this.openRelay = await openLine(backend, chip, { line: this.config.openPin, direction: 'out', initial: off, safe: off });
    this.closeRelay = await openLine(backend, chip, { line: this.config.closePin, direction: 'out', initial: off, safe: off });
  }

  async refresh(): Promise<void> {
    if (this.openRelay === undefined || this.closeRelay === undefined) return;
    await this.openRelay.read();
    await this.closeRelay.read();
    this.report();
  }

  fail(): void {
    this.forgetMotion();
    this.cover.entity.markUnavailable();
  }

  close(): void {
    this.forgetMotion();
    this.openRelay?.unexport();
    this.closeRelay?.unexport();
    this.openRelay = undefined;
    this.closeRelay = undefined;
  }

  /** The relays are being let go mid-travel: where the motor got to is anyone's guess. */
  private forgetMotion(): void {
    this.clearTimers();
    if (this.motion === undefined) return;
    this.motion = undefined;
    this.position = null;
    this.closedUnknown = null;
  }

  /** Runs commands one after another, so a quick open-close-stop never overlaps relay writes. */
  private serial(fn: () => Promise<void>): Promise<void> {
    const run = this.chain.then(fn);
    this.chain = run.catch(() => {});
    return run;
  }

  /** The estimated position now (moving or not), null when unknown. */
  private estimate(): number | null {
    const m = this.motion;
    if (m === undefined) return this.position;
    if (m.from === null) return null;
    const moved = ((performance.now() - m.startedAt) / this.travelMs) * 100;
    const at = m.from + m.dir * moved;
    return m.dir > 0 ? Math.min(at, m.target) : Math.max(at, m.target);
  }

  private report(): void {
    const m = this.motion;
    const at = this.estimate();
    const model: CoverModel = {
      opening: m?.dir === 1,
      closing: m?.dir === -1,
      closed: at !== null ? Math.round(at) === 0 : m !== undefined ? false : this.closedUnknown,
      position: at === null ? null : Math.round(at),
    };
    this.cover.report(model);
  }

  private async moveTo(target: number): Promise<void> {
    const from = this.estimate();
    if (from === null && target !== 0 && target !== 100) {
      throw new HubError(
        'service_validation',
        `${this.config.entityId} does not know its position yet: open or close it fully first, then set a position`,
      );
    }
    const dir: 1 | -1 = from === null ? (target === 100 ? 1 : -1) : target > from ? 1 : -1;
    const m = this.motion;
    if (m !== undefined && m.dir === dir) {
      // Same direction: the relay keeps running, only the end moves.
      m.from = from;
      m.startedAt = performance.now();
      m.target = target;
      this.planEnd(from, target);
      return;
    }
    if (m !== undefined) await this.halt();
    if (from !== null && Math.round(from) === target) {
      this.report();
      return;
    }
    const relay = dir > 0 ? this.openRelay : this.closeRelay;
    if (relay === undefined) throw unavailableError(this.config.entityId);
    const pin = dir > 0 ? this.config.openPin : this.config.closePin;
    try {
      await relay.write(levelOf(true, this.config.invert));
    } catch (err) {
      await relay.write(levelOf(false, this.config.invert)).catch(() => {});
      throw writeError(this.config.entityId, pin, err);
    }
    this.motion = { dir, from, startedAt: performance.now(), target };
    this.planEnd(from, target);
    this.ctx.timers.clear(this.tickTimer);
    this.tickTimer = this.ctx.timers.interval(() => this.report(), this.updateMs);
    this.report();
  }

  private planEnd(from: number | null, target: number): void {
    const ms = from === null ? this.travelMs : (Math.abs(target - from) / 100) * this.travelMs;
    this.ctx.timers.clear(this.endTimer);
    this.endTimer = this.ctx.timers.timeout(() => {
      void this.serial(() => this.arrive()).catch(() => {});
    }, ms);
  }

  /** The run time is over: the motor is where it was sent. */
  private async arrive(): Promise<void> {
    const m = this.motion;
    if (m === undefined) return;
    await this.stopRelays(m);
    this.position = m.target;
    this.closedUnknown = null;
    this.report();
  }

  /** Stops where it is (stop, or before reversing). */
  private async halt(): Promise<void> {
    const m = this.motion;
    if (m === undefined) {
      this.report();
      return;
    }
    const at = this.estimate();
    await this.stopRelays(m);
    this.position = at;
    // A motor that ran from an unknown position and was stopped is neither known closed nor at a known place.
    if (at === null) this.closedUnknown = false;
    this.report();
  }

  private async stopRelays(m: Motion): Promise<void> {
    this.clearTimers();
    this.motion = undefined;
    const relay = m.dir > 0 ? this.openRelay : this.closeRelay;
    try {
      await relay?.write(levelOf(false, this.config.invert));
    } catch (err) {
      // Nothing else can stop the motor; say so loudly. The next poll marks the device unavailable.
      this.ctx.log.error(
        { entity_id: this.config.entityId, err: errorText(err) },
        `${this.config.entityId}: could not switch its relay off; the motor may still be running`,
      );
      throw writeError(this.config.entityId, m.dir > 0 ? this.config.openPin : this.config.closePin, err);
    }
  }

  private clearTimers(): void {
    this.ctx.timers.clear(this.endTimer);
    this.ctx.timers.clear(this.tickTimer);
    this.endTimer = undefined;
    this.tickTimer = undefined;
  }
}
