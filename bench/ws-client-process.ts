/**
 * The WebSocket clients of the memory benchmarks, in a process of their own (bench/ws-clients.ts), and the
 * typed wait for a message from a child process and its stop that the benchmarks share.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { BENCH, sleep, stopProcess, TSX } from './procs.js';
import type { FromClients as StampFromClients, ToClients as StampToClients } from './stamp-clients.js';
import type { SubscriberKind, ToClients } from './ws-clients.js';

export function next<T extends { type: string }>(child: ChildProcess, type: T['type'], ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`no '${type}' from a child within ${ms} ms`)), ms);
    const onMessage = (m: T) => {
      if (m.type === type) done(undefined, m);
      else if (m.type === 'error') done(new Error((m as unknown as { message: string }).message));
    };
    const onExit = (code: number | null) => done(new Error(`child exited (${code}) before '${type}'`));
    function done(err: Error | undefined, value?: T): void {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve(value as T);
    }
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

/**
 * Asks a child to exit ({ type: 'exit' } over IPC), kills it after `killAfterMs` if it has not. A child that
 * exits by itself after its report may have a pipe that is closing already: a failed send then kills it
 * instead of raising EPIPE as an 'error' event nobody listens to (which ended `make bench`'s GPIO run).
 */
export function stopChild(child: ChildProcess, killAfterMs = 5000): Promise<void> {
  return stopProcess(child, killAfterMs, (c) => {
    if (c.connected) c.send({ type: 'exit' }, (err) => err && c.kill('SIGTERM'));
    else c.kill('SIGTERM');
  });
}

/** `count` state_changed subscribers, all coalescing or none. */
export function subscribers(count: number, coalesce: boolean): SubscriberKind[] {
  return new Array<SubscriberKind>(count).fill(coalesce ? 'coalesced-events' : 'events');
}

/**
 * Forks a client process (`file` under bench/), sends it `connect` and resolves with it once it says it is ready; a
 * process that fails to get there is killed.
 */
async function forkReady(file: string, connect: ToClients | StampToClients, ms: number): Promise<ChildProcess> {
  const child = fork(`${BENCH}${file}`, [], { execArgv: TSX, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const ready = next<{ type: 'ready' }>(child, 'ready', ms);
  child.send(connect);
  try {
    await ready;
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return child;
}

/** Connects subscribed clients of these kinds from a separate process; resolves with that process once they all are. */
export function connectClients(port: number, token: string, kinds: readonly SubscriberKind[]): Promise<ChildProcess> {
  return forkReady('ws-clients.ts', { type: 'connect', url: `ws://127.0.0.1:${port}/api/websocket`, token, kinds }, 60_000);
}

/**
 * Forks bench/stamp-clients.ts (the latency benches' clients, stamping each `state_changed` of `entityId` on arrival)
 * and resolves once its `clients` are subscribed; the caller stops it with stopChild.
 */
export function stampClients(
  url: string,
  token: string,
  options: { readonly clients: number; readonly coalesce: boolean; readonly entityId: string },
): Promise<ChildProcess> {
  return forkReady('stamp-clients.ts', { type: 'connect', url, token, ...options }, 30_000);
}

/** Each stamping client's receipts (monotonic ms, in order) and the frames they got in all; the process then exits. */
export async function stampReport(cli: ChildProcess): Promise<{ receipts: number[][]; events: number }> {
  // Let the last frames land before asking.
  await sleep(200);
  const report = next<Extract<StampFromClients, { type: 'report' }>>(cli, 'report', 30_000);
  cli.send({ type: 'report' } satisfies StampToClients);
  return await report;
}

/** Latencies of events sent at known times (monotonic ms) and stamped on arrival by each client, from `from` on. */
export interface ReceiptLatencies {
  /** Events sent at or after `from`. */
  readonly measured: number;
  /** Send to receipt, ms, over every client and event, sorted. */
  readonly latencies: number[];
  /** Events a client never received. */
  readonly missing: number;
  /** The in-process part (send to the hub's bus), ms, of the measured events, sorted. */
  readonly bus: number[];
}

/** Joins the server's send times (and bus times) with each client's receipts, index by index. */
export function receiptLatencies(
  sent: readonly number[],
  busMs: readonly (number | undefined)[],
  receipts: readonly number[][],
  from: number,
): ReceiptLatencies {
  const latencies: number[] = [];
  const bus: number[] = [];
  let missing = 0;
  let measured = 0;
  for (const [k, t0] of sent.entries()) {
    if (t0 < from) continue;
    measured++;
    const b = busMs[k];
    if (b !== undefined) bus.push(b);
    for (const mine of receipts) {
      const at = mine[k];
      if (at === undefined) missing++;
      else latencies.push(at - t0);
    }
  }
  latencies.sort((a, b) => a - b);
  bus.sort((a, b) => a - b);
  return { measured, latencies, missing, bus };
}
