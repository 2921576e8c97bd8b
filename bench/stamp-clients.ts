/**
 * The client process of the latency benches (bench/gpio-latency.ts, bench/zigbee-latency.ts): WebSocket clients
 * subscribed to `state_changed`, stamping each frame that carries the watched entity's change when it arrives (apart
 * from the server, so neither side's work is counted in the other's latency).
 */
import WebSocket from 'ws';
import { monoMs } from './procs.js';

export type ToClients =
  | { type: 'connect'; url: string; token: string; clients: number; coalesce: boolean; entityId: string }
  | { type: 'report' };
export type FromClients = { type: 'ready' } | { type: 'error'; message: string } | { type: 'report'; receipts: number[][]; events: number };

function clients(): void {
  const sockets: WebSocket[] = [];
  const receipts: number[][] = [];
  let events = 0;

  const open = (url: string, token: string, coalesce: boolean, mark: Buffer, index: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { perMessageDeflate: false, skipUTF8Validation: true });
      sockets.push(ws);
      const mine: number[] = [];
      receipts[index] = mine;
      let subscribed = false;
      ws.on('error', reject);
      ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', access_token: token })));
      ws.on('message', (data: Buffer) => {
        if (subscribed) {
          // Stamp first, then look: the search is not part of the hub's latency.
          const now = monoMs();
          events++;
          for (let at = data.indexOf(mark); at !== -1; at = data.indexOf(mark, at + mark.length)) mine.push(now);
          return;
        }
        const text = data.toString();
        if (text.includes('"auth_ok"')) {
          if (coalesce) ws.send(JSON.stringify({ id: 1, type: 'supported_features', features: { coalesce_messages: 1 } }));
          ws.send(JSON.stringify({ id: 2, type: 'subscribe_events', event_type: 'state_changed' }));
        } else if (text.includes('"auth_invalid"')) reject(new Error(text));
        else if (/"id":2[,}]/.test(text) && text.includes('"success":true')) {
          subscribed = true;
          resolve();
        }
      });
    });

  process.on('message', (m: ToClients) => {
    if (m.type === 'connect') {
      const mark = Buffer.from(`{"entity_id":"${m.entityId}","old_state":`);
      Promise.all(Array.from({ length: m.clients }, (_, i) => open(m.url, m.token, m.coalesce, mark, i)))
        .then(() => process.send?.({ type: 'ready' } satisfies FromClients))
        .catch((err: unknown) => process.send?.({ type: 'error', message: String(err) } satisfies FromClients));
    } else {
      for (const ws of sockets) ws.terminate();
      // Exit once the report is written to the pipe: it is larger than one write.
      process.send?.({ type: 'report', receipts, events } satisfies FromClients, undefined, {}, () => process.exit(0));
    }
  });
  process.on('disconnect', () => process.exit(0));
}

clients();
