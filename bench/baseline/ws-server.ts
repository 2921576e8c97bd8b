/**
 * The baseline of the fan-out benchmark: a straightforward server on the `ws` library speaking the same
 * protocol subset (auth, subscribe_events, ping, state_changed events), fed by the same generator through
 * the same StateTable and EventBus. It does what a plain implementation does: for each event it builds the
 * event object once, then `JSON.stringify`s the whole message per subscriber and `ws.send`s it, with no
 * bound on what it buffers for a slow client.
 */
import { randomBytes } from 'node:crypto';
import { type WebSocket, WebSocketServer } from 'ws';
import { systemClock } from '../../src/core/clock.js';
import { EventBus, type HubEvent } from '../../src/core/event-bus.js';
import type { State } from '../../src/core/state.js';
import { StateTable } from '../../src/core/state-table.js';
import { serveBenchmark } from '../ws-server-harness.js';

const bus = new EventBus(systemClock);
const states = new StateTable(16384, bus, systemClock);
const token = randomBytes(24).toString('base64url');

interface Client {
  readonly ws: WebSocket;
  authed: boolean;
  readonly subscriptions: Map<number, string>;
}
const clients = new Set<Client>();

function plainState(s: State | null): object | null {
  if (s === null) return null;
  return {
    entity_id: s.entity_id,
    state: s.state,
    attributes: s.attributes,
    last_changed: s.last_changed,
    last_updated: s.last_updated,
    context: s.context,
  };
}

bus.on('baseline', 'state_changed', (e: HubEvent<'state_changed'>) => {
  const event = {
    event_type: e.event_type,
    data: { entity_id: e.data.entity_id, old_state: plainState(e.data.old_state), new_state: plainState(e.data.new_state) },
    origin: e.origin,
    time_fired: new Date(e.timeFiredUs / 1000).toISOString(),
    context: e.context,
  };
  for (const c of clients) {
    for (const [id, type] of c.subscriptions) {
      if (type === 'state_changed' || type === '*') c.ws.send(JSON.stringify({ id, type: 'event', event }));
    }
  }
});

const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/api/websocket', perMessageDeflate: false });
wss.on('connection', (ws) => {
  const client: Client = { ws, authed: false, subscriptions: new Map() };
  clients.add(client);
  ws.on('close', () => clients.delete(client));
  ws.send(JSON.stringify({ type: 'auth_required', ha_version: '2025.1.0' }));
  ws.on('message', (data) => {
    let msg: { type?: string; id?: number; access_token?: string; event_type?: string };
    try {
      msg = JSON.parse(data.toString());
    } catch {
      return;
    }
    if (!client.authed) {
      if (msg.type === 'auth' && msg.access_token === token) {
        client.authed = true;
        ws.send(JSON.stringify({ type: 'auth_ok', ha_version: '2025.1.0' }));
      } else {
        ws.send(JSON.stringify({ type: 'auth_invalid', message: 'Invalid access token or password' }));
        ws.close();
      }
      return;
    }
    if (msg.type === 'subscribe_events' && typeof msg.id === 'number') {
      client.subscriptions.set(msg.id, msg.event_type ?? '*');
      ws.send(JSON.stringify({ id: msg.id, type: 'result', success: true, result: null }));
    } else if (msg.type === 'ping') ws.send(JSON.stringify({ id: msg.id, type: 'pong' }));
    else
      ws.send(
        JSON.stringify({
          id: msg.id ?? null,
          type: 'result',
          success: false,
          error: { code: 'unknown_command', message: 'Unknown command.' },
        }),
      );
  });
});
wss.on('listening', () => {
  const address = wss.address();
  if (address === null || typeof address === 'string') throw new Error('unexpected address');
  serveBenchmark(states, address.port, token, () => new Promise<void>((resolve) => wss.close(() => resolve())));
});
