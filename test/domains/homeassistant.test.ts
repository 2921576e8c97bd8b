import t from 'tap';
import { HubError } from '../../src/core/errors.js';
import { DEVICES, setup } from '../automation/helpers.js';

const YAML = `${DEVICES}
  - { platform: cover, id: blinds, name: Blinds }
`;

t.test('homeassistant.turn_on turns on lights and switches with the same context', async (t) => {
  const { core } = await setup(t, YAML);
  const result = await core.services.call(
    'homeassistant',
    'turn_on',
    { entity_id: ['light.kitchen', 'switch.coffee_maker'] },
    { collectChanges: true, userId: 'user-1' },
  );
  t.equal(core.states.get('light.kitchen')?.state, 'on');
  t.equal(core.states.get('switch.coffee_maker')?.state, 'on');
  t.same(result.changed.map((s) => s.entity_id).sort(), ['light.kitchen', 'switch.coffee_maker'], 'both in the changed states');
  for (const s of result.changed) t.equal(s.context.id, result.context.id, `${s.entity_id} carries the call's context`);
  t.equal(result.context.user_id, 'user-1');
});

t.test('turn_off and toggle reach each domain; extra data passes through to it', async (t) => {
  const { core } = await setup(t, YAML);
  await core.services.call('homeassistant', 'turn_on', { entity_id: 'light.kitchen', brightness: 77 });
  t.equal(core.states.get('light.kitchen')?.attributes.brightness, 77, 'brightness went on to light.turn_on');
  await core.services.call('homeassistant', 'toggle', {}, { target: { entity_id: ['light.kitchen', 'switch.coffee_maker'] } });
  t.equal(core.states.get('light.kitchen')?.state, 'off');
  t.equal(core.states.get('switch.coffee_maker')?.state, 'on');
  await core.services.call('homeassistant', 'turn_off', { entity_id: 'switch.coffee_maker' });
  t.equal(core.states.get('switch.coffee_maker')?.state, 'off');
  await t.rejects(
    core.services.call('homeassistant', 'turn_on', { entity_id: ['switch.coffee_maker'], brightness: 5 }),
    HubError,
    'the domain validates what is passed through (switches take no brightness)',
  );
});

t.test('domains without the service are skipped with Home Assistant’s warning; no target only logs', async (t) => {
  const { core, log } = await setup(t, YAML);
  await core.services.call('homeassistant', 'turn_on', { entity_id: ['cover.blinds', 'light.kitchen'] });
  t.equal(core.states.get('light.kitchen')?.state, 'on');
  t.ok(log.entries.some((e) => e.msg === 'The service homeassistant.turn_on does not support entities cover.blinds'));
  const r = await core.services.call('homeassistant', 'turn_off', {});
  t.ok(r.context, 'succeeds');
  t.ok(log.entries.some((e) => e.msg === 'The service homeassistant.turn_off cannot be called without a target'));
  await core.services.call('homeassistant', 'update_entity', { entity_id: 'light.kitchen' });
  await t.rejects(core.services.call('homeassistant', 'turn_on', { entity_id: 42 }), { message: /entity_id/ });
});
