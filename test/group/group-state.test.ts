import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { Groups } from '../../src/group/groups.js';

/**
 * Group state rules after Home Assistant's tests/components/group/test_init.py (each row named after the HA test it
 * follows; rows for one domain's pair follow group/registry.py's ON_OFF_STATES): the member states, `all:`, and the
 * group state HA shows.
 */
const CASES: readonly {
  readonly test: string;
  readonly states: Readonly<Record<string, string>>;
  readonly all?: boolean;
  readonly expected: string;
}[] = [
  {
    test: 'test_setup_group_with_mixed_groupable_states',
    states: { 'light.bowl': 'on', 'group.mixed': 'on', 'device_tracker.paulus': 'home' },
    expected: 'on',
  },
  { test: 'test_setup_group_with_a_non_existing_state', states: { 'light.bowl': 'on', 'non.existing': 'on' }, expected: 'on' },
  {
    test: 'test_setup_group_with_non_groupable_states',
    states: { 'cast.living_room': 'Plex', 'cast.bedroom': 'Netflix' },
    expected: 'unknown',
  },
  { test: 'test_setup_empty_group', states: {}, expected: 'unknown' },
  { test: 'test_group_turns_off_if_all_off', states: { 'light.bowl': 'off', 'light.ceiling': 'off' }, expected: 'off' },
  { test: 'test_group_turns_on_if_all_are_off_and_one_turns_on', states: { 'light.bowl': 'on', 'light.ceiling': 'off' }, expected: 'on' },
  {
    test: 'test_allgroup_stays_off_if_all_are_off_and_one_turns_on',
    states: { 'light.bowl': 'on', 'light.ceiling': 'off' },
    all: true,
    expected: 'off',
  },
  { test: 'test_allgroup_turn_on_if_last_turns_on', states: { 'light.bowl': 'on', 'light.ceiling': 'on' }, all: true, expected: 'on' },
  { test: 'test_group_device_tracker (home)', states: { 'device_tracker.a': 'home', 'device_tracker.b': 'not_home' }, expected: 'home' },
  {
    test: 'test_group_device_tracker (away)',
    states: { 'device_tracker.a': 'not_home', 'device_tracker.b': 'not_home' },
    expected: 'not_home',
  },
  { test: 'test_group_person (home)', states: { 'person.one': 'not_home', 'person.two': 'home' }, expected: 'home' },
  { test: 'test_group_person_and_device_tracker', states: { 'person.one': 'not_home', 'device_tracker.b': 'home' }, expected: 'home' },
  {
    test: 'test_group_updated_after_device_tracker_zone_change',
    states: { 'device_tracker.a': 'Work', 'device_tracker.b': 'not_home' },
    expected: 'not_home',
  },
  { test: 'test_is_on (covers open)', states: { 'cover.a': 'open', 'cover.b': 'closed' }, expected: 'open' },
  { test: 'test_is_on (covers closed)', states: { 'cover.a': 'closed', 'cover.b': 'closed' }, expected: 'closed' },
  { test: 'test_group_locks (unlocked)', states: { 'lock.a': 'locked', 'lock.b': 'unlocked' }, expected: 'unlocked' },
  { test: 'test_group_locks (locked)', states: { 'lock.a': 'locked', 'lock.b': 'locked' }, expected: 'locked' },
  { test: 'test_group_locks (jammed counts as locked)', states: { 'lock.a': 'jammed', 'lock.b': 'locked' }, expected: 'locked' },
  {
    test: 'test_group_mixed_domains_on',
    states: { 'lock.door': 'unlocked', 'binary_sensor.garage': 'on', 'cover.garage': 'open' },
    expected: 'on',
  },
  {
    test: 'test_group_mixed_domains_off',
    states: { 'lock.door': 'locked', 'binary_sensor.garage': 'off', 'cover.garage': 'closed' },
    expected: 'off',
  },
  {
    test: 'test_group_mixed_domains_on_all',
    states: { 'lock.door': 'unlocked', 'binary_sensor.garage': 'on', 'cover.garage': 'open' },
    all: true,
    expected: 'on',
  },
  {
    test: 'test_group_mixed_domains_off_all',
    states: { 'lock.door': 'unlocked', 'binary_sensor.garage': 'off', 'cover.garage': 'open' },
    all: true,
    expected: 'off',
  },
  { test: 'test_group_media_players (playing)', states: { 'media_player.a': 'playing', 'media_player.b': 'off' }, expected: 'on' },
  { test: 'test_group_media_players (idle)', states: { 'media_player.a': 'idle', 'media_player.b': 'off' }, expected: 'on' },
  { test: 'test_group_climate_mixed', states: { 'climate.a': 'cool', 'climate.b': 'off' }, expected: 'on' },
  { test: 'test_group_climate_all_off', states: { 'climate.a': 'off', 'climate.b': 'off' }, expected: 'off' },
  { test: 'test_group_alarm', states: { 'alarm_control_panel.a': 'armed_away', 'alarm_control_panel.b': 'disarmed' }, expected: 'on' },
  { test: 'test_group_vacuum', states: { 'vacuum.a': 'cleaning', 'vacuum.b': 'docked' }, expected: 'on' },
  { test: 'test_group_sensors (excluded domain)', states: { 'sensor.a': '1', 'sensor.b': '2' }, expected: 'unknown' },
  { test: 'test_group_sensors_and_lights', states: { 'sensor.a': 'on', 'light.b': 'off' }, expected: 'off' },
  { test: 'test_group_input_boolean', states: { 'input_boolean.a': 'on', 'input_boolean.b': 'off' }, expected: 'on' },
  { test: 'test_group_unavailable_members', states: { 'light.a': 'unavailable', 'light.b': 'unavailable' }, expected: 'off' },
];

t.test('group states as Home Assistant computes them (tests/components/group/test_init.py)', async (t) => {
  for (const c of CASES) {
    const core = new Core({ log: silentLogger, clock: new ManualClock() });
    for (const [id, state] of Object.entries(c.states)) core.states.set(id, state);
    const groups = new Groups(core, 'group');
    groups.add({ objectId: 'test', name: 'Test', entityIds: Object.keys(c.states), all: c.all ?? false }, false);
    t.equal(core.states.get('group.test')?.state, c.expected, c.test);
    groups.clear(false);
  }
});

t.test('a group follows its members, lists them in entity_id, and a group of groups takes their on/off pair', async (t) => {
  const core = new Core({ log: silentLogger, clock: new ManualClock() });
  core.states.set('device_tracker.a', 'not_home');
  const groups = new Groups(core, 'group');
  groups.add({ objectId: 'family', name: 'Family', entityIds: ['device_tracker.A'], all: false, icon: 'mdi:home' }, false);
  groups.add({ objectId: 'everyone', name: 'Everyone', entityIds: ['group.family'], all: false }, false);
  const family = core.states.get('group.family');
  t.equal(family?.state, 'not_home');
  t.same(family?.attributes, { icon: 'mdi:home', friendly_name: 'Family', entity_id: ['device_tracker.a'], order: 0 });
  t.equal(core.states.get('group.everyone')?.state, 'not_home', 'a group of a home/not_home group is home/not_home');
  core.states.set('device_tracker.a', 'home');
  t.equal(core.states.get('group.family')?.state, 'home');
  t.equal(core.states.get('group.everyone')?.state, 'home');
  groups.clear(false);
});
