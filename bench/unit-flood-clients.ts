/**
 * The subscribers of bench/unit-flood.ts, in a process of their own: `clients` WebSocket connections on
 * 127.0.0.1 in three kinds, as Home Assistant's own clients subscribe: subscribe_events state_changed (Node-RED,
 * scripts), the same after `supported_features` coalesce_messages (the frontend's flag), and subscribe_entities
 * (the frontend's compressed states). They count what arrives and parse nothing else, so that this process
 * keeps up with the hub.
 */
import { RawWsClient } from './ws-raw-client.js';

export type SubscriberKind = 'events' | 'coalesced-events' | 'entities';

export type ToSubscribers =
  | { readonly type: 'connect'; readonly url: string; readonly token: string; readonly kinds: readonly SubscriberKind[] }
  | { readonly type: 'count' };

export type FromSubscribers =
  | { readonly type: 'ready' }
  | { readonly type: 'error'; readonly message: string }
  | {
      readonly type: 'count';
      /** `"new_state":` seen by the state_changed subscribers; for subscribe_entities, the frames. */
      readonly events: Readonly<Record<SubscriberKind, number>>;
      /** Frames received since subscribing, every kind. */
      readonly frames: number;
      /** Connections closed by the hub after subscribing (dropped as slow consumers, say). */
      readonly closed: number;
    };

const NEW_STATE = Buffer.from('"new_state":');
const events: Record<SubscriberKind, number> = { events: 0, 'coalesced-events': 0, entities: 0 };
let frames = 0;
let closed = 0;
const clients: RawWsClient[] = [];

function send(message: FromSubscribers): void {
  process.send?.(message);
}

function count(kind: SubscriberKind, frame: Buffer): void {
  frames++;
  if (kind === 'entities') events.entities++;
  else for (let at = frame.indexOf(NEW_STATE); at !== -1; at = frame.indexOf(NEW_STATE, at + NEW_STATE.length)) events[kind]++;
}

function openClient(url: string, token: string, kind: SubscriberKind): Promise<void> {
  return new Promise((resolve, reject) => {
    let subscribed = false;
    const client = new RawWsClient(
      new URL(url),
      (buf, start, end) => {
        if (subscribed) {
          count(kind, buf.subarray(start, end));
          return;
        }
        const text = buf.toString('utf8', start, end);
        if (text.includes('"auth_required"')) return;
        if (text.includes('"auth_ok"')) {
          if (kind === 'coalesced-events')
            client.send(JSON.stringify({ id: 1, type: 'supported_features', features: { coalesce_messages: 1 } }));
          client.send(
            JSON.stringify(
              kind === 'entities'
                ? { id: 2, type: 'subscribe_entities' }
                : { id: 2, type: 'subscribe_events', event_type: 'state_changed' },
            ),
          );
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

process.on('message', (msg: ToSubscribers) => {
  if (msg.type === 'connect') {
    void (async () => {
      try {
        // Ten at a time, so a hundred handshakes do not all land at once.
        for (let i = 0; i < msg.kinds.length; i += 10)
          await Promise.all(msg.kinds.slice(i, i + 10).map((kind) => openClient(msg.url, msg.token, kind)));
        send({ type: 'ready' });
      } catch (err) {
        send({ type: 'error', message: String(err) });
      }
    })();
  } else if (msg.type === 'count') {
    send({ type: 'count', events: { ...events }, frames, closed });
  }
});
process.on('disconnect', () => {
  for (const c of clients) c.destroy();
  process.exit(0);
});
