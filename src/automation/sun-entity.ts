import { isoFromMicros, type Micros } from '../core/clock.js';
import type { Core } from '../core/core.js';
import type { Entity } from '../core/entities.js';
import type { Scheduler } from '../util/scheduler.js';
import { type HubLocation, nextSunEvent, type SunEvent, sunPosition } from './sun.js';
import { TimerSet } from './timer-set.js';

export const SUN_OWNER = 'sun';
const ENTITY_ID = 'sun.sun';
/** Elevation and azimuth are refreshed this often between events (Home Assistant refreshes them every few minutes). */
const POSITION_MS = 10 * 60_000;
/** A timer that wakes within this much of its target counts as on time (the wall clock may lag the timer). */
const ON_TIME_US = 1_000_000;
/** Long waits are split, so a clock corrected by NTP moves the next update with it. */
const RECHECK_MS = 60_000;

/** Attribute name -> suncalc event, as Home Assistant's sun entity names them. */
const NEXT: readonly (readonly [string, SunEvent])[] = [
  ['next_dawn', 'dawn'],
  ['next_dusk', 'dusk'],
  ['next_midnight', 'nadir'],
  ['next_noon', 'solarNoon'],
  ['next_rising', 'sunrise'],
  ['next_setting', 'sunset'],
];

/**
 * Home Assistant's `sun.sun`: above_horizon or below_horizon, the next dawn, dusk, midnight, noon, rising and
 * setting, the elevation and azimuth, and whether the sun is rising. Updated at the next of those events (and
 * the position every ten minutes), on the hub's clock; never polled.
 */
export class SunEntity {
  private readonly timers: TimerSet;
  private entity: Entity | undefined;

  constructor(
    private readonly core: Core,
    private readonly location: HubLocation,
    onError: (err: unknown) => void,
    /** The hub's timers (a manual one in tests); Node's own without it. */
    scheduler?: Scheduler,
  ) {
    this.timers = new TimerSet(onError, scheduler);
  }

  start(): void {
    this.entity = this.core.entities.add({ entityId: ENTITY_ID, owner: SUN_OWNER, platform: null, name: 'Sun', restore: false });
    this.update(this.core.clock.now());
  }

  stop(): void {
    this.timers.close();
    if (this.entity !== undefined) this.core.entities.remove(this.entity.id);
    this.entity = undefined;
  }

  private update(at: Micros): void {
    const attributes: Record<string, string | number | boolean | null> = {};
    const times = new Map<SunEvent, Micros | undefined>();
    for (const [name, event] of NEXT) {
      const when = nextSunEvent(event, at, this.location);
      times.set(event, when);
      attributes[name] = when === undefined ? null : isoFromMicros(Math.round(when));
    }
    const { elevation, azimuth } = sunPosition(at, this.location);
    attributes.elevation = Math.round(elevation * 100) / 100;
    attributes.azimuth = Math.round(azimuth * 100) / 100;
    const noon = times.get('solarNoon');
    const midnight = times.get('nadir');
    attributes.rising = noon !== undefined && midnight !== undefined && noon < midnight;
    const rising = times.get('sunrise');
    const setting = times.get('sunset');
    // Near a pole one of them may not come for months: then the elevation decides (-0.833° is the sunrise altitude).
    const up = rising !== undefined && setting !== undefined ? rising > setting : elevation > -0.833;
    this.entity?.report(up ? 'above_horizon' : 'below_horizon', attributes);
    const next = Math.min(at + POSITION_MS * 1000, ...[...times.values()].filter((t): t is Micros => t !== undefined));
    this.arm(next);
  }

  private arm(target: Micros): void {
    const remainingMs = Math.max(0, (target - this.core.clock.now()) / 1000);
    const final = remainingMs <= RECHECK_MS;
    this.timers.after(final ? remainingMs : RECHECK_MS, () => {
      const now = this.core.clock.now();
      if (!final || target - now > ON_TIME_US) this.arm(target);
      else this.update(Math.max(now, target));
    });
  }
}
