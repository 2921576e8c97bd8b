import t from 'tap';
import { startTestHub } from '../helpers/hub.js';
import { stateBecomes, validate } from './helpers.js';

/** The sensors, automations, scripts and scenes of the bundled demo (config/demo.yaml). */
export const DEMO_SECTIONS = `
automation:
  - id: hallway_motion_light
    alias: Hallway light follows motion
    description: On while someone moves in the hallway, off after 30 s without motion.
    mode: restart
    triggers:
      - trigger: state
        entity_id: binary_sensor.hallway_motion
        to: "on"
    actions:
      - action: light.turn_on
        target: { entity_id: light.hallway }
        data: { brightness: 180 }
      - wait_for_trigger:
          - trigger: state
            entity_id: binary_sensor.hallway_motion
            to: "off"
            for: { seconds: 30 }
      - action: light.turn_off
        target: { entity_id: light.hallway }
  - id: front_door_evening_light
    alias: Light when the front door opens in the evening
    triggers:
      - trigger: state
        entity_id: binary_sensor.front_door
        from: "off"
        to: "on"
    conditions:
      - condition: time
        after: "17:00"
        before: "23:30"
      - condition: state
        entity_id: light.living_room
        state: "off"
    actions:
      - action: light.turn_on
        target: { entity_id: light.living_room }
        data: { brightness_pct: 60 }
  - id: power_guard
    alias: Switch the coffee maker off when the house draws too much
    triggers:
      - trigger: numeric_state
        entity_id: sensor.house_power
        above: 3000
        for: { seconds: 10 }
    conditions:
      - condition: state
        entity_id: switch.coffee_maker
        state: "on"
    actions:
      - action: switch.turn_off
        target: { entity_id: switch.coffee_maker }
      - event: hearth_power_alert
        event_data: { reason: house power above 3000 W }
  - id: weekday_coffee
    alias: Coffee on weekday mornings
    triggers:
      - trigger: time
        at: "06:45:00"
    conditions:
      - condition: time
        weekday: [mon, tue, wed, thu, fri]
    actions:
      - action: switch.turn_on
        target: { entity_id: switch.coffee_maker }
  - id: bedtime
    alias: Good night at half past eleven
    triggers:
      - trigger: time
        at: "23:30"
    actions:
      - action: script.turn_on
        target: { entity_id: script.good_night }

script:
  good_night:
    alias: Good night
    icon: mdi:weather-night
    description: Turns the house off, locks the front door, and leaves the bedroom light on for a minute.
    mode: single
    sequence:
      - action: light.turn_on
        target: { entity_id: light.bedroom }
        data: { brightness: 60 }
      - action: light.turn_off
        target: { entity_id: [light.living_room, light.kitchen, light.hallway] }
      - action: switch.turn_off
        target: { entity_id: switch.coffee_maker }
      - action: cover.close_cover
        target: { entity_id: cover.living_room_blinds }
      - action: lock.lock
        target: { entity_id: lock.front_door }
        data: { code: "2468" }
        continue_on_error: true
      - delay: { minutes: 1 }
      - action: light.turn_off
        target: { entity_id: light.bedroom }

scene:
  - id: movie_time
    name: Movie time
    icon: mdi:movie-open
    entities:
      light.living_room: { state: "on", brightness: 50, color_mode: color_temp, color_temp_kelvin: 2700 }
      light.kitchen: "off"
      light.hallway: "off"
      cover.living_room_blinds: closed
      media_player.living_room: playing
  - id: bright_day
    name: Bright day
    icon: mdi:white-balance-sunny
    entities:
      light.living_room: { state: "on", brightness: 255, color_mode: color_temp, color_temp_kelvin: 5000 }
      cover.living_room_blinds: open
      climate.living_room: { state: heat, temperature: 21 }
`;

export const DEMO_VIRTUAL_ITEMS = `
  - platform: sensor
    id: outdoor_temperature
    name: Outdoor Temperature
    device_class: temperature
    min: 4
    max: 17
    step: 0.2
    interval: 30
  - platform: sensor
    id: living_room_temperature
    name: Living Room Temperature
    device_class: temperature
    min: 19.5
    max: 22.5
    step: 0.1
    interval: 20
  - platform: sensor
    id: living_room_humidity
    name: Living Room Humidity
    device_class: humidity
    min: 38
    max: 55
    interval: 45
  - platform: sensor
    id: house_power
    name: House Power
    device_class: power
    min: 150
    max: 3400
    step: 180
    interval: 5
  - platform: binary_sensor
    id: hallway_motion
    name: Hallway Motion
    device_class: motion
    mean_interval: 60
    on_duration: 10
  - platform: binary_sensor
    id: front_door
    name: Front Door
    device_class: door
    mean_interval: 900
    on_duration: 20
`;

const HUB = `
hub:
  name: Demo Test
  time_zone: Europe/Amsterdam
virtual:
  - { platform: light, id: living_room, name: Living Room, color_modes: [hs, color_temp] }
  - { platform: light, id: kitchen, name: Kitchen, color_modes: [color_temp] }
  - { platform: light, id: bedroom, name: Bedroom, color_modes: [brightness] }
  - { platform: light, id: hallway, name: Hallway, color_modes: [brightness] }
  - { platform: switch, id: coffee_maker, name: Coffee Maker, device_class: outlet }
  - { platform: cover, id: living_room_blinds, name: Living Room Blinds, device_class: blind, travel_time: 0.05 }
  - { platform: lock, id: front_door, name: Front Door, code: "2468", transition_time: 0, initial: unlocked }
  - { platform: media_player, id: living_room, name: Living Room Speaker }
  - { platform: climate, id: living_room, name: Living Room Thermostat }
${DEMO_VIRTUAL_ITEMS}
${DEMO_SECTIONS}
`;

t.test('the demo automations, script and scenes validate', async (t) => {
  t.same(validate(DEMO_SECTIONS), []);
});

t.test('in a running hub: entities, per-script services, a scene and the good_night script', async (t) => {
  const { hub } = await startTestHub(t, { yaml: HUB });
  const { core } = hub;
  for (const id of [
    'sensor.outdoor_temperature',
    'sensor.house_power',
    'binary_sensor.hallway_motion',
    'binary_sensor.front_door',
    'automation.hallway_light_follows_motion',
    'automation.good_night_at_half_past_eleven',
    'script.good_night',
    'scene.movie_time',
  ]) {
    t.ok(core.states.has(id), id);
  }
  t.equal(core.states.get('sensor.outdoor_temperature')?.attributes.unit_of_measurement, '°C');
  t.ok(core.services.has('script', 'good_night'));

  await core.services.call('scene', 'turn_on', { entity_id: 'scene.movie_time' });
  t.equal(core.states.get('light.living_room')?.attributes.brightness, 50);

  await core.services.call('script', 'turn_on', { entity_id: 'script.good_night' });
  t.equal(core.states.get('script.good_night')?.state, 'on');
  await stateBecomes(core, 'lock.front_door', 'locked', 3000);
  t.equal(core.states.get('light.living_room')?.state, 'off');
  t.equal(core.states.get('light.bedroom')?.state, 'on', 'the bedroom light waits for the delay');
  await core.services.call('script', 'turn_off', { entity_id: 'script.good_night' });
});
