// The hub's own WebSocket API subscribed to state_changed: the baseline a bridge's latency is read against (the same
// changes, the same hub, the same moment of the machine's load).
import WebSocket from 'ws';
import { type Hub, httpRequest, sleep } from './procs.js';

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

/** Times, sorted, from each REST call to the change at the bridge's controller and at the hub's own WebSocket client. */
export interface ToggleLatencies {
  readonly bridge: number[];
  readonly websocket: number[];
}

/**
 * Switches light.l0 `changes` times by REST call, one at a time, and times each change to the bridge's controller
 * (`nextAtBridge` gives a promise of the time the controller sees the next change) and to a WebSocket client of the
 * same hub, the baseline. `gapMs` apart (0: each change right after the previous one reached both clients).
 */
export async function toggleLatencies(hub: Hub, changes: number, nextAtBridge: () => Promise<number>, gapMs = 0): Promise<ToggleLatencies> {
  let atSocket: ((t: number) => void) | undefined;
  const ws = await stateSocket(hub, 'light.l0', (t) => atSocket?.(t));
  const bridge: number[] = [];
  const websocket: number[] = [];
  for (let i = 0; i < changes; i++) {
    const arrived = nextAtBridge();
    const broadcast = new Promise<number>((resolve) => {
      atSocket = resolve;
    });
    const t0 = performance.now();
    await httpRequest(hub.port, `/api/services/light/${i % 2 === 0 ? 'turn_on' : 'turn_off'}`, {
      token: hub.token,
      method: 'POST',
      body: '{"entity_id":"light.l0"}',
    });
    bridge.push((await arrived) - t0);
    websocket.push((await broadcast) - t0);
    if (gapMs > 0) await sleep(gapMs);
  }
  ws.close();
  return { bridge: bridge.sort((x, y) => x - y), websocket: websocket.sort((x, y) => x - y) };
}
