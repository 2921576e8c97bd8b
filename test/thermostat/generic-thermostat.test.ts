import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { parseConfigText } from '../../src/config/load.js';
import { ManualClock } from '../../src/core/clock.js';
import type { JsonObject, JsonValue } from '../../src/core/json.js';
import type { State } from '../../src/core/state.js';
import { SECTION_VALIDATORS } from '../../src/sections.js';
import { MINIMAL_CONFIG, startTestHub, type Teardown } from '../helpers/hub.js';
import { memoryLogger } from '../helpers/logger.js';
import { ManualScheduler } from '../helpers/manual-scheduler.js';
import { waitForState } from '../helpers/wait.js';

const T0 = Date.UTC(2026, 0, 15, 6, 0, 0) * 1000;
const SECOND = 1000;
const MINUTE = 60 * SECOND;

const DEVICES = `${MINIMAL_CONFIG}
  - platform: switch
    id: study_heater
    name: Study Heater
input_boolean:
  study_cooler: {name: Study Cooler}
`;

function study(extra = ''): string {
  return `${DEVICES}
climate:
  - platform: generic_thermostat
    name: Study
    heater: switch.study_heater
    target_sensor: sensor.study_temperature
    min_temp: 15
    max_temp: 21
    target_temp: 17
    cold_tolerance: 0.3
    hot_tolerance: 0
    initial_hvac_mode: heat
    away_temp: 16
    target_temp_step: 0.5
    unique_id: study_thermostat
${extra}`;
}

async function hub(t: Teardown, yaml: string, options: { dataDir?: string; at?: number } = {}) {
  const clock = new ManualClock(options.at ?? T0);
  const scheduler = new ManualScheduler(clock);
  const log = memoryLogger();
  const th = await startTestHub(t, { yaml, clock, scheduler, log, dataDir: options.dataDir });
  const core = th.hub.core;
  /** The switch's states in order, as a user's history would show them. */
  const switched: string[] = [];
  core.bus.on('test', 'state_changed', (e) => {
    const id = e.data.entity_id;
    if ((id === 'switch.study_heater' || id === 'input_boolean.study_cooler') && e.data.new_state) switched.push(e.data.new_state.state);
  });
  const post = async (path: string, body: JsonObject) => {
    const res = await th.api(path, { method: 'POST', body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<JsonValue>;
  };
  const temperature = (value: number | string) => post('/api/states/sensor.study_temperature', { state: String(value) });
  const call = (domain: string, service: string, data: JsonObject) => post(`/api/services/${domain}/${service}`, data);
  const climate = async (id = 'climate.study') => {
    const res = await th.api(`/api/states/${id}`);
    return (await res.json()) as { state: string; attributes: JsonObject };
  };
  const wait = (id: string, pred: (s: State) => boolean) => waitForState(core, id, pred);
  return { th, core, clock, scheduler, log, switched, temperature, call, climate, wait };
}

t.test('heats below target - cold_tolerance and stops at target + hot_tolerance, as Home Assistant shows it', async (t) => {
  const h = await hub(t, study());
  await h.temperature(17);
  let c = await h.climate();
  t.equal(c.state, 'heat');
  t.match(c.attributes, {
    hvac_modes: ['heat', 'off'],
    min_temp: 15,
    max_temp: 21,
    target_temp_step: 0.5,
    preset_modes: ['none', 'away'],
    current_temperature: 17,
    temperature: 17,
    hvac_action: 'idle',
    preset_mode: 'none',
    friendly_name: 'Study',
    supported_features: 1 | 16 | 128 | 256,
  });
  await h.temperature(16.8);
  await h.temperature(16.7);
  await h.wait('switch.study_heater', (s) => s.state === 'on');
  t.same(h.switched, ['on'], '16.8 is within the cold tolerance, 16.7 is at target - 0.3');
  c = await h.climate();
  t.equal(c.attributes.hvac_action, 'heating');
  t.equal(c.attributes.current_temperature, 16.7);
  await h.temperature(16.9);
  await h.temperature(17);
  await h.wait('switch.study_heater', (s) => s.state === 'off');
  t.same(h.switched, ['on', 'off'], 'on until the target itself (hot_tolerance 0)');
  await h.wait('climate.study', (s) => s.attributes.hvac_action === 'idle');

  await h.temperature(16);
  await h.wait('switch.study_heater', (s) => s.state === 'on');
  await h.call('climate', 'set_hvac_mode', { entity_id: 'climate.study', hvac_mode: 'off' });
  t.equal(h.core.states.get('switch.study_heater')?.state, 'off', 'off turns the heater off');
  c = await h.climate();
  t.equal(c.state, 'off');
  t.equal(c.attributes.hvac_action, 'off');
  await h.call('climate', 'turn_on', { entity_id: 'climate.study' });
  t.equal(h.core.states.get('switch.study_heater')?.state, 'on', 'turn_on picks heat and heats at once');
  await h.call('climate', 'set_temperature', { entity_id: 'climate.study', temperature: 15 });
  t.equal(h.core.states.get('switch.study_heater')?.state, 'off', 'a lower target stops it');
  t.equal((await h.climate()).attributes.temperature, 15);
  const res = await h.th.api('/api/services/climate/set_temperature', {
    method: 'POST',
    body: JSON.stringify({ entity_id: 'climate.study', temperature: 25 }),
  });
  t.equal(res.status, 400, 'outside min_temp..max_temp is refused');
  t.match(await res.text(), /Provided temperature 25\.0 is not valid\. Accepted range is 15 to 21/);
  const cool = await h.th.api('/api/services/climate/set_hvac_mode', {
    method: 'POST',
    body: JSON.stringify({ entity_id: 'climate.study', hvac_mode: 'cool' }),
  });
  t.equal(cool.status, 400);
  t.match(await cool.text(), /HVAC mode cool is not valid\. Valid HVAC modes are: heat, off/);
  t.ok(h.th.hub.components().includes('climate.generic_thermostat'));
});

t.test('ac_mode: an input_boolean cooler runs above the target', async (t) => {
  const h = await hub(
    t,
    `${DEVICES}
climate:
  - platform: generic_thermostat
    name: Study
    heater: input_boolean.study_cooler
    target_sensor: sensor.study_temperature
    ac_mode: true
    target_temp: 22
    initial_hvac_mode: cool
`,
  );
  await h.temperature(22.2);
  await h.temperature(22.3);
  await h.wait('input_boolean.study_cooler', (s) => s.state === 'on');
  let c = await h.climate();
  t.same(c.attributes.hvac_modes, ['cool', 'off']);
  t.equal(c.attributes.hvac_action, 'cooling');
  t.equal(c.attributes.min_temp, 7, "Home Assistant's defaults");
  t.equal(c.attributes.max_temp, 35);
  t.equal(c.attributes.target_temp_step, 0.1, 'the step follows the precision');
  t.notOk('preset_modes' in c.attributes, 'no presets configured: no preset feature');
  await h.temperature(21.8);
  await h.temperature(21.7);
  await h.wait('input_boolean.study_cooler', (s) => s.state === 'off');
  t.same(h.switched, ['on', 'off'], 'off once at target - cold_tolerance');
  c = await h.climate();
  t.equal(c.attributes.hvac_action, 'idle');
});

t.test('min_cycle_duration holds the switch in its state, then decides again', async (t) => {
  const h = await hub(t, study('    min_cycle_duration: { minutes: 5 }\n'));
  await h.temperature(16);
  await h.wait('climate.study', (s) => s.attributes.current_temperature === 16);
  t.same(h.switched, [], 'the switch has been off only since the hub started: held off');
  h.scheduler.advance(5 * MINUTE);
  t.same(h.switched, [], 'nothing to decide yet: no re-check was due');
  await h.temperature(15.9);
  await h.wait('switch.study_heater', (s) => s.state === 'on');
  h.scheduler.advance(1 * MINUTE);
  await h.temperature(18);
  // A later reading in the same direction shows that the one before was decided (and held).
  await h.temperature(18.5);
  await h.wait('climate.study', (s) => s.attributes.current_temperature === 18.5);
  t.equal(h.core.states.get('switch.study_heater')?.state, 'on', 'held on for 5 minutes although too hot');
  h.scheduler.advance(4 * MINUTE - SECOND);
  t.same(h.switched, ['on']);
  h.scheduler.advance(SECOND);
  await h.wait('switch.study_heater', (s) => s.state === 'off');
  t.same(h.switched, ['on', 'off'], 'off when the 5 minutes are up');

  h.scheduler.advance(MINUTE);
  await h.temperature(16);
  await h.temperature(15.9);
  await h.wait('climate.study', (s) => s.attributes.current_temperature === 15.9);
  t.same(h.switched, ['on', 'off'], 'held off as well');
  await h.call('climate', 'set_temperature', { entity_id: 'climate.study', temperature: 18 });
  t.same(h.switched, ['on', 'off', 'on'], 'a user setting the target is not held (force)');
});

t.test('max_cycle_duration ends a run; cycle_cooldown keeps the switch off before the next', async (t) => {
  const h = await hub(t, study('    max_cycle_duration: { minutes: 20 }\n    cycle_cooldown: { minutes: 5 }\n'));
  await h.temperature(16);
  await h.wait('switch.study_heater', (s) => s.state === 'on');
  t.same(h.switched, ['on'], 'the cooldown does not hold the first start');
  h.scheduler.advance(20 * MINUTE - SECOND);
  t.same(h.switched, ['on']);
  h.scheduler.advance(SECOND);
  await h.wait('switch.study_heater', (s) => s.state === 'off');
  t.same(h.switched, ['on', 'off'], 'off after 20 minutes although still too cold');
  await h.temperature(15.9);
  await h.wait('climate.study', (s) => s.attributes.current_temperature === 15.9);
  t.same(h.switched, ['on', 'off'], 'held off by the cooldown');
  h.scheduler.advance(5 * MINUTE);
  await h.wait('switch.study_heater', (s) => s.state === 'on');
  t.same(h.switched, ['on', 'off', 'on'], 'on again when the cooldown ends');

  await h.call('switch', 'turn_off', { entity_id: 'switch.study_heater' });
  await h.call('switch', 'turn_on', { entity_id: 'switch.study_heater' });
  h.scheduler.advance(30 * MINUTE);
  await h.temperature(16.1);
  await h.wait('climate.study', (s) => s.attributes.current_temperature === 16.1);
  t.equal(h.core.states.get('switch.study_heater')?.state, 'on', 'switched by hand: the max cycle of the run before is dropped');
});

t.test('keep_alive sends the current command again', async (t) => {
  const h = await hub(t, study('    keep_alive: { minutes: 3 }\n'));
  const sent: string[] = [];
  h.core.bus.on('test', 'call_service', (e) => {
    const d = e.data as JsonObject;
    if (d.domain === 'homeassistant') sent.push(String(d.service));
  });
  await h.temperature(16);
  await h.wait('switch.study_heater', (s) => s.state === 'on');
  t.same(sent, ['turn_on']);
  h.scheduler.advance(3 * MINUTE);
  await h.wait('switch.study_heater', (s) => s.state === 'on');
  await h.temperature(16.1);
  t.same(sent, ['turn_on', 'turn_on'], 'the heater is told again that it is on');
  await h.call('switch', 'turn_off', { entity_id: 'switch.study_heater' });
  h.scheduler.advance(3 * MINUTE);
  await h.wait('switch.study_heater', (s) => s.state === 'on');
  t.same(h.switched, ['on', 'off', 'on'], 'a heater switched off by hand is turned on again at the next keep-alive');
  await h.temperature(18);
  await h.wait('switch.study_heater', (s) => s.state === 'off');
  const before = sent.length;
  h.scheduler.advance(3 * MINUTE);
  await h.temperature(18.1);
  t.same(sent.slice(before), ['turn_off'], 'idle: the off command is repeated');
});

t.test('presets: their temperatures, none brings the saved target back, a preset temperature selects it', async (t) => {
  const h = await hub(t, study('    comfort_temp: 20\n'));
  await h.temperature(18);
  await h.call('climate', 'set_preset_mode', { entity_id: 'climate.study', preset_mode: 'comfort' });
  let c = await h.climate();
  t.equal(c.attributes.preset_mode, 'comfort');
  t.equal(c.attributes.temperature, 20);
  t.same(c.attributes.preset_modes, ['none', 'away', 'comfort']);
  t.equal(h.core.states.get('switch.study_heater')?.state, 'on', 'comfort heats');
  await h.call('climate', 'set_preset_mode', { entity_id: 'climate.study', preset_mode: 'away' });
  c = await h.climate();
  t.equal(c.attributes.temperature, 16);
  t.equal(h.core.states.get('switch.study_heater')?.state, 'off');
  await h.call('climate', 'set_preset_mode', { entity_id: 'climate.study', preset_mode: 'none' });
  c = await h.climate();
  t.equal(c.attributes.preset_mode, 'none');
  t.equal(c.attributes.temperature, 17, 'back to the target before the first preset');
  await h.call('climate', 'set_temperature', { entity_id: 'climate.study', temperature: 20 });
  t.equal((await h.climate()).attributes.preset_mode, 'comfort', "a preset's temperature selects the preset");
  await h.call('climate', 'set_temperature', { entity_id: 'climate.study', temperature: 19.5 });
  t.equal((await h.climate()).attributes.preset_mode, 'none');
  const bad = await h.th.api('/api/services/climate/set_preset_mode', {
    method: 'POST',
    body: JSON.stringify({ entity_id: 'climate.study', preset_mode: 'boost' }),
  });
  t.equal(bad.status, 400);
  t.match(await bad.text(), /Preset mode boost is not valid\. Valid preset modes are: none, away, comfort/);
});

t.test('a sensor that is unavailable, not a number or stale turns the heater off and shows no temperature', async (t) => {
  const h = await hub(t, study('    sensor_stale_duration: { minutes: 30 }\n'));
  await h.temperature(16);
  await h.wait('switch.study_heater', (s) => s.state === 'on');
  await h.temperature('unavailable');
  await h.wait('switch.study_heater', (s) => s.state === 'off');
  let c = await h.climate();
  t.equal(c.attributes.current_temperature, null, 'the thermostat reports the missing temperature');
  t.equal(c.attributes.hvac_action, 'idle');
  t.equal(c.state, 'heat', 'the mode is kept');
  t.match(
    h.log.entries.filter((e) => e.level === 'warn' && e.msg.startsWith('climate.')).map((e) => e.msg),
    [/climate\.study: sensor sensor\.study_temperature is unavailable; the heater is kept off/],
  );
  await h.temperature(16);
  await h.wait('switch.study_heater', (s) => s.state === 'on');
  await h.temperature('warm');
  await h.wait('switch.study_heater', (s) => s.state === 'off');
  await h.temperature(16);
  await h.wait('switch.study_heater', (s) => s.state === 'on');

  h.scheduler.advance(29 * MINUTE);
  t.equal(h.core.states.get('switch.study_heater')?.state, 'on');
  h.scheduler.advance(MINUTE);
  await h.wait('switch.study_heater', (s) => s.state === 'off');
  c = await h.climate();
  t.equal(c.attributes.current_temperature, null);
  t.match(h.log.entries.at(-1)?.msg, /is stalled \(no update for 1800 s\)/);
  await h.temperature(16.2);
  await h.wait('switch.study_heater', (s) => s.state === 'on');
  t.same(h.switched, ['on', 'off', 'on', 'off', 'on', 'off', 'on']);
});

t.test('the target, preset and mode come back after a restart; configured values win', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-thermostat-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const yaml = (extra: string) => `${DEVICES}
climate:
  - platform: generic_thermostat
    name: Study
    heater: switch.study_heater
    target_sensor: sensor.study_temperature
    away_temp: 16
${extra}`;
  const first = await hub(t, yaml(''), { dataDir });
  let c = await first.climate();
  t.equal(c.state, 'off', 'off without initial_hvac_mode or a stored state');
  t.equal(c.attributes.temperature, 7, 'min_temp without target_temp or a stored state');
  await first.call('climate', 'set_temperature', { entity_id: 'climate.study', temperature: 19, hvac_mode: 'heat' });
  await first.call('climate', 'set_preset_mode', { entity_id: 'climate.study', preset_mode: 'away' });
  await first.th.hub.stop();

  const second = await hub(t, yaml(''), { dataDir, at: T0 + 10 * MINUTE });
  c = await second.climate();
  t.equal(c.state, 'heat');
  t.equal(c.attributes.temperature, 16);
  t.equal(c.attributes.preset_mode, 'away');
  t.notOk('restored' in c.attributes, 'the thermostat itself has answered');
  await second.temperature(15);
  await second.wait('switch.study_heater', (s) => s.state === 'on');
  t.pass('and heats');
  await second.th.hub.stop();

  const third = await hub(t, yaml('    initial_hvac_mode: "off"\n    target_temp: 18\n'), { dataDir, at: T0 + 20 * MINUTE });
  c = await third.climate();
  t.equal(c.state, 'off', 'initial_hvac_mode wins');
  t.equal(c.attributes.temperature, 18, 'target_temp wins');
  t.equal(c.attributes.preset_mode, 'away', 'the preset still comes back');
});

t.test('a switch left on while the thermostat is off is turned off at start', async (t) => {
  const yaml = study()
    .replace('initial_hvac_mode: heat', 'initial_hvac_mode: "off"')
    .replace('name: Study Heater', 'name: Study Heater\n    initial: true');
  const h = await hub(t, yaml);
  await h.wait('switch.study_heater', (s) => s.state === 'off');
  t.ok(
    h.log.entries.some(
      (e) =>
        e.level === 'warn' && /The climate mode is OFF, but the switch device is ON\. Turning off device switch\.study_heater/.test(e.msg),
    ),
  );
});

t.test('a refused climate section names the file, the line and the key', async (t) => {
  const yaml = `${MINIMAL_CONFIG}
climate:
  - platform: generic_thermostat
    heater: study heater
    min_temp: 22
    max_temp: 18
    precision: 0.2
    initial_hvac_mode: auto
    keep_alive: 0
    away_temp: warm
    hysteresis: 1
  - platform: nest
`;
  let message = '';
  try {
    parseConfigText(yaml, '/config/configuration.yaml', SECTION_VALIDATORS);
  } catch (err) {
    message = err instanceof Error ? err.message : String(err);
  }
  t.match(message, /configuration\.yaml:\d+:\d+: climate\[0\]\.heater: "study heater" is not an entity id/);
  t.match(message, /climate\[0\]: expected a mapping|climate\[0\]\.target_sensor: is required/);
  t.match(message, /configuration\.yaml:27:16: climate\[0\]\.precision: 0\.2 is not allowed: expected one of 0\.1, 0\.5, 1/);
  t.match(message, /climate\[0\]\.initial_hvac_mode: "auto" is not allowed: expected one of cool, heat, off/);
  t.match(message, /climate\[0\]\.keep_alive: must be longer than 0 seconds/);
  t.match(message, /climate\[0\]\.away_temp: "warm" is not allowed: expected a number/);
  t.match(message, /climate\[0\]\.min_temp: 22 is above max_temp 18/);
  t.match(message, /configuration\.yaml:31:5: climate\[0\]\.hysteresis: unknown option; allowed: .*away_temp/);
  t.match(message, /climate\[1\]\.platform: "nest" is not supported/);
});
