import { ManualClock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { DEFAULT_RECORDER_CONFIG } from '../../src/recorder/config.js';
import { Recorder, type RecorderOptions } from '../../src/recorder/recorder.js';
import type { RecorderConfig } from '../../src/recorder/types.js';
import type { Teardown } from '../helpers/hub.js';

/** The recorder's tests' shared setup: a recorder on a manual clock, and readers of what it holds. */

/** A second in microseconds (the recorder's unit). */
export const S = 1_000_000;
export const MIN = 60 * S;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;
export const START = Date.UTC(2026, 2, 10, 10, 0, 0) * 1000;

export interface Rig {
  readonly core: Core;
  readonly clock: ManualClock;
  readonly recorder: Recorder;
}

/** A started recorder on `dir` (timers off: tests drive commit, tick and seal), stopped at the end of the test. */
export async function rig(
  t: Teardown,
  dir: string,
  opts: Partial<RecorderOptions> & { config?: RecorderConfig; clock?: ManualClock } = {},
): Promise<Rig> {
  const clock = opts.clock ?? new ManualClock(START);
  const core = new Core({ log: opts.log ?? silentLogger, clock });
  const recorder = new Recorder({ core, dataDir: dir, log: silentLogger, config: DEFAULT_RECORDER_CONFIG, timers: false, ...opts });
  await recorder.start();
  t.teardown(() => recorder.stop());
  return { core, clock, recorder };
}

export interface Row {
  s: string;
  a: string;
  lc: number;
  lu: number;
  user?: string | null;
}

/** The points of `id` between `start` and `end`, with the user of their context where there is one. */
export function history(r: Recorder, id: string, start: number, end: number, initial = false): Row[] {
  const out: Row[] = [];
  r.forEachState(id, start, end, initial, (s, a, lc, lu, ctx) =>
    out.push(ctx === null ? { s, a, lc, lu } : { s, a, lc, lu, user: ctx.user_id }),
  );
  return out;
}

/** How many points of `id` between `from` and `to`. */
export function count(r: Recorder, id: string, from: number, to: number): number {
  return r.forEachState(id, from, to, false, () => {});
}

/** 20 numeric readings a minute apart and a switch toggled by a user, from START. */
export function feed(rig: Rig, n = 20): void {
  const { core, clock } = rig;
  for (let i = 0; i < n; i++) {
    core.states.set('sensor.temp', (20 + i / 10).toFixed(1), { unit_of_measurement: '°C', state_class: 'measurement' });
    if (i % 5 === 0) core.states.set('switch.heater', i % 10 === 0 ? 'on' : 'off', {}, { context: core.newContext('user-1') });
    clock.advance(MIN);
  }
}
