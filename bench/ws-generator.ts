/**
 * The state-change generator both benchmark servers run in-process: sensor entities written through the
 * hub's own StateTable at a fixed rate, each write stamped with the monotonic time of the write in the
 * `ts` attribute (milliseconds, CLOCK_MONOTONIC, which every process on the machine shares), so a client
 * in another process can measure write-to-receipt latency.
 */
import type { StateTable } from '../src/core/state-table.js';
import { monoMs } from './procs.js';

export const BENCH_ENTITIES = 100;

export { monoMs };

export interface GeneratorRun {
  /** Writes made in the measured window. */
  readonly generated: number;
  /** Writes made overall (warm-up included). */
  readonly total: number;
}

export function seedEntities(states: StateTable): void {
  for (let i = 0; i < BENCH_ENTITIES; i++) states.set(entityId(i), '20.00', attributes(i, 0));
}

function entityId(i: number): string {
  return `sensor.bench_temperature_${i}`;
}

/** A typical Home Assistant temperature sensor's attributes (about 330 bytes of state JSON with the rest). */
function attributes(i: number, ts: number): Record<string, string | number> {
  return {
    state_class: 'measurement',
    unit_of_measurement: '°C',
    device_class: 'temperature',
    friendly_name: `Bench temperature ${i}`,
    ts,
  };
}

/**
 * Writes `rate` changes per second from `startAt` (monotonic ms) for `warmupMs + durationMs`, on a 1 ms
 * timer with catch-up, so the writes follow the clock even when a tick comes late.
 */
export function runGenerator(
  states: StateTable,
  rate: number,
  startAt: number,
  warmupMs: number,
  durationMs: number,
): Promise<GeneratorRun> {
  const measureFrom = startAt + warmupMs;
  const endAt = measureFrom + durationMs;
  let total = 0;
  let generated = 0;
  let value = 0;
  return new Promise((resolve) => {
    const tick = (): void => {
      const now = monoMs();
      if (now >= endAt) {
        resolve({ generated, total });
        return;
      }
      if (now >= startAt) {
        const due = Math.floor(((now - startAt) * rate) / 1000);
        // Bounded catch-up: never more than 100 ms of writes in one tick.
        const limit = Math.min(due - total, Math.ceil(rate / 10));
        for (let k = 0; k < limit; k++) {
          const i = total % BENCH_ENTITIES;
          value = (value + 7) % 1000;
          const ts = monoMs();
          states.set(entityId(i), (15 + value / 100).toFixed(2), attributes(i, ts));
          total++;
          if (ts >= measureFrom) generated++;
        }
      }
      setTimeout(tick, 1);
    };
    tick();
  });
}
