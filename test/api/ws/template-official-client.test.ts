import { createConnection, createLongLivedTokenAuth } from 'home-assistant-js-websocket';
import t from 'tap';
import WebSocket from 'ws';
import { startTestHub } from '../../helpers/hub.js';
import { withDeadline } from './client.js';

// Node 20 has no global WebSocket; the official client uses whatever is there.
(globalThis as { WebSocket?: unknown }).WebSocket = WebSocket;

interface RenderEvent {
  readonly result: unknown;
  readonly listeners: { all: boolean; domains: string[]; entities: string[]; time: boolean };
}

t.test('the official client subscribes to render_template, sees a re-render and unsubscribes', async (t) => {
  const { url, token, hub } = await startTestHub(t);
  const conn = await withDeadline(createConnection({ auth: createLongLivedTokenAuth(url, token) }), 5000, 'createConnection');
  t.teardown(() => conn.close());

  const events: RenderEvent[] = [];
  let wake: (() => void) | undefined;
  const nextEvent = (count: number) =>
    withDeadline(
      new Promise<RenderEvent>((resolve) => {
        const check = () => {
          if (events.length >= count) resolve(events[count - 1] as RenderEvent);
          else wake = check;
        };
        check();
      }),
      3000,
      `render event ${count}`,
    );
  const unsubscribe = await conn.subscribeMessage<RenderEvent>(
    (event) => {
      events.push(event);
      wake?.();
    },
    { type: 'render_template', template: "{{ states('switch.coffee_maker') }} / {{ state_attr('light.kitchen', 'friendly_name') }}" },
  );
  t.same(await nextEvent(1), {
    result: 'off / Kitchen',
    listeners: { all: false, domains: [], entities: ['light.kitchen', 'switch.coffee_maker'], time: false },
  });
  await conn.sendMessagePromise({
    type: 'call_service',
    domain: 'switch',
    service: 'turn_on',
    service_data: { entity_id: 'switch.coffee_maker' },
  });
  t.equal((await nextEvent(2)).result, 'on / Kitchen');

  const listeners = () => hub.core.bus.listenerCounts().find((c) => c.event === 'state_changed')?.listener_count ?? 0;
  const before = listeners();
  await unsubscribe();
  t.equal(listeners(), before - 1, 'unsubscribing stops the re-rendering');

  // A template error reaches the client as a rejected subscription with Home Assistant's code.
  const failed = await conn
    .subscribeMessage(() => {}, { type: 'render_template', template: '{{ 1 +* }}' })
    .then(
      () => undefined,
      (err: unknown) => err,
    );
  t.match(failed, { code: 'template_error', message: /^TemplateSyntaxError: / });
});
