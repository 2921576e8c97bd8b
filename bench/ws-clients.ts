/**
 * The WebSocket clients of the fan-out and memory benchmarks: N clients in one process (apart from the server, so
 * the two do not share an event loop), each authenticated and subscribed as Home Assistant's own clients do, in one
 * of three kinds: subscribe_events state_changed (Node-RED, scripts), the same after `supported_features`
 * coalesce_messages (the frontend's flag), and subscribe_entities (the frontend's compressed states). They do not
 * parse the events: they count `"new_state":` in the raw frame and find each event's `new_state` `ts` attribute
 * for its latency, so this process stays cheap enough to measure the server rather than itself.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { monoMs } from './ws-generator.js';
import { RawWsClient } from './ws-raw-client.js';

export type SubscriberKind = 'events' | 'coalesced-events' | 'entities';

export type ToClients =
  | { readonly type: 'connect'; readonly url: string; readonly token: string; readonly kinds: readonly SubscriberKind[] }
  | { readonly type: 'window'; readonly from: number; readonly to: number }
  /** What every client received so far (the process carries on). */
  | { readonly type: 'count' }
  /** The window's figures; the process exits after it. */
  | { readonly type: 'report' };

export type FromClients =
  | { readonly type: 'ready' }
  | { readonly type: 'error'; readonly message: string }
  | {
      readonly type: 'count';
      /** `"new_state":` seen by the state_changed subscribers since subscribing; for subscribe_entities, the frames. */
      readonly events: Readonly<Record<SubscriberKind, number>>;
      /** Connections closed by the hub after subscribing (dropped as slow consumers, say). */
      readonly closed: number;
    }
  | {
      readonly type: 'report';
      readonly received: number;
      /** state_changed events received in the window, with or without a timestamp attribute. */
      readonly events: number;
      readonly p50Ms: number;
      readonly p99Ms: number;
      readonly maxMs: number;
      /** Clients whose socket closed during the run (a server dropping slow clients, say). */
      readonly closed: number;
      /** This process's CPU over the window (% of one core) and its event-loop delay p99: if either is high, the clients, not the server, set the latency. */
      readonly cpuPercent: number;
      readonly loopDelayP99Ms: number;
    };

// Latency histogram: 10 µs buckets up to 10 s, then one overflow bucket.
const BUCKET_MS = 0.01;
const BUCKETS = 1_000_000;
const histogram = new Uint32Array(BUCKETS + 1);
let received = 0;
let events = 0;
let maxMs = 0;
let windowFrom = Number.POSITIVE_INFINITY;
let windowTo = Number.NEGATIVE_INFINITY;
let closed = 0;
const counts: Record<SubscriberKind, number> = { events: 0, 'coalesced-events': 0, entities: 0 };
const clients: RawWsClient[] = [];
const loopDelay = monitorEventLoopDelay({ resolution: 1 });
let cpuAtStart: NodeJS.CpuUsage | undefined;
let cpuInWindow: NodeJS.CpuUsage | undefined;

const NEW_STATE = Buffer.from('"new_state":');
const TS = Buffer.from('"ts":');

function send(message: FromClients): void {
  process.send?.(message);
}

/** Parses the JSON number starting at `pos`. */
function numberAt(buf: Buffer, pos: number): number {
  let end = pos;
  for (; end < buf.length; end++) {
    const c = buf[end] as number;
    // digits, '.', '-', '+', 'e', 'E'
    if (!((c >= 48 && c <= 57) || c === 46 || c === 45 || c === 43 || c === 101 || c === 69)) break;
  }
  return Number(buf.toString('latin1', pos, end));
}

/**
 * One text frame, bytes [start, end) of `data`: counts its events and their latencies. The searches run
 * on a view of the frame alone: Buffer#indexOf has no end bound, and an event without a `ts` attribute (a
 * light's) would otherwise scan the rest of the TCP chunk for every frame, which made this process, not
 * the server, the bottleneck.
 */
function onFrame(kind: SubscriberKind, data: Buffer, start: number, end: number): void {
  if (kind === 'entities') {
    counts.entities++;
    return;
  }
  const frame = data.subarray(start, end);
  let n = 0;
  for (let e = frame.indexOf(NEW_STATE); e !== -1; e = frame.indexOf(NEW_STATE, e + NEW_STATE.length)) n++;
  counts[kind] += n;
  const now = monoMs();
  if (now < windowFrom || now > windowTo) return;
  events += n;
  let at = frame.indexOf(NEW_STATE);
  while (at !== -1) {
    const ts = frame.indexOf(TS, at);
    if (ts === -1) break;
    const latency = now - numberAt(frame, ts + TS.length);
    received++;
    if (latency > maxMs) maxMs = latency;
    const bucket = Math.floor(latency / BUCKET_MS);
    const index = Math.max(0, Math.min(bucket, BUCKETS));
    histogram[index] = (histogram[index] as number) + 1;
    at = frame.indexOf(NEW_STATE, ts);
  }
}

function percentile(p: number): number {
  const target = Math.ceil(received * p);
  let seen = 0;
  for (let i = 0; i <= BUCKETS; i++) {
    seen += histogram[i] as number;
    if (seen >= target) return i === BUCKETS ? maxMs : (i + 1) * BUCKET_MS;
  }
  return maxMs;
}

/** Opens one client: auth, then its kind's subscription (after coalescing, for that kind); resolves when subscribed. */
function openClient(url: string, token: string, kind: SubscriberKind): Promise<void> {
  return new Promise((resolve, reject) => {
    let subscribed = false;
    const client = new RawWsClient(
      new URL(url),
      (buf, start, end) => {
        if (subscribed) {
          onFrame(kind, buf, start, end);
          return;
        }
        const text = buf.toString('utf8', start, end);
        if (text.includes('"auth_required"')) return;
        if (text.includes('"auth_ok"')) {
          if (kind === 'coalesced-events')
            client.send(JSON.stringify({ id: 1, type: 'supported_features', features: { coalesce_messages: 1 } }));
          const subscribe =
            kind === 'entities' ? { type: 'subscribe_entities' } : { type: 'subscribe_events', event_type: 'state_changed' };
          client.send(JSON.stringify({ id: 2, ...subscribe }));
        } else if (text.includes('"auth_invalid"')) reject(new Error(text));
        else if (/"id":2[,}]/.test(text) && text.includes('"success":true')) {
          subscribed = true;
          resolve();
        }
      },
      () => {
        if (subscribed) closed++;
        else reject(new Error('closed before subscribing'));
      },
    );
    clients.push(client);
    client.open().then(() => client.send(JSON.stringify({ type: 'auth', access_token: token })), reject);
  });
}

process.on('message', (msg: ToClients) => {
  if (msg.type === 'connect') {
    // Connect in small groups so 100 handshakes do not all land at once.
    void (async () => {
      try {
        for (let i = 0; i < msg.kinds.length; i += 10)
          await Promise.all(msg.kinds.slice(i, i + 10).map((kind) => openClient(msg.url, msg.token, kind)));
        send({ type: 'ready' });
      } catch (err) {
        send({ type: 'error', message: String(err) });
      }
    })();
  } else if (msg.type === 'window') {
    windowFrom = msg.from;
    windowTo = msg.to;
    const startIn = Math.max(0, windowFrom - monoMs());
    setTimeout(() => {
      cpuAtStart = process.cpuUsage();
      loopDelay.enable();
    }, startIn);
    setTimeout(
      () => {
        cpuInWindow = process.cpuUsage(cpuAtStart);
        loopDelay.disable();
      },
      startIn + (windowTo - windowFrom),
    );
  } else if (msg.type === 'count') {
    send({ type: 'count', events: { ...counts }, closed });
  } else if (msg.type === 'report') {
    const cpu = cpuInWindow ?? process.cpuUsage(cpuAtStart);
    send({
      type: 'report',
      received,
      events,
      p50Ms: percentile(0.5),
      p99Ms: percentile(0.99),
      maxMs,
      closed,
      cpuPercent: ((cpu.user + cpu.system) / 1000 / (windowTo - windowFrom)) * 100,
      loopDelayP99Ms: loopDelay.percentile(99) / 1e6,
    });
    for (const c of clients) c.destroy();
    setImmediate(() => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));
