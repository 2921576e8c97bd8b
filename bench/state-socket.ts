// The hub's own WebSocket API subscribed to state_changed: the baseline a bridge's latency is read against (the same
// changes, the same hub, the same moment of the machine's load).
import WebSocket from 'ws';
import type { Hub } from './procs.js';

/** Calls `onEntity` with the time of each state_changed event of `entityId`. */
export async function stateSocket(hub: Hub, entityId: string, onEntity: (t: number) => void): Promise<WebSocket> {
  const ws = new WebSocket(`ws://127.0.0.1:${hub.port}/api/websocket`, { perMessageDeflate: false });
  const needle = `"entity_id":${JSON.stringify(entityId)}`;
  await new Promise<void>((resolve, reject) => {
    ws.on('error', reject);
    ws.on('message', (data: Buffer) => {
      const text = data.toString();
      if (text.includes('"auth_required"')) ws.send(JSON.stringify({ type: 'auth', access_token: hub.token }));
      else if (text.includes('"auth_ok"')) ws.send(JSON.stringify({ id: 1, type: 'subscribe_events', event_type: 'state_changed' }));
      else if (text.includes('"type":"result"')) resolve();
      else if (text.includes(needle)) onEntity(performance.now());
    });
  });
  return ws;
}
