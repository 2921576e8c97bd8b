import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { addLight, type LightCapabilities, type LightTurnOnParams } from '../../src/domains/light.js';
import { lightDomain, normaliseTurnOn } from '../../src/domains/light-services.js';
import { addSwitch, switchDomain } from '../../src/domains/switch.js';
import { formatLogMessage } from '../../src/util/log-bounds.js';

function setup(caps: LightCapabilities) {
  const core = new Core({ log: silentLogger, clock: new ManualClock() });
  lightDomain.registerServices(core);
  switchDomain.registerServices(core);
  const received: (LightTurnOnParams | 'off')[] = [];
  let on = false;
  let brightness = 100;
  const light = addLight(core, {
    entityId: 'light.lamp',
    name: 'Lamp',
    owner: 'test',
    capabilities: caps,
    platform: {
      turnOn(p) {
        received.push(p);
        on = true;
        brightness = p.brightness ?? brightness;
        light.report({
          on,
          brightness,
          colorMode: p.color_temp_kelvin ? 'color_temp' : 'hs',
          hs: p.hs_color ?? [0, 0],
          colorTempKelvin: p.color_temp_kelvin,
        });
      },
      turnOff() {
        received.push('off');
        on = false;
        light.report({ on });
      },
    },
  });
  light.report({ on: false });
  const call = (service: string, data: Record<string, unknown>) =>
    core.services.call('light', service, { entity_id: 'light.lamp', ...data } as never);
  return { core, received, call };
}

const HS_CT: LightCapabilities = { supportedColorModes: ['color_temp', 'hs'], supportedFeatures: 32 };

t.test('off lights carry the state attributes with null values, on lights real ones', async (t) => {
  const { core, call } = setup(HS_CT);
  const off = core.states.get('light.lamp');
  t.equal(off?.state, 'off');
  t.same(off?.attributes, {
    min_color_temp_kelvin: 2000,
    max_color_temp_kelvin: 6500,
    min_mireds: 153,
    max_mireds: 500,
    supported_color_modes: ['color_temp', 'hs'],
    supported_features: 32,
    friendly_name: 'Lamp',
    color_mode: null,
    brightness: null,
    color_temp_kelvin: null,
    color_temp: null,
    hs_color: null,
    rgb_color: null,
    xy_color: null,
  });
  await call('turn_on', { color_name: 'red', brightness_pct: 50 });
  const on = core.states.get('light.lamp')?.attributes;
  t.equal(on?.brightness, 128);
  t.same(on?.hs_color, [0, 100]);
  t.same(on?.rgb_color, [255, 0, 0]);
  t.equal(on?.color_mode, 'hs');
});

t.test('turn_on normalises to what the light supports', async (t) => {
  const { received, call } = setup(HS_CT);
  await call('turn_on', { rgb_color: [0, 0, 255] });
  await call('turn_on', { color_temp: 250 });
  await call('turn_on', { kelvin: 100000 });
  await call('turn_on', { brightness: 999, transition: 2 });
  t.same(received, [
    { hs_color: [240, 100] },
    { color_temp_kelvin: 4000 },
    { color_temp_kelvin: 6500 },
    { brightness: 255, transition: 2 },
  ]);
});

t.test('brightness 0 or brightness_pct 0 turns the light off; toggle flips', async (t) => {
  const { core, received, call } = setup(HS_CT);
  await call('turn_on', {});
  await call('turn_on', { brightness: 0 });
  t.equal(core.states.get('light.lamp')?.state, 'off');
  await call('toggle', {});
  t.equal(core.states.get('light.lamp')?.state, 'on');
  await call('toggle', {});
  t.equal(received.at(-1), 'off');
});

t.test('brightness steps are relative to the current brightness', async (t) => {
  const { core, call } = setup({ supportedColorModes: ['brightness'] });
  await call('turn_on', { brightness: 100 });
  await call('turn_on', { brightness_step: 50 });
  t.equal(core.states.get('light.lamp')?.attributes.brightness, 150);
  await call('turn_on', { brightness_step_pct: -100 });
  t.equal(core.states.get('light.lamp')?.state, 'off');
});

t.test('bad fields are refused with the field and the allowed values named', async (t) => {
  const { call } = setup(HS_CT);
  await t.rejects(call('turn_on', { brightness_pct: 150 }), { message: /between 0 and 100.*brightness_pct/ });
  await t.rejects(call('turn_on', { brightness: 'bright' }), { message: /expected int.*brightness/ });
  await t.rejects(call('turn_on', { hs_color: [400, 10] }), { message: /\[0\.\.360, 0\.\.100\].*hs_color/ });
  await t.rejects(call('turn_on', { color_name: 'notacolour' }), { message: /value must be one of .*aliceblue.*color_name/ });
  await t.rejects(call('turn_on', { brightness: 1, brightness_pct: 1 }), { message: /exclusion/ });
  await t.rejects(call('turn_on', { rgb_color: [1, 2, 3], color_temp_kelvin: 3000 }), { message: /exclusion/ });
  await t.rejects(call('turn_off', { brightness: 3 }), { message: /extra keys not allowed.*brightness/ });
});

t.test('an unknown colour name that slips past validation falls back to white', async (t) => {
  const warnings: string[] = [];
  const p = normaliseTurnOn({ supportedColorModes: ['rgb'] }, { color_name: 'nope' }, undefined, (m, ...v) =>
    warnings.push(formatLogMessage(m, v)),
  );
  t.same(p, { rgb_color: [255, 255, 255] });
  t.same(warnings, ['Got unknown color nope, falling back to white']);
});

t.test('scenes reproduce a light state through the services', async (t) => {
  const { core, received } = setup(HS_CT);
  await lightDomain.reproduceState?.(
    core,
    'light.lamp',
    { state: 'on', attributes: { brightness: 10, hs_color: [120, 50] } },
    core.newContext(),
  );
  t.same(received.at(-1), { brightness: 10, hs_color: [120, 50] });
  await lightDomain.reproduceState?.(core, 'light.lamp', { state: 'off', attributes: {} }, core.newContext());
  t.equal(received.at(-1), 'off');
});

t.test('switches turn on, off and toggle, and report only what the device did', async (t) => {
  const core = new Core({ log: silentLogger });
  switchDomain.registerServices(core);
  let relayWorks = true;
  const sw = addSwitch(core, {
    entityId: 'switch.relay',
    owner: 'test',
    deviceClass: 'outlet',
    platform: {
      turnOn: () => sw.report(relayWorks),
      turnOff: () => sw.report(false),
    },
  });
  sw.report(false);
  await core.services.call('switch', 'toggle', { entity_id: 'switch.relay' });
  t.equal(core.states.get('switch.relay')?.state, 'on');
  t.equal(core.states.get('switch.relay')?.attributes.device_class, 'outlet');
  await core.services.call('switch', 'turn_off', { entity_id: 'switch.relay' });
  relayWorks = false;
  await core.services.call('switch', 'turn_on', { entity_id: 'switch.relay' });
  t.equal(core.states.get('switch.relay')?.state, 'off', 'a relay that failed to switch stays off');
  sw.report(null);
  t.equal(core.states.get('switch.relay')?.state, 'unknown');
  sw.entity.markUnavailable();
  t.same(core.states.get('switch.relay')?.attributes, { device_class: 'outlet' });
});
