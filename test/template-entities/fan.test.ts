import t from 'tap';
import { attrs, recorded, startHarness } from '../helpers/template-devices.js';

/** Template fans, ported from Home Assistant's tests/components/template/test_fan.py. */

const ACTIONS = `
        turn_on:${recorded('turn_on', ['percentage', 'preset_mode'])}
        turn_off:${recorded('turn_off')}
        set_percentage:${recorded('set_percentage', ['percentage'])}
        set_preset_mode:${recorded('set_preset_mode', ['preset_mode'])}
        set_oscillating:${recorded('set_oscillating', ['oscillating'])}
        set_direction:${recorded('set_direction', ['direction'])}`;

const CONFIG = `
template:
  - fan:
      - name: Ceiling
        state: "{{ states('sensor.fan_state') }}"
        percentage: "{{ states('sensor.fan_percentage') }}"
        preset_mode: "{{ states('sensor.fan_preset') }}"
        oscillating: "{{ states('sensor.fan_oscillating') }}"
        direction: "{{ states('sensor.fan_direction') }}"
        speed_count: 3
        preset_modes: [auto, smart]${ACTIONS}
      - name: Desk
        preset_modes: [auto, smart]${ACTIONS}
      - name: Bare
        turn_on:${recorded('turn_on', ['percentage', 'preset_mode'])}
        turn_off:${recorded('turn_off')}
fan:
  - platform: template
    fans:
      attic:
        friendly_name: Attic fan
        value_template: "{{ states('sensor.fan_state') }}"
        percentage_template: "{{ states('sensor.fan_percentage') }}"
        availability_template: "{{ states('sensor.fan_state') != 'gone' }}"
        turn_on:${recorded('turn_on', ['percentage', 'preset_mode'])}
        turn_off:${recorded('turn_off')}
        set_percentage:${recorded('set_percentage', ['percentage'])}
`;

t.test('a template fan reads its state, percentage, preset, oscillating and direction templates', async (t) => {
  const h = await startHarness(t, CONFIG);
  // [state, percentage, preset, oscillating, direction] → [state, percentage, preset_mode, oscillating, direction]
  const cases: [string[], [string, number, string | null, boolean | null, string | null]][] = [
    [
      ['on', '66', 'auto', 'True', 'forward'],
      ['on', 66, 'auto', true, 'forward'],
    ],
    [
      ['off', '0', 'smart', 'False', 'reverse'],
      ['off', 0, 'smart', false, 'reverse'],
    ],
    [
      ['True', '33.7', 'unknown', 'unknown', 'unavailable'],
      ['on', 33, null, null, null],
    ],
    [
      ['dog', '101', 'turbo', 'maybe', 'up'],
      ['off', 0, null, null, null],
    ],
    [
      ['ON', 'cat', 'auto', 'True', 'forward'],
      ['on', 0, 'auto', true, 'forward'],
    ],
  ];
  for (const [[state, percentage, preset, oscillating, direction], expected] of cases) {
    h.set('sensor.fan_state', state as string);
    h.set('sensor.fan_percentage', percentage as string);
    h.set('sensor.fan_preset', preset as string);
    h.set('sensor.fan_oscillating', oscillating as string);
    h.set('sensor.fan_direction', direction as string);
    const got = await h.state(
      'fan.ceiling',
      (s) =>
        s.state === expected[0] &&
        s.attributes.percentage === expected[1] &&
        s.attributes.preset_mode === expected[2] &&
        s.attributes.oscillating === expected[3] &&
        s.attributes.direction === expected[4],
    );
    t.pass(`${JSON.stringify([state, percentage, preset, oscillating, direction])} → ${JSON.stringify(expected)}`);
    t.match(attrs(got), { percentage_step: 100 / 3, preset_modes: ['auto', 'smart'], supported_features: 63 });
  }
});

t.test('each service runs its action with its variables and this', async (t) => {
  const h = await startHarness(t, CONFIG);
  h.set('sensor.fan_state', 'off');
  await h.state('fan.ceiling', (s) => s.state === 'off');
  // [service, data, the actions that run] (test_on_off, test_set_percentage, test_set_preset_mode...).
  const cases: [string, Record<string, unknown>, Record<string, unknown>[]][] = [
    ['turn_on', {}, [{ action: 'turn_on', percentage: null, preset_mode: null }]],
    [
      'turn_on',
      { percentage: 50 },
      [
        { action: 'turn_on', percentage: 50, preset_mode: null },
        { action: 'set_percentage', percentage: 50 },
      ],
    ],
    [
      'turn_on',
      { preset_mode: 'smart' },
      [
        { action: 'turn_on', percentage: null, preset_mode: 'smart' },
        { action: 'set_preset_mode', preset_mode: 'smart' },
      ],
    ],
    ['turn_off', {}, [{ action: 'turn_off' }]],
    ['set_percentage', { percentage: 66 }, [{ action: 'set_percentage', percentage: 66 }]],
    ['set_preset_mode', { preset_mode: 'auto' }, [{ action: 'set_preset_mode', preset_mode: 'auto' }]],
    ['oscillate', { oscillating: true }, [{ action: 'set_oscillating', oscillating: true }]],
    ['oscillate', { oscillating: false }, [{ action: 'set_oscillating', oscillating: false }]],
    ['set_direction', { direction: 'reverse' }, [{ action: 'set_direction', direction: 'reverse' }]],
  ];
  for (const [service, data, expected] of cases) {
    const response = await h.call('fan', service, { entity_id: 'fan.ceiling', ...data });
    t.equal(response.status, 200, `${service} ${JSON.stringify(data)}`);
    t.same(
      await h.actions(expected.length),
      expected.map((e) => ({ ...e, this_id: 'fan.ceiling' })),
      `${service} ${JSON.stringify(data)}`,
    );
  }
  // A preset mode the fan does not have is refused, and nothing runs.
  const refused = await h.call('fan', 'set_preset_mode', { entity_id: 'fan.ceiling', preset_mode: 'turbo' });
  t.equal(refused.status, 400);
  t.same(h.take(), []);
  t.equal((await h.state('fan.ceiling')).state, 'off', 'with a state template the fan waits for it');
});

t.test('without a state template a fan is optimistic', async (t) => {
  const h = await startHarness(t, CONFIG);
  const first = await h.state('fan.desk');
  t.equal(first.state, 'off');
  t.match(attrs(first), { assumed_state: true, percentage: null, preset_mode: null, oscillating: null, direction: null });
  await h.call('fan', 'turn_on', { entity_id: 'fan.desk', percentage: 40 });
  await h.actions(2);
  await h.state('fan.desk', (s) => s.state === 'on' && s.attributes.percentage === 40);
  await h.call('fan', 'set_preset_mode', { entity_id: 'fan.desk', preset_mode: 'smart' });
  await h.actions(1);
  await h.state('fan.desk', (s) => s.attributes.preset_mode === 'smart');
  await h.call('fan', 'oscillate', { entity_id: 'fan.desk', oscillating: true });
  await h.actions(1);
  await h.state('fan.desk', (s) => s.attributes.oscillating === true);
  await h.call('fan', 'set_direction', { entity_id: 'fan.desk', direction: 'forward' });
  await h.actions(1);
  await h.state('fan.desk', (s) => s.attributes.direction === 'forward');
  await h.call('fan', 'turn_off', { entity_id: 'fan.desk' });
  await h.actions(1);
  await h.state('fan.desk', (s) => s.state === 'off');

  // Only turn_on and turn_off: TURN_ON | TURN_OFF, no speed attributes.
  const bare = await h.state('fan.bare');
  t.same(attrs(bare), { friendly_name: 'Bare', supported_features: 48, assumed_state: true });
  const refused = await h.call('fan', 'set_percentage', { entity_id: 'fan.bare', percentage: 10 });
  t.not(refused.status, 200);
});

t.test('a legacy fan (fan: - platform: template) maps its keys onto the modern ones', async (t) => {
  const h = await startHarness(t, CONFIG);
  h.set('sensor.fan_state', 'on');
  h.set('sensor.fan_percentage', '25');
  const s = await h.state('fan.attic', (s) => s.state === 'on' && s.attributes.percentage === 25);
  t.same(attrs(s), {
    friendly_name: 'Attic fan',
    supported_features: 49,
    preset_modes: null,
    percentage: 25,
    percentage_step: 1,
    preset_mode: null,
  });
  await h.call('fan', 'set_percentage', { entity_id: 'fan.attic', percentage: 75 });
  t.same(await h.actions(1), [{ action: 'set_percentage', percentage: 75, this_id: 'fan.attic' }]);
  h.set('sensor.fan_state', 'gone');
  await h.state('fan.attic', (s) => s.state === 'unavailable');
});
