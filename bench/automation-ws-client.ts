/**
 * The client of the render_template benchmark, in a process of its own so the hub's process is measured alone:
 * one WebSocket connection that subscribes the templates it is sent and counts the events and bytes it receives.
 */
import WebSocket from 'ws';

export type ToTemplateClient =
  | { readonly type: 'connect'; readonly url: string; readonly token: string }
  | { readonly type: 'subscribe'; readonly templates: readonly string[] }
  | { readonly type: 'count' };

export type FromTemplateClient =
  | { readonly type: 'connected' }
  | { readonly type: 'subscribed' }
  | { readonly type: 'count'; readonly events: number; readonly bytes: number }
  | { readonly type: 'error'; readonly message: string };

let ws: WebSocket | undefined;
let events = 0;
let bytes = 0;
let nextId = 1;
/** Subscriptions whose first event has not come yet; `subscribed` is sent when none is left. */
const awaitingFirst = new Set<number>();
const reply = (m: FromTemplateClient) => process.send?.(m);

process.on('message', (m: ToTemplateClient) => {
  if (m.type === 'connect') {
    ws = new WebSocket(m.url);
    ws.on('open', () => ws?.send(JSON.stringify({ type: 'auth', access_token: m.token })));
    ws.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      const parsed = JSON.parse(text) as { type: string; id?: number; success?: boolean; error?: unknown } | { type: string }[];
      for (const msg of Array.isArray(parsed) ? parsed : [parsed]) {
        const one = msg as { type: string; id?: number; success?: boolean; error?: unknown };
        if (one.type === 'auth_ok') reply({ type: 'connected' });
        else if (one.type === 'result' && one.success === false) reply({ type: 'error', message: JSON.stringify(one.error) });
        else if (one.type === 'event') {
          if (one.id !== undefined && awaitingFirst.delete(one.id) && awaitingFirst.size === 0) reply({ type: 'subscribed' });
          events++;
        }
      }
      bytes += data.length;
    });
    ws.on('error', (err) => reply({ type: 'error', message: String(err) }));
    return;
  }
  if (m.type === 'subscribe') {
    for (const template of m.templates) {
      const id = nextId++;
      awaitingFirst.add(id);
      ws?.send(JSON.stringify({ id, type: 'render_template', template }));
    }
    return;
  }
  reply({ type: 'count', events, bytes });
});
