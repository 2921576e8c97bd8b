/**
 * The receiving end of the MQTT benchmarks, in a process of its own so its work is not counted in the hubs' or the
 * driver's: WebSocket clients of the hubs (subscribed to `state_changed`) and bare mqtt.js subscribers, each stamping
 * what it receives with process.hrtime (CLOCK_MONOTONIC, the clock every process shares).
 *
 * - `watch`: stamps each new state of one entity (its state is a sequence number) on each hub it is told of;
 * - `subscribe`: the same for a bare subscriber of `<prefix>/state` topics (the reference);
 * - `stamp`: the first given payload on a topic (a hub's birth: when it connected to the broker);
 * - `mirror`: counts the entities whose id contains `marker` with a real state (neither unavailable nor unknown),
 *   from get_states and state_changed, and says when there are `count`; `mirror-mqtt`: counts messages under a prefix.
 */
import mqtt from 'mqtt';
import WebSocket from 'ws';
import { monoMs } from './procs.js';

export interface HubAddress {
  readonly label: string;
  readonly port: number;
  readonly token: string;
}

export interface BrokerLogin {
  readonly url: string;
  readonly username: string;
  readonly password: string;
}

export type ToObserver =
  | { type: 'watch'; hubs: HubAddress[]; entityId: string }
  | { type: 'subscribe'; label: string; broker: BrokerLogin; prefix: string }
  | { type: 'report' }
  | { type: 'mirror'; hub: HubAddress; marker: string; count: number }
  | { type: 'mirror-mqtt'; broker: BrokerLogin; prefix: string; count: number }
  /** Stamps the first `payload` on `topic` (a hub's birth message) as receipts[label] = [[0, at]]. */
  | { type: 'stamp'; label: string; broker: BrokerLogin; topic: string; payload: string };

export type FromObserver =
  | { type: 'ready' }
  | { type: 'error'; message: string }
  /** Per source, [sequence number, monotonic ms of receipt] for each first receipt. */
  | { type: 'report'; receipts: Record<string, [number, number][]> }
  /** When the count was reached (`at`), and when the first counted entity or message came (`firstAt`). */
  | { type: 'mirrored'; at: number; firstAt: number; count: number };

const receipts: Record<string, [number, number][]> = {};
const closers: (() => void)[] = [];
const send = (m: FromObserver): void => {
  process.send?.(m);
};
const fail = (err: unknown): void => send({ type: 'error', message: err instanceof Error ? err.message : String(err) });

interface HaMessage {
  readonly id?: number;
  readonly type?: string;
  readonly success?: boolean;
  readonly result?: unknown;
  readonly event?: { data?: { entity_id?: string; new_state?: { state?: string } | null } };
}

/** A WebSocket client of a hub, authenticated and subscribed to state_changed; `onState` sees states in order. */
function hubClient(hub: HubAddress, onState: (entityId: string, state: string | undefined, at: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${hub.port}/api/websocket`, { perMessageDeflate: false });
    closers.push(() => ws.terminate());
    ws.on('error', reject);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', access_token: hub.token })));
    ws.on('message', (data: Buffer) => {
      const at = monoMs();
      const m = JSON.parse(data.toString()) as HaMessage;
      if (m.type === 'auth_ok') {
        ws.send(JSON.stringify({ id: 1, type: 'subscribe_events', event_type: 'state_changed' }));
        ws.send(JSON.stringify({ id: 2, type: 'get_states' }));
      } else if (m.type === 'auth_invalid') reject(new Error(`${hub.label}: auth_invalid`));
      else if (m.type === 'event') {
        const d = m.event?.data;
        if (d?.entity_id !== undefined) onState(d.entity_id, d.new_state?.state, at);
      } else if (m.id === 2 && m.success === true && Array.isArray(m.result)) {
        for (const s of m.result as { entity_id: string; state: string }[]) onState(s.entity_id, s.state, at);
        resolve();
      }
    });
  });
}

function mqttClient(broker: BrokerLogin, filter: string, onMessage: (topic: string, payload: Buffer, at: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const client = mqtt.connect(broker.url, { username: broker.username, password: broker.password, reconnectPeriod: 0 });
    closers.push(() => client.end(true));
    client.on('error', reject);
    client.on('message', (topic, payload) => onMessage(topic, payload, monoMs()));
    client.on('connect', () =>
      client.subscribe(filter, { qos: 0 }, (err) => {
        if (err) reject(err);
        else resolve();
      }),
    );
  });
}

function stamp(label: string, seq: number, at: number, seen: Set<number>): void {
  if (!Number.isInteger(seq) || seen.has(seq)) return;
  seen.add(seq);
  const mine = receipts[label] ?? [];
  receipts[label] = mine;
  mine.push([seq, at]);
}

function onMessage(m: ToObserver): void {
  if (m.type === 'watch') {
    Promise.all(
      m.hubs.map((hub) => {
        const seen = new Set<number>();
        return hubClient(hub, (id, state, at) => {
          if (id === m.entityId && state !== undefined) stamp(hub.label, Number(state), at, seen);
        });
      }),
    )
      .then(() => send({ type: 'ready' }))
      .catch(fail);
  } else if (m.type === 'subscribe') {
    const seen = new Set<number>();
    mqttClient(m.broker, `${m.prefix}/#`, (topic, payload, at) => {
      if (topic.endsWith('/state')) stamp(m.label, Number(payload.toString()), at, seen);
    })
      .then(() => send({ type: 'ready' }))
      .catch(fail);
  } else if (m.type === 'report') {
    send({ type: 'report', receipts });
  } else if (m.type === 'mirror') {
    const good = new Set<string>();
    let firstAt = Number.NaN;
    let done = false;
    hubClient(m.hub, (id, state, at) => {
      if (done || !id.includes(m.marker)) return;
      if (state === undefined || state === 'unavailable' || state === 'unknown') good.delete(id);
      else {
        if (good.size === 0 && Number.isNaN(firstAt)) firstAt = at;
        good.add(id);
      }
      if (good.size >= m.count) {
        done = true;
        send({ type: 'mirrored', at, firstAt, count: good.size });
      }
    })
      .then(() => send({ type: 'ready' }))
      .catch(fail);
  } else if (m.type === 'stamp') {
    const seen = new Set<number>();
    mqttClient(m.broker, m.topic, (_topic, payload, at) => {
      if (payload.toString() === m.payload) stamp(m.label, 0, at, seen);
    })
      .then(() => send({ type: 'ready' }))
      .catch(fail);
  } else if (m.type === 'mirror-mqtt') {
    let n = 0;
    let firstAt = Number.NaN;
    mqttClient(m.broker, `${m.prefix}/#`, (_topic, _payload, at) => {
      if (n === 0) firstAt = at;
      if (++n === m.count) send({ type: 'mirrored', at, firstAt, count: n });
    })
      .then(() => send({ type: 'ready' }))
      .catch(fail);
  }
}

process.on('message', (m: ToObserver) => {
  try {
    onMessage(m);
  } catch (err) {
    fail(err);
  }
});
process.on('disconnect', () => {
  for (const close of closers) close();
  process.exit(0);
});
