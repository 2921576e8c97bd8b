/**
 * bench/gpio-latency.ts's client process: the WebSocket clients, subscribed to `state_changed`, stamping each
 * frame that carries the watched entity's change when it arrives (apart from the server, so neither side's work
 * is counted in the other's latency).
 */
import WebSocket from 'ws';
import { type FromClients, PIR, type ToClients } from './gpio-latency-protocol.js';
import { monoMs } from './procs.js';

function clients(): void {
  const MARK = Buffer.from(`{"entity_id":"${PIR}","old_state":`);
  const sockets: WebSocket[] = [];
  const receipts: number[][] = [];
  let events = 0;

  const open = (url: string, token: string, coalesce: boolean, index: number): Promise<void> =>
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
          for (let at = data.indexOf(MARK); at !== -1; at = data.indexOf(MARK, at + MARK.length)) mine.push(now);
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
      Promise.all(Array.from({ length: m.clients }, (_, i) => open(m.url, m.token, m.coalesce, i)))
        .then(() => process.send?.({ type: 'ready' } satisfies FromClients))
        .catch((err: unknown) => process.send?.({ type: 'error', message: String(err) } satisfies FromClients));
    } else {
      process.send?.({ type: 'report', receipts, events } satisfies FromClients);
      for (const ws of sockets) ws.terminate();
      setImmediate(() => process.exit(0));
    }
  });
  process.on('disconnect', () => process.exit(0));
}

clients();
