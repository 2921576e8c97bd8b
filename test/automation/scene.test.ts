import t from 'tap';
import { DEVICES, nextEvent, setup } from './helpers.js';

const SCENES = `${DEVICES}
scene:
  - id: movie_time
    name: Movie time
    icon: mdi:movie-open
    entities:
      light.living_room: { state: "on", brightness: 40, color_mode: color_temp, color_temp_kelvin: 2700 }
      light.kitchen: "off"
      switch.coffee_maker: "off"
  - name: Breakfast
    entities:
      light.kitchen: { state: "on", brightness: 200 }
      switch.coffee_maker: "on"
      sensor.missing: "12"
`;

t.test('scene.turn_on applies the states with the call’s context; its state is the activation time', async (t) => {
  const { core, log } = await setup(t, SCENES);
  t.equal(core.states.get('scene.movie_time')?.state, 'unknown', 'never activated');
  t.same(core.states.get('scene.movie_time')?.attributes, {
    entity_id: ['light.living_room', 'light.kitchen', 'switch.coffee_maker'],
    id: 'movie_time',
    icon: 'mdi:movie-open',
    friendly_name: 'Movie time',
  });
  await core.services.call('switch', 'turn_on', { entity_id: 'switch.coffee_maker' });
  await core.services.call('light', 'turn_on', { entity_id: 'light.kitchen' });

  const result = await core.services.call('scene', 'turn_on', { entity_id: 'scene.movie_time' }, { collectChanges: true });
  const living = core.states.get('light.living_room');
  t.equal(living?.state, 'on');
  t.equal(living?.attributes.brightness, 40);
  t.equal(living?.attributes.color_temp_kelvin, 2700);
  t.equal(core.states.get('light.kitchen')?.state, 'off');
  t.equal(core.states.get('switch.coffee_maker')?.state, 'off');
  t.match(core.states.get('scene.movie_time')?.state, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?\+00:00$/);
  t.same(
    result.changed.map((s) => s.entity_id).sort(),
    ['light.kitchen', 'light.living_room', 'scene.movie_time', 'switch.coffee_maker'],
    'everything the scene changed is in the call’s changed states',
  );

  await core.services.call('scene', 'turn_on', { entity_id: 'scene.breakfast', transition: 2 });
  t.equal(core.states.get('light.kitchen')?.attributes.brightness, 200);
  t.equal(core.states.get('switch.coffee_maker')?.state, 'on');
  t.ok(log.entries.some((e) => e.msg === 'Unable to find entity sensor.missing'));
});

t.test('scene.apply sets states without creating a scene; bad data names the key', async (t) => {
  const { core, log } = await setup(t, SCENES);
  core.states.set('sensor.outdoor', '12.5');
  const before = core.states.size;
  await core.services.call('scene', 'apply', {
    entities: { 'light.kitchen': { state: 'on', brightness: 10 }, 'switch.coffee_maker': true, 'sensor.outdoor': '20' },
  });
  t.equal(core.states.get('light.kitchen')?.attributes.brightness, 10);
  t.equal(core.states.get('switch.coffee_maker')?.state, 'on');
  t.equal(core.states.size, before, 'no scene entity was created');
  t.ok(log.entries.some((e) => e.msg === 'Unable to reproduce state for sensor.outdoor: the sensor domain does not support it'));
  t.equal(core.states.get('sensor.outdoor')?.state, '12.5');
  await t.rejects(core.services.call('scene', 'apply', { entities: { 'Light Kitchen': 'on' } }), {
    message: `"Light Kitchen" is not an entity id: expected <domain>.<object_id> @ data['entities']['Light Kitchen']`,
  });
  await t.rejects(core.services.call('scene', 'apply', {}), { message: /required key not provided @ data\['entities'\]/ });
});

t.test('scene.create (entities and snapshot), replacing a created one; delete only created ones', async (t) => {
  const { core, log } = await setup(t, SCENES);
  await core.services.call('light', 'turn_on', { entity_id: 'light.kitchen', brightness: 99 });
  await core.services.call('scene', 'create', {
    scene_id: 'before_party',
    snapshot_entities: ['light.kitchen', 'light.nowhere'],
    entities: { 'switch.coffee_maker': 'on' },
  });
  t.ok(log.entries.some((e) => e.msg === 'Entity light.nowhere does not exist and therefore cannot be snapshotted'));
  t.same(core.states.get('scene.before_party')?.attributes, {
    entity_id: ['switch.coffee_maker', 'light.kitchen'],
    friendly_name: 'before_party',
  });
  await core.services.call('light', 'turn_off', { entity_id: 'light.kitchen' });
  await core.services.call('scene', 'turn_on', { entity_id: 'scene.before_party' });
  t.equal(core.states.get('light.kitchen')?.state, 'on');
  t.equal(core.states.get('light.kitchen')?.attributes.brightness, 99, 'the snapshot restored the brightness');
  t.equal(core.states.get('switch.coffee_maker')?.state, 'on');

  await core.services.call('scene', 'create', { scene_id: 'before_party', entities: { 'light.kitchen': 'off' } });
  t.same(core.states.get('scene.before_party')?.attributes.entity_id, ['light.kitchen'], 'replaced');
  t.equal(core.states.get('scene.before_party')?.state, 'unknown');

  await core.services.call('scene', 'create', { scene_id: 'movie_time', entities: { 'light.kitchen': 'on' } });
  t.ok(
    log.entries.some((e) => e.msg === 'The scene scene.movie_time already exists'),
    'a configured scene is not replaced',
  );

  await t.rejects(core.services.call('scene', 'create', { scene_id: 'x' }), {
    message: 'Either "entities" or "snapshot_entities" must be specified',
  });
  await t.rejects(core.services.call('scene', 'create', { scene_id: 'Bad Id', entities: { 'light.kitchen': 'on' } }), {
    message: "invalid slug Bad Id (try bad_id) @ data['scene_id']",
  });
  await t.rejects(
    core.services.call('scene', 'create', { scene_id: 'x', entities: { 'light.kitchen': 'on' }, snapshot_entities: ['light.kitchen'] }),
    { message: /must not overlap/ },
  );

  await t.rejects(core.services.call('scene', 'delete', { entity_id: 'scene.movie_time' }), {
    message: 'scene.movie_time is not a valid scene entity_id',
  });
  await t.rejects(core.services.call('scene', 'delete', { entity_id: ['scene.before_party', 'scene.nope'] }), {
    message: 'scene.nope is not a valid scene entity_id',
  });
  t.ok(core.states.has('scene.before_party'), 'a bad id deletes nothing');
  const removed = nextEvent(core, 'state_changed', (e) => e.data.entity_id === 'scene.before_party' && e.data.new_state === null);
  await core.services.call('scene', 'delete', {}, { target: { entity_id: 'scene.before_party' } });
  await removed;
  t.notOk(core.states.has('scene.before_party'));
});

t.test('scene.reload drops created scenes and re-creates configured ones', async (t) => {
  const { core } = await setup(t, SCENES);
  await core.services.call('scene', 'create', { scene_id: 'temp', entities: { 'light.kitchen': 'on' } });
  await core.services.call('scene', 'turn_on', { entity_id: 'scene.movie_time' });
  await core.services.call('scene', 'reload', {});
  t.notOk(core.states.has('scene.temp'));
  t.equal(core.states.get('scene.movie_time')?.state, 'unknown');
});

t.test('a scene action and script.turn_on from an automation', async (t) => {
  const { core } = await setup(
    t,
    `${SCENES}
automation:
  - id: movie
    triggers: [ { trigger: event, event_type: movie } ]
    actions:
      - scene: scene.movie_time
`,
  );
  core.bus.fire('movie', {}, core.newContext());
  const e = await nextEvent(core, 'state_changed', (e) => e.data.entity_id === 'light.living_room' && e.data.new_state?.state === 'on');
  t.equal(e.data.new_state?.attributes.brightness, 40);
});
