import t from 'tap';
import WebSocket from 'ws';
import { withDeadline } from './client.js';
import { result, setup } from './registry-setup.js';

/** The details of the protocol Node-RED's Home Assistant nodes rely on. */

t.test('Node-RED connection details', async (t) => {
  const { th, client } = await setup(t);

  t.test('an auth message sent on open, before auth_required arrives, is accepted', async (t) => {
    const ws = new WebSocket(th.wsUrl);
    const received: unknown[] = [];
    const two = new Promise<void>((resolve, reject) => {
      ws.on('message', (data: Buffer) => {
        received.push(JSON.parse(data.toString()));
        if (received.length === 2) resolve();
      });
      ws.on('error', reject);
    });
    ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', access_token: th.token })));
    t.teardown(() => ws.close());
    await withDeadline(two, 3000, 'auth_required and auth_ok');
    t.match(received, [{ type: 'auth_required' }, { type: 'auth_ok', ha_version: /^\d{4}\.\d+/ }]);
  });

  t.test('subscribe_events accepts any event type, including ones the hub never fires', async (t) => {
    for (const type of ['nodered', 'tag_scanned', 'ios.action_fired', 'x'.repeat(200)]) {
      t.same(result(await client.command('subscribe_events', { event_type: type })), undefined, type.slice(0, 20));
    }
  });

  t.test('get_config has components (a list) and state RUNNING', async (t) => {
    const config = result<{ components: unknown; state: unknown }>(await client.command('get_config'));
    t.ok(Array.isArray(config.components));
    t.ok((config.components as string[]).includes('light'));
    t.ok((config.components as string[]).every((c) => typeof c === 'string'));
    t.equal(config.state, 'RUNNING');
  });

  t.test('call_service with return_response false and no service_data', async (t) => {
    const reply = result<{ context: { id: string }; response: unknown }>(
      await client.command('call_service', {
        domain: 'switch',
        service: 'toggle',
        target: { entity_id: 'switch.tree' },
        return_response: false,
      }),
    );
    t.match(reply.context.id, /^[0-9a-f]{32}$/);
    t.equal(th.hub.core.states.get('switch.tree')?.state, 'on');
  });
});
