import { addCover, COVER_DEVICE_CLASSES, type CoverDeviceClass, CoverFeature, type CoverPlatform } from '../../src/domains/cover.js';
import type { Timers } from '../../src/util/timers.js';
import type { VirtualPlatform } from './types.js';

interface VirtualCoverOptions {
  readonly deviceClass: CoverDeviceClass | undefined;
  /** Seconds from fully closed to fully open. */
  readonly travelTime: number;
  readonly initialPosition: number;
  /** Whether the cover knows (and reports, and can be sent to) its position; a plain garage door may not. */
  readonly position: boolean;
  readonly stop: boolean;
  readonly tilt: boolean;
  readonly tiltTime: number;
  readonly initialTilt: number;
  /** Seconds between position reports while moving. */
  readonly updateInterval: number;
}

/**
 * One motor: moves a value between 0 and 100 at the speed of a full travel in `travelTime`, stepping every
 * `interval` seconds, and calls `changed` after each step and when it starts or stops.
 */
class Motor {
  value: number;
  private target: number | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly timers: Timers,
    private readonly travelTime: number,
    private readonly interval: number,
    initial: number,
    private readonly changed: () => void,
  ) {
    this.value = initial;
  }

  /** +1 opening, -1 closing, 0 at rest. */
  get direction(): -1 | 0 | 1 {
    if (this.target === undefined) return 0;
    return this.target > this.value ? 1 : -1;
  }

  moveTo(target: number): void {
    if (target === this.value || this.travelTime === 0) {
      this.value = target;
      this.halt();
      return;
    }
    this.target = target;
    if (this.timer === undefined) this.timer = this.timers.interval(() => this.step(), this.interval * 1000);
    this.changed();
  }

  stop(): void {
    this.halt();
  }

  private halt(): void {
    this.target = undefined;
    this.timers.clear(this.timer);
    this.timer = undefined;
    this.changed();
  }

  private step(): void {
    if (this.target === undefined) return;
    const delta = (100 * this.interval) / this.travelTime;
    const dir = this.direction;
    this.value += dir * delta;
    if ((dir > 0 && this.value >= this.target) || (dir < 0 && this.value <= this.target)) {
      this.value = this.target;
      this.halt();
    } else this.changed();
  }
}

const percent = { min: 0, max: 100, integer: true } as const;

/**
 * A motorised cover (garage door, blind, shutter): it takes `travel_time` to move end to end, reports
 * opening/closing and its position as it goes, and can be stopped part-way. Blinds can also tilt.
 */
export const virtualCover: VirtualPlatform<VirtualCoverOptions> = {
  domain: 'cover',
  parse(r) {
    const deviceClass = r.oneOf('device_class', COVER_DEVICE_CLASSES);
    const travelTime = r.number('travel_time', { min: 0, max: 600, default: 10 });
    const tiltTime = r.number('tilt_time', { min: 0, max: 60, default: 1.5 });
    const fastest = Math.min(travelTime || Number.POSITIVE_INFINITY, tiltTime || Number.POSITIVE_INFINITY);
    return {
      deviceClass,
      travelTime,
      initialPosition: r.number('initial_position', { ...percent, default: 0 }),
      position: r.boolean('position', true),
      stop: r.boolean('stop', true),
      tilt: r.boolean('tilt', false),
      tiltTime,
      initialTilt: r.number('initial_tilt', { ...percent, default: 0 }),
      // About a report per second, and at least ten per movement so short travels still animate.
      updateInterval: r.number('update_interval', { min: 0.01, max: 10, default: Math.min(1, fastest / 10) }),
    };
  },

  create(ctx, { entityId, name }, o) {
    const report = () => {
      const dir = motor.direction;
      const at = Math.round(motor.value);
      cover.report({
        opening: dir > 0,
        closing: dir < 0,
        closed: at === 0,
        position: o.position ? at : null,
        tiltPosition: o.tilt ? Math.round(tilt.value) : null,
      });
    };
    let ready = false;
    const changed = () => {
      if (ready) report();
    };
    const motor = new Motor(ctx.timers, o.travelTime, o.updateInterval, o.initialPosition, changed);
    const tilt = new Motor(ctx.timers, o.tiltTime, o.updateInterval, o.initialTilt, changed);

    const platform: CoverPlatform = {
      openCover: () => motor.moveTo(100),
      closeCover: () => motor.moveTo(0),
      stopCover: () => motor.stop(),
      setCoverPosition: (p) => motor.moveTo(p),
      openCoverTilt: () => tilt.moveTo(100),
      closeCoverTilt: () => tilt.moveTo(0),
      stopCoverTilt: () => tilt.stop(),
      setCoverTiltPosition: (p) => tilt.moveTo(p),
    };
    let features = CoverFeature.OPEN | CoverFeature.CLOSE;
    if (o.stop) features |= CoverFeature.STOP;
    if (o.position) features |= CoverFeature.SET_POSITION;
    if (o.tilt) {
      features |= CoverFeature.OPEN_TILT | CoverFeature.CLOSE_TILT | CoverFeature.SET_TILT_POSITION;
      if (o.stop) features |= CoverFeature.STOP_TILT;
    }
    const cover = addCover(ctx.core, {
      entityId,
      name,
      owner: ctx.owner,
      deviceClass: o.deviceClass,
      supportedFeatures: features,
      platform,
    });
    ready = true;
    report();
  },
};
