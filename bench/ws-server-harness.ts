/**
 * The parent <-> server-process protocol of the fan-out benchmark (over the fork IPC channel), shared by
 * the hearth server and the `ws` baseline so both are driven and measured the same way.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { StateTable } from '../src/core/state-table.js';
import { monoMs, runGenerator, seedEntities } from './ws-generator.js';

export type ToServer =
  | { readonly type: 'run'; readonly rate: number; readonly startAt: number; readonly warmupMs: number; readonly durationMs: number }
  | { readonly type: 'exit' };

export type FromServer =
  | { readonly type: 'listening'; readonly port: number; readonly token: string }
  | {
      readonly type: 'done';
      readonly generated: number;
      readonly rssMaxMb: number;
      readonly heapMaxMb: number;
      /** Server CPU over the measured window, in % of one core. */
      readonly cpuPercent: number;
      /** The server's event-loop delay over the window (how long a ready callback waited), p99 and max. */
      readonly loopDelayP99Ms: number;
      readonly loopDelayMaxMs: number;
    };

function send(message: FromServer): void {
  process.send?.(message);
}

/** Seeds the bench entities, reports the port, then runs what the parent asks. */
export function serveBenchmark(states: StateTable, port: number, token: string, stop: () => Promise<void> | void): void {
  seedEntities(states);
  process.on('message', (raw: ToServer) => {
    if (raw.type === 'exit') {
      Promise.resolve(stop()).finally(() => process.exit(0));
      return;
    }
    void measure(states, raw).then(send);
  });
  process.on('disconnect', () => process.exit(0));
  send({ type: 'listening', port, token });
}

async function measure(states: StateTable, run: Extract<ToServer, { type: 'run' }>): Promise<FromServer> {
  let rssMax = 0;
  let heapMax = 0;
  let cpuStart: NodeJS.CpuUsage | undefined;
  let wallStart = 0;
  const measureFrom = run.startAt + run.warmupMs;
  const loopDelay = monitorEventLoopDelay({ resolution: 1 });
  const sampler = setInterval(() => {
    if (monoMs() < measureFrom) return;
    if (cpuStart === undefined) {
      cpuStart = process.cpuUsage();
      wallStart = monoMs();
      loopDelay.enable();
    }
    const m = process.memoryUsage();
    rssMax = Math.max(rssMax, m.rss);
    heapMax = Math.max(heapMax, m.heapUsed);
  }, 50);
  const result = await runGenerator(states, run.rate, run.startAt, run.warmupMs, run.durationMs);
  clearInterval(sampler);
  loopDelay.disable();
  const cpu = process.cpuUsage(cpuStart);
  const wallMs = monoMs() - wallStart;
  const m = process.memoryUsage();
  return {
    type: 'done',
    generated: result.generated,
    rssMaxMb: Math.max(rssMax, m.rss) / 1048576,
    heapMaxMb: Math.max(heapMax, m.heapUsed) / 1048576,
    cpuPercent: cpuStart === undefined ? 0 : ((cpu.user + cpu.system) / 1000 / wallMs) * 100,
    loopDelayP99Ms: loopDelay.percentile(99) / 1e6,
    loopDelayMaxMs: loopDelay.max / 1e6,
  };
}
