import t from 'tap';
import { attrs, recorded, startHarness } from '../helpers/template-devices.js';

/** Template lights, ported from Home Assistant's tests/components/template/test_light.py. */

const CONFIG = `
template:
  - light:
      - name: Lamp
        state: "{{ states('sensor.lamp') }}"
        level: "{{ states('sensor.lamp_level') }}"
        turn_on:${recorded('turn_on', ['brightness'])}
        turn_off:${recorded('turn_off')}
        set_level:${recorded('set_level', ['brightness'])}
      - name: Desk
        state: "{{ states('sensor.desk') }}"
        temperature: "{{ states('sensor.desk_mireds') | int(0) if has_value('sensor.desk_mireds') else None }}"
        hs: "{{ states('sensor.desk_hs') if has_value('sensor.desk_hs') else None }}"
        turn_on:${recorded('turn_on', ['brightness'])}
        turn_off:${recorded('turn_off')}
        set_level:${recorded('set_level', ['brightness'])}
        set_temperature:${recorded('set_temperature', ['brightness', 'color_temp', 'color_temp_kelvin'])}
        set_hs:${recorded('set_hs', ['brightness', 'hs', 'h', 's'])}
        set_rgb:${recorded('set_rgb', ['brightness', 'rgb', 'r', 'g', 'b'])}
      - name: Plain
        turn_on:${recorded('turn_on', ['brightness'])}
        turn_off:${recorded('turn_off')}
        set_level:${recorded('set_level', ['brightness'])}
      - name: Party
        state: "on"
        effect_list: "{{ ['Disco', 'Police'] }}"
        effect: "{{ states('sensor.effect') }}"
        turn_on:${recorded('turn_on')}
        turn_off:${recorded('turn_off')}
        set_effect:${recorded('set_effect', ['effect'])}
light:
  - platform: template
    lights:
      porch:
        friendly_name: Porch
        value_template: "{{ is_state('sensor.lamp', 'on') }}"
        level_template: "{{ states('sensor.lamp_level') }}"
        color_template: "(40, 50)"
        icon_template: mdi:lightbulb
        turn_on:${recorded('turn_on')}
        turn_off:${recorded('turn_off')}
        set_level:${recorded('set_level', ['brightness'])}
        set_color:${recorded('set_color', ['h', 's'])}
`;

t.test('state and level templates; the colour modes follow from the actions', async (t) => {
  const h = await startHarness(t, CONFIG);
  // [state, level] → [state, brightness] (test_template_state_text, test_level_template).
  const cases: [string, string, string, number | null][] = [
    ['on', '128', 'on', 128],
    ['off', '128', 'off', null],
    ['true', '255', 'on', 255],
    ['false', '0', 'off', null],
    ['on', '0', 'on', 0],
    ['on', '256', 'on', null],
    ['on', 'dog', 'on', null],
    ['dog', '5', 'unknown', null],
    ['on', '12.7', 'on', 12],
  ];
  for (const [state, level, expected, brightness] of cases) {
    h.set('sensor.lamp', state);
    h.set('sensor.lamp_level', level);
    await h.state('light.lamp', (s) => s.state === expected && (s.attributes.brightness ?? null) === brightness);
    t.pass(`${state}, ${level} → ${expected}, ${brightness}`);
  }
  h.set('sensor.lamp', 'on');
  const on = await h.state('light.lamp', (s) => s.state === 'on');
  t.match(attrs(on), { color_mode: 'brightness', supported_color_modes: ['brightness'], supported_features: 0 });
  h.set('sensor.lamp', 'off');
  const off = await h.state('light.lamp', (s) => s.state === 'off');
  t.match(attrs(off), { color_mode: null, supported_color_modes: ['brightness'], supported_features: 0 });
  t.match(attrs(await h.state('light.desk')), { supported_color_modes: ['color_temp', 'hs', 'rgb'] });
  t.match(attrs(await h.state('light.plain')), { supported_color_modes: ['brightness'], assumed_state: true });
});

t.test('temperature and hs templates set the colour and its mode', async (t) => {
  const h = await startHarness(t, CONFIG);
  h.set('sensor.desk', 'on');
  h.set('sensor.desk_mireds', '250');
  let s = await h.state('light.desk', (s) => s.attributes.color_mode === 'color_temp');
  t.match(attrs(s), { color_temp_kelvin: 4000, color_temp: 250 });
  h.set('sensor.desk_mireds', '600');
  s = await h.state('light.desk', (s) => s.attributes.color_temp_kelvin === null);
  t.pass('a temperature outside 153-500 mireds is none');
  h.set('sensor.desk_hs', '(360, 100)');
  s = await h.state('light.desk', (s) => s.attributes.color_mode === 'hs');
  t.same(s.attributes.hs_color, [360, 100]);
  h.set('sensor.desk_hs', '[361, 100]');
  await h.state('light.desk', (s) => s.attributes.hs_color === null);
  t.pass('a hue over 360 is none');
});

t.test('turn_on runs the one action that fits, with its variables; turn_off runs turn_off', async (t) => {
  const h = await startHarness(t, CONFIG);
  h.set('sensor.desk', 'off');
  await h.state('light.desk', (s) => s.state === 'off');
  // [data, the action that runs with its variables] (test_on_action_with_*, test_color_action_no_template...).
  const cases: [Record<string, unknown>, Record<string, unknown>][] = [
    [{}, { action: 'turn_on', brightness: '' }],
    [{ brightness: 124 }, { action: 'set_level', brightness: 124 }],
    [{ color_temp_kelvin: 4000 }, { action: 'set_temperature', brightness: '', color_temp: 250, color_temp_kelvin: 4000 }],
    [{ hs_color: [40, 50] }, { action: 'set_hs', brightness: '', hs: [40, 50], h: 40, s: 50 }],
    [
      { rgb_color: [160, 78, 192], brightness: 10 },
      { action: 'set_rgb', brightness: 10, rgb: [160, 78, 192], r: 160, g: 78, b: 192 },
    ],
  ];
  for (const [data, expected] of cases) {
    const response = await h.call('light', 'turn_on', { entity_id: 'light.desk', ...data });
    t.equal(response.status, 200, JSON.stringify(data));
    const [got] = await h.actions(1);
    t.same({ ...got, brightness: got?.brightness ?? '' }, { ...expected, this_id: 'light.desk' }, JSON.stringify(data));
  }
  await h.call('light', 'turn_off', { entity_id: 'light.desk' });
  t.same(await h.actions(1), [{ action: 'turn_off', this_id: 'light.desk' }]);
  // A colour without its template is shown at once, and the light on; the state template decides again when it renders.
  const s = await h.state('light.desk', (s) => s.state === 'on' && s.attributes.color_mode === 'rgb');
  t.same(s.attributes.rgb_color, [160, 78, 192]);
  h.set('sensor.desk', 'off', { again: true });
  await h.state('light.desk', (s) => s.state === 'off');
});

t.test('without a state template a light is optimistic', async (t) => {
  const h = await startHarness(t, CONFIG);
  t.equal((await h.state('light.plain')).state, 'off');
  await h.call('light', 'turn_on', { entity_id: 'light.plain', brightness: 30 });
  t.same(await h.actions(1), [{ action: 'set_level', brightness: 30, this_id: 'light.plain' }]);
  await h.state('light.plain', (s) => s.state === 'on' && s.attributes.brightness === 30);
  await h.call('light', 'turn_off', { entity_id: 'light.plain' });
  await h.actions(1);
  await h.state('light.plain', (s) => s.state === 'off');
});

t.test('effect list and effect templates; set_effect runs with effect', async (t) => {
  const h = await startHarness(t, CONFIG);
  h.set('sensor.effect', 'Disco');
  const s = await h.state('light.party', (s) => s.attributes.effect === 'Disco');
  t.match(attrs(s), { effect_list: ['Disco', 'Police'], supported_features: 4 });
  h.set('sensor.effect', 'Rave');
  await h.state('light.party', (s) => s.attributes.effect === null);
  await h.call('light', 'turn_on', { entity_id: 'light.party', effect: 'Police' });
  t.same(await h.actions(1), [{ action: 'set_effect', effect: 'Police', this_id: 'light.party' }]);
});

t.test('a legacy light (light: - platform: template) maps its keys onto the modern ones', async (t) => {
  const h = await startHarness(t, CONFIG);
  h.set('sensor.lamp', 'on');
  h.set('sensor.lamp_level', '100');
  const s = await h.state('light.porch', (s) => s.state === 'on' && s.attributes.brightness === 100);
  t.match(attrs(s), { friendly_name: 'Porch', color_mode: 'hs', hs_color: [40, 50], supported_color_modes: ['hs'], icon: 'mdi:lightbulb' });
  await h.call('light', 'turn_on', { entity_id: 'light.porch', hs_color: [10, 20] });
  t.same(await h.actions(1), [{ action: 'set_color', h: 10, s: 20, this_id: 'light.porch' }]);
});
