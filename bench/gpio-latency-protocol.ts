/**
 * What the processes of bench/gpio-latency.ts share: the entity they watch and the messages they exchange over
 * IPC (the parent with a server, `gpio-latency-server.ts` or `gpio-latency-floor.ts`, and with
 * `stamp-clients.ts`).
 */

export const PIR = 'binary_sensor.bench_pir';
export const PIR_PIN = 24;
export const LOAD_ENTITIES = 1000;

export type RunRequest = { type: 'run'; loadRate: number; edgeHz: number; startAt: number; warmupMs: number; durationMs: number };
export type ToServer = RunRequest | { type: 'exit' };
export type RunResult = {
  type: 'done';
  /** Monotonic ms at which each edge was fired, warm-up included. */
  edges: number[];
  /** Edge to `state_changed` on the hub's bus, ms, per edge. */
  busMs: number[];
  loadWrites: number;
  loopDelayP99Ms: number;
  cpuPercent: number;
};
export type FromServer = { type: 'listening'; port: number; token: string } | { type: 'error'; message: string } | RunResult;

/** Runs a server process's body; a failure is reported to the parent before the process exits. */
export function runServer(body: () => Promise<void>): void {
  body().catch((err: unknown) => {
    process.send?.({ type: 'error', message: String(err) } satisfies FromServer);
    process.exit(1);
  });
}
