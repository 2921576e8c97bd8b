import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { parseConfigText } from '../../src/config/load.js';
import { ManualClock } from '../../src/core/clock.js';
import { SECTION_VALIDATORS } from '../../src/sections.js';
import { MINIMAL_CONFIG, startTestHub } from '../helpers/hub.js';
import { memoryLogger } from '../helpers/logger.js';
import { waitForState } from '../helpers/wait.js';

/** A configuration.yaml fragment as Home Assistant's template and automation documentation writes it. */
const CONFIG = `${MINIMAL_CONFIG}
template:
  - sensor:
      - name: "Average temperature"
        unique_id: average_temperature
        unit_of_measurement: "°C"
        device_class: temperature
        state_class: measurement
        state: >
          {% set bedroom = states('sensor.bedroom_temperature') | float %}
          {% set kitchen = states('sensor.kitchen_temperature') | float %}
          {{ ((bedroom + kitchen) / 2) | round(1, default=0) }}
        availability: "{{ has_value('sensor.bedroom_temperature') and has_value('sensor.kitchen_temperature') }}"
        icon: "{{ 'mdi:fire' if states('sensor.kitchen_temperature') | float(0) > 25 else 'mdi:thermometer' }}"
        attributes:
          sources: "{{ ['sensor.bedroom_temperature', 'sensor.kitchen_temperature'] }}"
      - name: "Broken"
        state: "{{ states('sensor.kitchen_temperature') | float / 0 }}"
    binary_sensor:
      - name: "Washing machine"
        state: "{{ states('sensor.washing_machine_power') | float(0) > 10 }}"
        delay_off:
          milliseconds: 300
        device_class: running
    switch:
      - name: "Coffee"
        state: "{{ is_state('switch.coffee_maker', 'on') }}"
        turn_on:
          action: switch.turn_on
          target:
            entity_id: switch.coffee_maker
        turn_off:
          - service: switch.turn_off
            entity_id: switch.coffee_maker
  - triggers:
      - trigger: event
        event_type: doorbell
    sensor:
      - name: "Last ring"
        state: "{{ trigger.event.data.where }}"
  - trigger:
      - platform: state
        entity_id: light.kitchen
    binary_sensor:
      - name: "Kitchen was on"
        state: "{{ trigger.to_state.state == 'on' }}"
automation:
  - alias: Hot kitchen
    triggers:
      - trigger: numeric_state
        entity_id: sensor.average_temperature
        above: 22
    actions:
      - action: light.turn_on
        target:
          entity_id: light.hallway
        data:
          brightness: "{{ (trigger.to_state.state | float * 10) | int }}"
`;

function setState(hub: Awaited<ReturnType<typeof startTestHub>>, entityId: string, state: string) {
  return hub.api(`/api/states/${entityId}`, { method: 'POST', body: JSON.stringify({ state }) });
}

t.test('template entities render, follow what they read, and drive automations', async (t) => {
  const log = memoryLogger();
  const clock = new ManualClock(Date.parse('2026-06-01T18:00:00Z') * 1000);
  const test = await startTestHub(t, { yaml: CONFIG, clock, log });
  const { core } = test.hub;
  t.equal(core.states.get('sensor.average_temperature')?.state, 'unavailable', 'availability false: unavailable');
  await setState(test, 'sensor.bedroom_temperature', '20');
  await setState(test, 'sensor.kitchen_temperature', '27');
  const avg = await waitForState(core, 'sensor.average_temperature', (s) => s.state === '23.5');
  t.same(
    { ...avg.attributes },
    {
      state_class: 'measurement',
      unit_of_measurement: '°C',
      device_class: 'temperature',
      friendly_name: 'Average temperature',
      icon: 'mdi:fire',
      sources: ['sensor.bedroom_temperature', 'sensor.kitchen_temperature'],
    },
  );
  const hallway = await waitForState(core, 'light.hallway', (s) => s.state === 'on');
  t.equal(hallway.attributes.brightness, 235, 'the automation read the template sensor through trigger.to_state');

  const response = await test.api('/api/states/sensor.broken');
  t.equal(((await response.json()) as { state: string }).state, 'unavailable', 'a render error: unavailable');
  await setState(test, 'sensor.kitchen_temperature', '28');
  await waitForState(core, 'sensor.average_temperature', (s) => s.state === '24.0');
  // It renders again on each change of what it read (27, then 28), failing the same way: logged once.
  t.equal(
    log.entries.filter((e) => e.level === 'error' && /sensor\.broken.*ZeroDivisionError/.test(e.msg)).length,
    1,
    'the error is logged once',
  );

  // Two changes in one turn: the sensor renders once, with both (no intermediate 19.0).
  const seen: string[] = [];
  core.bus.on('test', 'state_changed', (e) => {
    if (e.data.entity_id === 'sensor.average_temperature') seen.push(e.data.new_state?.state ?? '');
  });
  core.states.set('sensor.bedroom_temperature', '10');
  core.states.set('sensor.kitchen_temperature', '10');
  await waitForState(core, 'sensor.average_temperature', (s) => s.state === '10.0');
  t.same(seen, ['10.0'], 'coalesced: one render for the burst');
  core.bus.removeOwner('test');

  await setState(test, 'sensor.washing_machine_power', '120');
  await waitForState(core, 'binary_sensor.washing_machine', (s) => s.state === 'on');
  await setState(test, 'sensor.washing_machine_power', '0');
  t.equal(core.states.get('binary_sensor.washing_machine')?.state, 'on', 'delay_off holds on');
  await waitForState(core, 'binary_sensor.washing_machine', (s) => s.state === 'off');

  await test.api('/api/services/switch/turn_on', { method: 'POST', body: JSON.stringify({ entity_id: 'switch.coffee' }) });
  await waitForState(core, 'switch.coffee_maker', (s) => s.state === 'on');
  await waitForState(core, 'switch.coffee', (s) => s.state === 'on');
  await test.api('/api/services/switch/turn_off', { method: 'POST', body: JSON.stringify({ entity_id: 'switch.coffee' }) });
  await waitForState(core, 'switch.coffee', (s) => s.state === 'off');

  t.equal(core.states.get('sensor.last_ring')?.state, 'unknown', 'trigger-based: unknown until it fires');
  await test.api('/api/events/doorbell', { method: 'POST', body: JSON.stringify({ where: 'front' }) });
  await waitForState(core, 'sensor.last_ring', (s) => s.state === 'front');
  await test.api('/api/services/light/turn_on', { method: 'POST', body: JSON.stringify({ entity_id: 'light.kitchen' }) });
  await waitForState(core, 'binary_sensor.kitchen_was_on', (s) => s.state === 'on');
});

t.test('a refused template entity or template names the file, the line and the key', async (t) => {
  const yaml = `${MINIMAL_CONFIG}
template:
  - sensor:
      - name: No state
    weather:
      - name: Forecast
  - binary_sensor:
      - name: Bad
        state: "{{ states('x') | float > }}"
`;
  let message = '';
  try {
    parseConfigText(yaml, '/config/configuration.yaml', SECTION_VALIDATORS);
  } catch (err) {
    message = err instanceof Error ? err.message : String(err);
  }
  t.match(message, /configuration\.yaml:24:9: template\[0\]\.sensor\[0\]\.state.*is required/);
  t.match(message, /configuration\.yaml:25:5: template\[0\]\.weather.*hearth has no weather domain/);
  t.match(message, /configuration\.yaml:29:16: template\[1\]\.binary_sensor\[0\]\.state.*invalid template: TemplateSyntaxError/);
});

t.test(
  'after a restart: a trigger-based entity and an optimistic switch come back; a switch with a state template runs nothing',
  async (t) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'hearth-template-'));
    t.teardown(() => rm(dataDir, { recursive: true, force: true }));
    const yaml = `${MINIMAL_CONFIG}
template:
  - switch:
      - name: Guest mode
        turn_on: []
        turn_off: []
      - name: Coffee
        state: "{{ is_state('switch.coffee_maker', 'on') }}"
        turn_on: { action: switch.turn_on, target: { entity_id: switch.coffee_maker } }
        turn_off: { action: switch.turn_off, target: { entity_id: switch.coffee_maker } }
  - triggers:
      - trigger: event
        event_type: doorbell
    sensor:
      - name: Last ring
        state: "{{ trigger.event.data.where }}"
`;
    const first = await startTestHub({ teardown: () => undefined }, { yaml, dataDir });
    await first.api('/api/services/switch/turn_on', { method: 'POST', body: JSON.stringify({ entity_id: 'switch.guest_mode' }) });
    await first.api('/api/events/doorbell', { method: 'POST', body: JSON.stringify({ where: 'back' }) });
    await waitForState(first.hub.core, 'sensor.last_ring', (s) => s.state === 'back');
    await waitForState(first.hub.core, 'switch.guest_mode', (s) => s.state === 'on');
    await first.hub.stop();

    const second = await startTestHub(t, { yaml, dataDir });
    const { core } = second.hub;
    t.equal(core.states.get('sensor.last_ring')?.state, 'back');
    await waitForState(core, 'switch.guest_mode', (s) => s.state === 'on');
    t.equal(core.states.get('switch.coffee_maker')?.state, 'off', 'the coffee maker was not switched on by a restore');
    t.equal(core.states.get('switch.coffee')?.state, 'off');
  },
);
