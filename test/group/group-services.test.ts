import t from 'tap';
import { WsClient } from '../api/ws/client.js';
import { MINIMAL_CONFIG, startTestHub } from '../helpers/hub.js';
import { waitForState } from '../helpers/wait.js';

const YAML = `${MINIMAL_CONFIG}
group:
  lights:
    name: All lights
    entities: light.kitchen, light.hallway
  everything: [group.lights, switch.coffee_maker]
`;

t.test('group.set and group.remove over the WebSocket API; expand() opens groups', async (t) => {
  const { hub, wsUrl, token, api } = await startTestHub(t, { yaml: YAML });
  const core = hub.core;
  t.equal(core.states.get('group.lights')?.state, 'off');
  t.same(core.states.get('group.lights')?.attributes.entity_id, ['light.kitchen', 'light.hallway']);
  t.equal(core.states.get('group.everything')?.attributes.friendly_name, 'everything', 'a group written as a list is named by its key');
  await core.services.call('light', 'turn_on', { entity_id: 'light.hallway' });
  await waitForState(core, 'group.everything', (s) => s.state === 'on');

  const ws = await WsClient.authenticated(wsUrl, token);
  t.teardown(() => ws.ws.close());
  const call = (service: string, data: Record<string, unknown>) =>
    ws.command('call_service', { domain: 'group', service, service_data: data });
  t.equal((await call('set', { object_id: 'made', name: 'Made', entities: ['switch.coffee_maker'] })).success, true);
  t.match(core.states.get('group.made'), {
    state: 'off',
    attributes: { entity_id: ['switch.coffee_maker'], auto: true, friendly_name: 'Made' },
  });
  await call('set', { object_id: 'made', add_entities: ['light.hallway'], all: true });
  t.same(core.states.get('group.made')?.attributes.entity_id, ['switch.coffee_maker', 'light.hallway']);
  t.equal(core.states.get('group.made')?.state, 'off', 'all: only one of two on');
  await call('set', { object_id: 'made', remove_entities: ['switch.coffee_maker'] });
  t.equal(core.states.get('group.made')?.state, 'on');
  const bad = await call('set', { object_id: 'made', entities: ['light.kitchen'], add_entities: ['light.hallway'] });
  t.equal(bad.success, false, 'entities and add_entities together are refused');

  const res = await api('/api/template', {
    method: 'POST',
    body: JSON.stringify({ template: "{{ expand('group.everything') | map(attribute='entity_id') | join(',') }}" }),
  });
  t.equal(await res.text(), 'light.hallway,light.kitchen,switch.coffee_maker', 'expand() opens nested groups');

  t.equal((await call('remove', { object_id: 'made' })).success, true);
  t.equal(core.states.get('group.made'), undefined);
});
