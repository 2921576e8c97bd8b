import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { RunRequest, RunResult } from './gpio-latency-protocol.js';
import { monoMs } from './procs.js';

/**
 * The run both servers share: `loadRate` load writes/s on a 1 ms timer with bounded catch-up, and edges at
 * `edgeHz` with a little jitter (so they do not line up with the load ticks). Each edge is stamped just
 * before `edge` fires it.
 */
export async function drive(
  r: RunRequest,
  edge: (level: 0 | 1) => void,
  loadWrite: (n: number) => void,
): Promise<Omit<RunResult, 'busMs'>> {
  const edges: number[] = [];
  const endAt = r.startAt + r.warmupMs + r.durationMs;
  const loop = monitorEventLoopDelay({ resolution: 1 });
  let cpu: NodeJS.CpuUsage | undefined;
  let cpuWall = 0;
  let loadWrites = 0;
  await new Promise<void>((resolve) => {
    const loadTick = (): void => {
      const now = monoMs();
      if (now >= endAt) return;
      if (now >= r.startAt) {
        if (cpu === undefined && now >= r.startAt + r.warmupMs) {
          cpu = process.cpuUsage();
          cpuWall = now;
          loop.enable();
        }
        const due = Math.floor(((now - r.startAt) * r.loadRate) / 1000);
        const n = Math.min(due - loadWrites, Math.ceil(r.loadRate / 10));
        for (let k = 0; k < n; k++) loadWrite(loadWrites++);
      }
      setTimeout(loadTick, 1);
    };
    const periodMs = 1000 / r.edgeHz;
    let level: 0 | 1 = 0;
    const fire = (): void => {
      if (monoMs() >= endAt) {
        resolve();
        return;
      }
      level = level === 0 ? 1 : 0;
      edges.push(monoMs());
      edge(level);
      setTimeout(fire, periodMs * (0.8 + Math.random() * 0.4));
    };
    setTimeout(loadTick, Math.max(0, r.startAt - monoMs()));
    setTimeout(fire, Math.max(0, r.startAt - monoMs()) + Math.random() * periodMs);
  });
  loop.disable();
  const used = process.cpuUsage(cpu);
  return {
    type: 'done',
    edges,
    loadWrites,
    loopDelayP99Ms: loop.percentile(99) / 1e6,
    cpuPercent: ((used.user + used.system) / 1000 / (monoMs() - cpuWall)) * 100,
  };
}
