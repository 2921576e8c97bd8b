/**
 * The reference server of the latency benches (bench/gpio-latency-floor.ts, bench/zigbee-latency.ts): a bare `ws`
 * server that answers Home Assistant's auth and subscribe_events and sends ready-made state_changed frames to every
 * subscriber. No hub and no JSON work: whatever latency it shows is the machine's (scheduling, loopback, the client
 * process), not hearth's.
 */
import { type WebSocket, WebSocketServer } from 'ws';

export interface FloorServer {
  readonly port: number;
  /** Sends `frame` to every subscribed client. */
  broadcast(frame: string): void;
  close(): void;
}

export async function startFloorServer(): Promise<FloorServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/api/websocket', perMessageDeflate: false });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const sockets = new Set<WebSocket>();
  wss.on('connection', (ws) => {
    ws.send('{"type":"auth_required","ha_version":"2025.1.0"}');
    ws.on('message', (data: Buffer) => {
      const text = data.toString();
      if (text.includes('"auth"')) ws.send('{"type":"auth_ok","ha_version":"2025.1.0"}');
      const id = /"id":(\d+)/.exec(text)?.[1];
      if (id !== undefined) ws.send(`{"id":${id},"type":"result","success":true,"result":null}`);
      if (text.includes('subscribe_events')) sockets.add(ws);
    });
    ws.on('close', () => sockets.delete(ws));
  });
  const address = wss.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : 0,
    broadcast(frame) {
      for (const ws of sockets) ws.send(frame);
    },
    close: () => wss.close(),
  };
}

/** A state_changed event frame of subscription 2, as the hub sends one: `attributes` is its JSON. */
export function stateChangedFrame(entityId: string, state: string, attributes: string): string {
  return `{"id":2,"type":"event","event":{"event_type":"state_changed","data":{"entity_id":"${entityId}","old_state":null,"new_state":{"entity_id":"${entityId}","state":"${state}","attributes":${attributes},"last_changed":"2026-01-01T00:00:00+00:00","last_reported":"2026-01-01T00:00:00+00:00","last_updated":"2026-01-01T00:00:00+00:00","context":{"id":"01JGZ0000000000000000000000","parent_id":null,"user_id":null}}},"origin":"LOCAL","time_fired":"2026-01-01T00:00:00+00:00","context":{"id":"01JGZ0000000000000000000000","parent_id":null,"user_id":null}}}`;
}
