import t from 'tap';
import { parseVirtualSection, seededRandom } from '../../drivers/virtual/index.js';
import type { VirtualContext } from '../../drivers/virtual/types.js';
import type { ConfigIssue } from '../../src/config/reader.js';
import { Core } from '../../src/core/core.js';
import type { JsonObject, JsonValue } from '../../src/core/json.js';
import { silentLogger } from '../../src/core/log.js';
import type { State } from '../../src/core/state.js';
import { addVacuum, batteryIcon, VacuumFeature, vacuumDomain } from '../../src/domains/vacuum.js';
import { Timers } from '../../src/util/timers.js';
import { waitForState } from '../helpers/wait.js';

interface Teardown {
  teardown(fn: () => unknown): void;
}

const ID = 'vacuum.robbie';

/** Fast simulation: 10 %/s drain at the middle speed, 20 Hz ticks, a short drive home. */
const FAST = { drain_rate: 600, update_interval: 0.05, return_time: 0.1 };

function setup(t: Teardown, item: JsonObject = {}) {
  const core = new Core({ log: silentLogger });
  vacuumDomain.registerServices(core);
  const timers = new Timers((err) => {
    throw err;
  });
  t.teardown(() => timers.stopAll());
  const issues: ConfigIssue[] = [];
  const [parsed] = parseVirtualSection([{ platform: 'vacuum', name: 'Robbie', ...FAST, ...item }], ['virtual'], issues);
  if (parsed === undefined || issues.length > 0) throw new Error(`bad test config: ${JSON.stringify(issues)}`);
  const ctx: VirtualContext = { core, log: silentLogger, owner: 'virtual', timers, random: seededRandom(11) };
  parsed.platform.create(ctx, { entityId: parsed.entityId, name: parsed.name }, parsed.options);
  const state = () => core.states.get(ID) as State;
  return {
    core,
    state,
    attrs: () => state().attributes,
    call: (service: string, data: Record<string, JsonValue> = {}) => core.services.call('vacuum', service, { entity_id: ID, ...data }),
    waitFor: (pred: (s: State) => boolean, ms?: number) => waitForState(core, ID, pred, ms),
  };
}

function parseIssues(item: JsonObject): string[] {
  const issues: ConfigIssue[] = [];
  parseVirtualSection([{ platform: 'vacuum', name: 'Robbie', ...item }], ['virtual'], issues);
  return issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

const battery = (s: State) => s.attributes.battery_level as number;

t.test('a minimal vacuum sits charged on its dock with Home Assistant attributes', async (t) => {
  const { state } = setup(t, { drain_rate: 1.5, update_interval: 1 });
  t.equal(state().state, 'docked');
  t.same(state().attributes, {
    fan_speed_list: ['quiet', 'standard', 'turbo', 'max'],
    supported_features: 14332,
    friendly_name: 'Robbie',
    battery_level: 100,
    battery_icon: 'mdi:battery-charging-100',
    fan_speed: 'standard',
    status: 'Fully charged',
  });
});

t.test('cleaning drains the battery; low battery sends it home, where it charges', async (t) => {
  const { call, state, waitFor } = setup(t, { battery: 40, low_battery: 30, drain_rate: 1200, charge_rate: 6000 });
  await call('start');
  t.equal(state().state, 'cleaning');
  t.equal(state().attributes.status, 'Cleaning');
  const draining = await waitFor((s) => s.state === 'cleaning' && battery(s) < 40);
  t.ok(battery(draining) > 30, 'the level drops while cleaning');
  const going = await waitFor((s) => s.state === 'returning');
  t.equal(going.attributes.status, 'Battery low, returning to dock');
  t.ok(battery(going) <= 30);
  const docked = await waitFor((s) => s.state === 'docked');
  t.equal(docked.attributes.status, 'Charging');
  const full = await waitFor((s) => battery(s) === 100);
  t.equal(full.state, 'docked');
  t.equal(full.attributes.status, 'Fully charged');
  t.equal(full.attributes.battery_icon, 'mdi:battery-charging-100');
});

t.test('a finished run returns to the dock', async (t) => {
  const { call, waitFor } = setup(t, { cleaning_time: 0.15, drain_rate: 1 });
  await call('start');
  const going = await waitFor((s) => s.state === 'returning');
  t.equal(going.attributes.status, 'Cleaning finished, returning to dock');
  await waitFor((s) => s.state === 'docked');
});

t.test('pause, resume, stop and return to base', async (t) => {
  const { call, state, waitFor } = setup(t, { drain_rate: 1 });
  await call('start');
  await call('pause');
  t.equal(state().state, 'paused');
  t.equal(state().attributes.status, 'Paused');
  await call('start');
  t.equal(state().state, 'cleaning', 'start resumes a paused run');
  await call('stop');
  t.equal(state().state, 'idle');
  t.equal(state().attributes.status, 'Stopped');
  t.equal(state().attributes.battery_icon, 'mdi:battery', 'not charging off the dock');
  await call('return_to_base');
  t.equal(state().state, 'returning');
  t.equal(state().attributes.status, 'Returning to dock');
  await waitFor((s) => s.state === 'docked');
  await call('pause');
  t.equal(state().state, 'docked', 'nothing to pause on the dock');
});

t.test('spot cleaning runs for spot_time, then goes home', async (t) => {
  const { call, state, waitFor } = setup(t, { spot_time: 0.1, drain_rate: 1 });
  await call('clean_spot');
  t.equal(state().state, 'cleaning');
  t.equal(state().attributes.status, 'Spot cleaning');
  const going = await waitFor((s) => s.state === 'returning');
  t.equal(going.attributes.status, 'Spot done, returning to dock');
});

t.test('a low battery on the dock refuses to start, saying why', async (t) => {
  const { call, state } = setup(t, { battery: 10, charge_rate: 0.01 });
  await call('start');
  t.equal(state().state, 'docked');
  t.equal(state().attributes.status, 'Battery too low to clean (10%), charging first');
  t.equal(state().attributes.battery_icon, 'mdi:battery-outline');
});

t.test('a stuck robot reports error and carries on when started again', async (t) => {
  const { call, waitFor } = setup(t, { stuck_chance: 1, drain_rate: 1 });
  await call('start');
  const stuck = await waitFor((s) => s.state === 'error');
  t.match(stuck.attributes.status, /^Error: /);
  await call('start');
  await waitFor((s) => s.state === 'cleaning');
});

t.test('locate, send_command and fan speeds', async (t) => {
  const { call, attrs } = setup(t);
  await call('locate');
  t.equal(attrs().status, "Beep! I'm over here");
  await call('send_command', { command: 'set_dnd', params: { start: '22:00' } });
  t.equal(attrs().status, 'Executing set_dnd({"start":"22:00"})');
  await call('send_command', { command: 'app_goto', params: 25 });
  t.equal(attrs().status, 'Executing app_goto([25])', 'a single parameter becomes a list, as cv.ensure_list');
  await call('send_command', { command: 'reset' });
  t.equal(attrs().status, 'Executing reset()');
  await call('set_fan_speed', { fan_speed: 'turbo' });
  t.equal(attrs().fan_speed, 'turbo');
  await t.rejects(call('set_fan_speed', { fan_speed: 'ludicrous' }), {
    kind: 'service_validation',
    message: 'Fan speed ludicrous is not valid. Valid fan speeds are: quiet, standard, turbo, max',
  });
});

t.test('bad service data is refused naming the field', async (t) => {
  const { call } = setup(t);
  await t.rejects(call('set_fan_speed'), { kind: 'invalid_service_data', message: "required key not provided @ data['fan_speed']" });
  await t.rejects(call('send_command', { params: [1] }), {
    kind: 'invalid_service_data',
    message: "required key not provided @ data['command']",
  });
  await t.rejects(call('start', { speed: 'max' }), { kind: 'invalid_service_data', message: "extra keys not allowed @ data['speed']" });
});

t.test('a vacuum without a feature refuses its services', async (t) => {
  const core = new Core({ log: silentLogger });
  vacuumDomain.registerServices(core);
  let started = 0;
  const v = addVacuum(core, {
    entityId: 'vacuum.basic',
    owner: 'test',
    capabilities: { supportedFeatures: VacuumFeature.START },
    platform: {
      start() {
        started++;
        v.report({ state: 'cleaning' });
      },
    },
  });
  v.report({ state: 'docked' });
  const call = (service: string, data: Record<string, JsonValue> = {}) =>
    core.services.call('vacuum', service, { entity_id: 'vacuum.basic', ...data });
  for (const service of ['pause', 'stop', 'return_to_base', 'clean_spot', 'locate']) {
    await t.rejects(call(service), {
      kind: 'service_validation',
      message: `Entity vacuum.basic does not support action vacuum.${service}.`,
    });
  }
  await t.rejects(call('set_fan_speed', { fan_speed: 'max' }), { message: 'does not support action vacuum.set_fan_speed.' });
  await t.rejects(call('send_command', { command: 'x' }), { message: 'does not support action vacuum.send_command.' });
  await call('start');
  t.equal(started, 1);
  t.same(
    core.states.get('vacuum.basic')?.attributes,
    { supported_features: 8192 },
    'no battery, fan or status attributes without their bits',
  );
});

t.test('a service on `all` skips the vacuums without its feature, as Home Assistant does', async (t) => {
  const core = new Core({ log: silentLogger });
  vacuumDomain.registerServices(core);
  const located: string[] = [];
  for (const [id, supportedFeatures] of [
    ['vacuum.upstairs', VacuumFeature.START | VacuumFeature.LOCATE],
    ['vacuum.basic', VacuumFeature.START],
  ] as const) {
    addVacuum(core, {
      entityId: id,
      owner: 'test',
      capabilities: { supportedFeatures },
      platform: {
        start() {},
        locate() {
          located.push(id);
        },
      },
    }).report({ state: 'docked' });
  }
  await core.services.call('vacuum', 'locate', { entity_id: 'all' });
  t.same(located, ['vacuum.upstairs'], 'the call succeeds and only the vacuum that can locate does');
  await t.rejects(core.services.call('vacuum', 'locate', { entity_id: 'vacuum.basic' }), {
    message: 'Entity vacuum.basic does not support action vacuum.locate.',
  });
});

t.test("battery icons follow Home Assistant's icon_for_battery_level", async (t) => {
  t.equal(batteryIcon(null, false), 'mdi:battery-unknown');
  t.equal(batteryIcon(100, true), 'mdi:battery-charging-100');
  t.equal(batteryIcon(49, true), 'mdi:battery-charging-40');
  t.equal(batteryIcon(8, true), 'mdi:battery-outline');
  t.equal(batteryIcon(3, false), 'mdi:battery-alert');
  t.equal(batteryIcon(56, false), 'mdi:battery-60');
  t.equal(batteryIcon(96, false), 'mdi:battery');
});

t.test('scenes: reproduceState starts cleaning and sets the fan speed', async (t) => {
  const { core, state } = setup(t, { drain_rate: 1 });
  await vacuumDomain.reproduceState?.(core, ID, { state: 'cleaning', attributes: { fan_speed: 'max' } }, core.newContext());
  t.equal(state().state, 'cleaning');
  t.equal(state().attributes.fan_speed, 'max');
  await vacuumDomain.reproduceState?.(core, ID, { state: 'docked', attributes: {} }, core.newContext());
  t.equal(state().state, 'returning');
});

t.test('YAML options are validated with the allowed values in the message', async (t) => {
  t.same(parseIssues({}), []);
  t.same(parseIssues({ fan_speed: 'turbo', fan_speeds: ['low', 'high'] }), [
    'virtual.0.fan_speed: "turbo" is not allowed: expected one of low, high',
  ]);
  t.same(parseIssues({ battery: 101 }), ['virtual.0.battery: 101 is not allowed: expected a number from 0 to 100']);
  t.same(parseIssues({ initial: 'cleaning' }), ['virtual.0.initial: "cleaning" is not allowed: expected one of docked, idle']);
  t.same(parseIssues({ fan_speeds: [] }), ['virtual.0.fan_speeds: must list at least one fan speed']);
});
