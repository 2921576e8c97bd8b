/**
 * The settled resident size of a process, as the memory benchmarks read it (bench/memory.ts, bench/mqtt-memory.ts):
 * RSS 2 s after ready, then the first reading after SETTLE_MS that has stayed still, and the peak. bench/zigbee-memory.ts
 * reads its hub and its reference the same way, with limits of its own.
 */
import { readFileSync } from 'node:fs';
import { type Memory, memoryOf, sleep } from './procs.js';

export const SETTLE_MS = Number(process.env.MEMORY_BENCH_SETTLE_MS ?? 12_000);
export const MAX_SETTLE_MS = 25_000;
export const STABLE_MS = 3000;
export const STABLE_MB = 0.3;

export interface Reading extends Memory {
  /** RSS 2 s after ready, before V8 gave start-up memory back. */
  readonly earlyRssMb: number;
  readonly peakRssMb: number;
  readonly readyMs: number;
  /** Seconds from ready to the settled reading. */
  readonly settledAfterS: number;
}

function peakOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/**
 * Samples a process from its ready moment: RSS at 2 s, then the settled RSS: the first reading after
 * SETTLE_MS that has stayed within STABLE_MB for STABLE_MS. V8's memory reducer gives start-up garbage
 * back about 8 s after the start's last full GC; with `awaitDrop` (a hub with the Pi flags), a reading
 * that has not dropped below the 2 s one yet waits for that, up to MAX_SETTLE_MS.
 */
export async function settle(
  pid: number,
  readyAt: number,
  readyMs: number,
  awaitDrop = false,
  limits: { readonly settleMs: number; readonly maxSettleMs: number } = { settleMs: SETTLE_MS, maxSettleMs: MAX_SETTLE_MS },
): Promise<Reading> {
  const { settleMs, maxSettleMs } = limits;
  await sleep(Math.max(0, readyAt + 2000 - performance.now()));
  const early = memoryOf(pid);
  await sleep(Math.max(0, readyAt + settleMs - STABLE_MS - performance.now()));
  let since = performance.now();
  let last = memoryOf(pid);
  while (performance.now() < readyAt + maxSettleMs) {
    await sleep(500);
    const now = memoryOf(pid);
    if (Math.abs(now.rssMb - last.rssMb) > STABLE_MB) since = performance.now();
    last = now;
    const dropped = !awaitDrop || last.rssMb < early.rssMb - 1;
    if (performance.now() >= readyAt + settleMs && performance.now() - since >= STABLE_MS && dropped) break;
  }
  return { ...last, earlyRssMb: early.rssMb, peakRssMb: peakOf(pid), readyMs, settledAfterS: (performance.now() - readyAt) / 1000 };
}
