/**
 * bench/gpio-latency.ts's reference server process, the floor of the same run: a bare `ws` server that, on the
 * same timers, sends a ready-made state_changed frame to every client per edge (and one per load write). No hub,
 * no driver, no JSON work: whatever latency it shows is the machine's (scheduling, loopback, the client
 * process), not hearth's.
 */
import type WebSocket from 'ws';
import { WebSocketServer } from 'ws';
import { drive } from './gpio-latency-drive.js';
import { type FromServer, PIR, runServer, type ToServer } from './gpio-latency-protocol.js';

async function floorServer(): Promise<void> {
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
  const event = (entityId: string, state: string) =>
    `{"id":2,"type":"event","event":{"event_type":"state_changed","data":{"entity_id":"${entityId}","old_state":null,"new_state":{"entity_id":"${entityId}","state":"${state}","attributes":{"device_class":"motion","friendly_name":"Bench PIR"},"last_changed":"2026-01-01T00:00:00+00:00","last_reported":"2026-01-01T00:00:00+00:00","last_updated":"2026-01-01T00:00:00+00:00","context":{"id":"01JGZ0000000000000000000000","parent_id":null,"user_id":null}}},"origin":"LOCAL","time_fired":"2026-01-01T00:00:00+00:00","context":{"id":"01JGZ0000000000000000000000","parent_id":null,"user_id":null}}}`;
  const pir = [event(PIR, 'off'), event(PIR, 'on')];
  const load = event('sensor.load_0', '20.0');
  const broadcast = (frame: string) => {
    for (const ws of sockets) ws.send(frame);
  };
  process.on('message', (m: ToServer) => {
    if (m.type === 'exit') {
      wss.close();
      process.exit(0);
    }
    void drive(
      m,
      (level) => broadcast(pir[level] as string),
      () => broadcast(load),
    ).then((r) => process.send?.({ ...r, busMs: [] } satisfies FromServer));
  });
  process.on('disconnect', () => process.exit(0));
  const address = wss.address();
  process.send?.({
    type: 'listening',
    port: typeof address === 'object' && address !== null ? address.port : 0,
    token: '',
  } satisfies FromServer);
}

runServer(floorServer);
