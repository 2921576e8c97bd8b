import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ManualClock } from '../../src/core/clock.js';
import { FRAME_HEADER } from '../../src/recorder/day-frames.js';
import type { Recorder } from '../../src/recorder/recorder.js';
import { RecordingLogger } from '../fakes/recording-logger.js';
import type { Teardown } from '../helpers/hub.js';
import { count, DAY, HOUR, MIN, rig } from './recorder-rig.js';

/** The day-file tests' shared setup: days of hourly seals to damage, and readers of what is left and what was logged. */

export const DAY0 = Date.UTC(2026, 2, 10) * 1000;
export const DAY1 = DAY0 + DAY;
export const ENTITIES = 8;
export const SEALS = 6;
export const PER_SEAL = 5;
/** What each entity has after record(): every change of every seal. */
export const FULL = Array.from({ length: ENTITIES }, () => SEALS * PER_SEAL);

/** A started recorder on `dir` that keeps its log lines. */
export async function open(t: Teardown, dir: string, clock: ManualClock, log = new RecordingLogger()) {
  return { ...(await rig(t, dir, { clock, log })), log };
}

/** SEALS hourly seals of ENTITIES sensors, PER_SEAL changes each, from `from`; the recorder is stopped after. */
export async function record(t: Teardown, dir: string, clock: ManualClock, from: number): Promise<void> {
  clock.advance(from - clock.now());
  const { core, recorder } = await open(t, dir, clock);
  for (let h = 0; h < SEALS; h++) {
    for (let i = 0; i < PER_SEAL; i++) {
      for (let e = 0; e < ENTITIES; e++) core.states.set(`sensor.s${e}`, `${h}.${i}${e}`, { unit_of_measurement: 'W', n: h * 100 + i });
      clock.advance(MIN);
    }
    clock.advance(HOUR);
    await recorder.tick();
  }
  await recorder.stop();
}

/** The points of each entity on the day from `from`. */
export function counts(r: Recorder, from: number): number[] {
  return Array.from({ length: ENTITIES }, (_, e) => count(r, `sensor.s${e}`, from, from + DAY));
}

/** The frames of a day file of this format: [pos, length of the frame, type]. */
export function frames(file: Buffer): [number, number, string][] {
  const out: [number, number, string][] = [];
  for (let pos = 0; pos < file.length; ) {
    const length = FRAME_HEADER + file.readUInt32LE(pos + 4);
    out.push([pos, length, String.fromCharCode(file[pos + FRAME_HEADER] ?? 0)]);
    pos += length;
  }
  return out;
}

export function errors(log: RecordingLogger): string[] {
  return log.lines.filter((l) => l.level === 'error').map((l) => l.msg);
}

export function warnings(log: RecordingLogger): string[] {
  return log.lines.filter((l) => l.level === 'warn').map((l) => l.msg);
}

/** The copies kept of a day's damaged file. */
export async function copies(dir: string, day: string): Promise<string[]> {
  return (await readdir(join(dir, 'recorder'))).filter((n) => n.startsWith(`${day}.seg.corrupt-`)).sort();
}
