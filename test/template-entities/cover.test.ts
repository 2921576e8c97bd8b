import t from 'tap';
import { attrs, recorded, startHarness } from '../helpers/template-devices.js';

/** Template covers, ported from Home Assistant's tests/components/template/test_cover.py. */

const ACTIONS = `
        open_cover:${recorded('open_cover')}
        close_cover:${recorded('close_cover')}
        stop_cover:${recorded('stop_cover')}
        set_cover_position:${recorded('set_cover_position', ['position'])}
        set_cover_tilt_position:${recorded('set_cover_tilt_position', ['tilt'])}`;

const CONFIG = `
template:
  - cover:
      - name: Garage
        unique_id: garage_door
        device_class: garage
        state: "{{ states('sensor.garage') }}"
        icon: "{{ 'mdi:garage-open' if is_state('sensor.garage', 'open') else 'mdi:garage' }}"
        attributes:
          source: "{{ 'sensor.garage' }}"${ACTIONS}
      - name: Blind
        position: "{{ states('sensor.blind_position') }}"
        tilt: "{{ states('sensor.blind_tilt') }}"${ACTIONS}
      - name: Shutter
        set_cover_position:${recorded('set_cover_position', ['position'])}
      - name: Awning
        availability: "{{ is_state('sensor.awning_ok', 'on') }}"
        open_cover:${recorded('open_cover')}
        close_cover:${recorded('close_cover')}
cover:
  - platform: template
    covers:
      gate:
        friendly_name: Front gate
        value_template: "{{ is_state('sensor.gate', 'on') }}"
        position_template: "{{ states('sensor.gate_position') }}"
        icon_template: mdi:gate
        open_cover:${recorded('open_cover')}
        close_cover:${recorded('close_cover')}
`;

t.test('a template cover reads its state template as Home Assistant does', async (t) => {
  const h = await startHarness(t, CONFIG);
  // [state the template reads, the cover's state] (test_template_state_text and its table).
  const cases: [string, string][] = [
    ['open', 'open'],
    ['closed', 'closed'],
    ['opening', 'opening'],
    ['closing', 'closing'],
    ['true', 'open'],
    ['false', 'closed'],
    ['OPEN', 'open'],
    ['dog', 'unknown'],
    ['open', 'open'],
  ];
  for (const [input, expected] of cases) {
    h.set('sensor.garage', input);
    const s = await h.state('cover.garage', (s) => s.state === expected);
    t.equal(s.state, expected, `${input} → ${expected}`);
  }
  const s = await h.state('cover.garage', (s) => s.attributes.icon === 'mdi:garage-open');
  t.same(attrs(s), {
    friendly_name: 'Garage',
    device_class: 'garage',
    // OPEN | CLOSE | STOP | SET_POSITION | the tilt features: every action given.
    supported_features: 255,
    current_position: 100,
    icon: 'mdi:garage-open',
    source: 'sensor.garage',
  });
});

t.test('position and tilt templates: 0-100, anything else unknown', async (t) => {
  const h = await startHarness(t, CONFIG);
  // [position, tilt, state, current_position, current_tilt_position]
  const cases: [string, string, string, number | undefined, number | undefined][] = [
    ['42', '10', 'open', 42, 10],
    ['0', '0', 'closed', 0, 0],
    ['100', '100', 'open', 100, 100],
    ['42.5', '7.5', 'open', 42.5, 7.5],
    ['-1', '101', 'unknown', undefined, undefined],
    ['dog', 'cat', 'unknown', undefined, undefined],
  ];
  for (const [position, tilt, state, current, currentTilt] of cases) {
    h.set('sensor.blind_position', position);
    h.set('sensor.blind_tilt', tilt);
    const s = await h.state(
      'cover.blind',
      (s) => s.state === state && s.attributes.current_position === current && s.attributes.current_tilt_position === currentTilt,
    );
    t.equal(s.state, state, `position ${position}, tilt ${tilt}`);
  }
  t.equal((await h.state('cover.blind')).attributes.assumed_state, undefined, 'a position template is not optimistic');
});

t.test('each service runs its action with position and tilt, and this', async (t) => {
  const h = await startHarness(t, CONFIG);
  h.set('sensor.garage', 'closed');
  await h.state('cover.garage', (s) => s.state === 'closed');
  // [service, data, the action that runs with its variables] (test_open_action... test_set_tilt_position).
  const cases: [string, Record<string, number>, Record<string, unknown>][] = [
    ['open_cover', {}, { action: 'open_cover' }],
    ['close_cover', {}, { action: 'close_cover' }],
    ['stop_cover', {}, { action: 'stop_cover' }],
    ['set_cover_position', { position: 25 }, { action: 'set_cover_position', position: 25 }],
    ['set_cover_tilt_position', { tilt_position: 42 }, { action: 'set_cover_tilt_position', tilt: 42 }],
    ['open_cover_tilt', {}, { action: 'set_cover_tilt_position', tilt: 100 }],
    ['close_cover_tilt', {}, { action: 'set_cover_tilt_position', tilt: 0 }],
  ];
  for (const [service, data, expected] of cases) {
    const response = await h.call('cover', service, { entity_id: 'cover.garage', ...data });
    t.equal(response.status, 200, service);
    t.same(await h.actions(1), [{ ...expected, this_id: 'cover.garage' }], service);
  }
  // The tilt has no template, so what was set is shown at once, with the position last asked for (as in Home
  // Assistant, where set_cover_position keeps the position even when only the tilt writes the state).
  const s = await h.state('cover.garage');
  t.equal(s.state, 'open');
  t.match(attrs(s), { current_position: 25, current_tilt_position: 0 });
  // The state template renders again: it decides.
  h.set('sensor.garage', 'closed', { again: true });
  h.set('sensor.garage', 'false');
  await h.state('cover.garage', (s) => s.state === 'closed' && s.attributes.current_position === 0);
});

t.test('without state or position template a cover is optimistic; set_cover_position alone opens and closes', async (t) => {
  const h = await startHarness(t, CONFIG);
  const first = await h.state('cover.shutter');
  t.equal(first.state, 'unknown');
  // SET_POSITION with OPEN | CLOSE, assumed state.
  t.match(attrs(first), { supported_features: 7, assumed_state: true });
  await h.call('cover', 'open_cover', { entity_id: 'cover.shutter' });
  t.same(await h.actions(1), [{ action: 'set_cover_position', position: 100, this_id: 'cover.shutter' }]);
  await h.state('cover.shutter', (s) => s.state === 'open' && s.attributes.current_position === 100);
  await h.call('cover', 'close_cover', { entity_id: 'cover.shutter' });
  t.same(await h.actions(1), [{ action: 'set_cover_position', position: 0, this_id: 'cover.shutter' }]);
  await h.state('cover.shutter', (s) => s.state === 'closed' && s.attributes.current_position === 0);
  await h.call('cover', 'set_cover_position', { entity_id: 'cover.shutter', position: 30 });
  t.same(await h.actions(1), [{ action: 'set_cover_position', position: 30, this_id: 'cover.shutter' }]);
  await h.state('cover.shutter', (s) => s.state === 'open' && s.attributes.current_position === 30);
  // No stop action: no STOP feature, and the service is refused.
  const stop = await h.call('cover', 'stop_cover', { entity_id: 'cover.shutter' });
  t.not(stop.status, 200);

  // Open and close actions only: optimistic, no position attribute.
  h.set('sensor.awning_ok', 'on');
  await h.state('cover.awning', (s) => s.state === 'unknown');
  await h.call('cover', 'open_cover', { entity_id: 'cover.awning' });
  t.same(await h.actions(1), [{ action: 'open_cover', this_id: 'cover.awning' }]);
  const opened = await h.state('cover.awning', (s) => s.state === 'open');
  t.same(attrs(opened), { friendly_name: 'Awning', supported_features: 3, assumed_state: true });
  h.set('sensor.awning_ok', 'off');
  await h.state('cover.awning', (s) => s.state === 'unavailable');
});

t.test('a legacy cover (cover: - platform: template) maps its keys onto the modern ones', async (t) => {
  const h = await startHarness(t, CONFIG);
  h.set('sensor.gate', 'on');
  h.set('sensor.gate_position', '60');
  const s = await h.state('cover.gate', (s) => s.attributes.current_position === 60);
  t.equal(s.state, 'open');
  t.same(attrs(s), { friendly_name: 'Front gate', supported_features: 3, current_position: 60, icon: 'mdi:gate' });
  h.set('sensor.gate_position', '0');
  await h.state('cover.gate', (s) => s.state === 'closed');
  await h.call('cover', 'open_cover', { entity_id: 'cover.gate' });
  t.same(await h.actions(1), [{ action: 'open_cover', this_id: 'cover.gate' }]);
});

t.test('a trigger-based cover renders when its trigger fires', async (t) => {
  const h = await startHarness(
    t,
    `
template:
  - triggers:
      - trigger: event
        event_type: garage_moved
    cover:
      - name: Triggered
        position: "{{ trigger.event.data.position }}"
        set_cover_position:${recorded('set_cover_position', ['position'])}
`,
  );
  t.equal((await h.state('cover.triggered')).state, 'unknown');
  h.hub.hub.core.bus.fire('garage_moved', { position: 35 }, h.hub.hub.core.newContext());
  const s = await h.state('cover.triggered', (s) => s.state === 'open');
  t.equal(s.attributes.current_position, 35);
});
