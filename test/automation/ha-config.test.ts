import { fileURLToPath } from 'node:url';
import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import type { State } from '../../src/core/state.js';
import { WsClient as Ws, type WsClient, type WsMessage } from '../api/ws/client.js';
import { startTestHub, type Teardown, type TestHub } from '../helpers/hub.js';
import { memoryLogger } from '../helpers/logger.js';
import { ManualScheduler } from '../helpers/manual-scheduler.js';

/**
 * A Home Assistant user's configuration directory (test/fixtures/ha-config: configuration.yaml with includes,
 * automations.yaml as the UI writes it, older hand-written automations, scripts with fields, helpers, template
 * entities, secrets) loaded into a hub and driven through one Wednesday in June on a manual clock. Sensors are
 * set over the REST API, as an outside integration would; what a user sees is read back through the API.
 */
const CONFIG = fileURLToPath(new URL('../fixtures/ha-config/configuration.yaml', import.meta.url));
const us = (iso: string) => Date.parse(iso) * 1000;

interface Day {
  readonly hub: TestHub;
  readonly clock: ManualClock;
  readonly ws: WsClient;
  /** Moves the clock (and the timers on it) forward in steps, letting automation runs progress between steps. */
  advance(ms: number, stepMs?: number): Promise<void>;
  /** Advances to a UTC instant. */
  advanceTo(iso: string, stepMs?: number): Promise<void>;
  state(entityId: string): Promise<State & { attributes: Record<string, unknown> }>;
  setState(entityId: string, state: string, attributes?: Record<string, unknown>): Promise<void>;
  call(domain: string, service: string, data: Record<string, unknown>): Promise<void>;
  problems(): string[];
  /** The household_notification events received so far. */
  readonly notifications: { title: unknown; message: unknown }[];
}

/** A few turns of the event loop: what an automation does after a timer is promises and socket writes. */
async function settle(): Promise<void> {
  for (let i = 0; i < 4; i++) await new Promise((resolve) => setImmediate(resolve));
}

async function startDay(t: Teardown): Promise<Day> {
  // 06:00 in Amsterdam (summer time) on Wednesday 10 June 2026.
  const clock = new ManualClock(us('2026-06-10T04:00:00Z'));
  const scheduler = new ManualScheduler(clock);
  const log = memoryLogger();
  const hub = await startTestHub(t, { configFile: CONFIG, clock, scheduler, log });
  const ws = await Ws.authenticated(hub.wsUrl, hub.token);
  t.teardown(() => ws.close());
  const sub = await ws.command('subscribe_events', { event_type: 'household_notification' });
  const notifications: { title: unknown; message: unknown }[] = [];
  ws.ws.on('message', (data: Buffer) => {
    const parsed = JSON.parse(data.toString('utf8')) as WsMessage | WsMessage[];
    for (const m of Array.isArray(parsed) ? parsed : [parsed]) {
      const event = m.event as { event_type?: string; data?: { title?: unknown; message?: unknown } } | undefined;
      if (m.type === 'event' && m.id === sub.id && event?.event_type === 'household_notification') {
        notifications.push({ title: event.data?.title, message: event.data?.message });
      }
    }
  });
  const advance = async (ms: number, stepMs = 1000) => {
    for (let left = ms; left > 0; left -= stepMs) {
      scheduler.advance(Math.min(stepMs, left));
      await settle();
    }
  };
  const day: Day = {
    // What the user would find in the log: anything the configuration logged as an error or a warning.
    problems: () =>
      log.entries
        .filter((e) => (e.level === 'error' || e.level === 'warn') && !e.msg.startsWith('The owner has no password'))
        .map((e) => e.msg),
    hub,
    clock,
    ws,
    notifications,
    advance,
    advanceTo: (iso, stepMs) => advance((us(iso) - clock.now()) / 1000, stepMs),
    async state(entityId) {
      const res = await hub.api(`/api/states/${entityId}`);
      if (res.status !== 200) throw new Error(`${entityId}: ${res.status}`);
      return (await res.json()) as State & { attributes: Record<string, unknown> };
    },
    async setState(entityId, state, attributes = {}) {
      const res = await hub.api(`/api/states/${entityId}`, { method: 'POST', body: JSON.stringify({ state, attributes }) });
      if (res.status >= 300) throw new Error(`${entityId}: ${res.status} ${await res.text()}`);
      await settle();
    },
    async call(domain, service, data) {
      const res = await hub.api(`/api/services/${domain}/${service}`, { method: 'POST', body: JSON.stringify(data) });
      if (res.status !== 200) throw new Error(`${domain}.${service}: ${res.status} ${await res.text()}`);
      await settle();
    },
  };
  return day;
}

t.test('the configuration loads: automations from both files, scripts, helpers and template entities', async (t) => {
  const day = await startDay(t);
  const ids = ((await (await day.hub.api('/api/states')).json()) as State[]).map((s) => s.entity_id);
  for (const id of [
    'automation.hallway_light_on_motion',
    'automation.wake_up_light_on_weekdays',
    'automation.porch_light_at_sunset',
    'automation.doorbell',
    'automation.too_warm_in_the_living_room',
    'script.good_night',
    'script.notify_all',
    'scene.evening',
    'input_boolean.guest_mode',
    'input_number.wake_up_brightness',
    'input_select.house_mode',
    'input_datetime.wake_up_time',
    'input_button.good_night',
    'counter.doorbell_rings',
    'timer.hallway_light',
    'sensor.lights_on',
    'sensor.temperature_above_comfort',
    'binary_sensor.anyone_moving',
    'sun.sun',
  ]) {
    t.ok(ids.includes(id), id);
  }
  t.equal((await day.state('input_select.house_mode')).state, 'Home');
  t.equal((await day.state('input_number.wake_up_brightness')).state, '60.0');
  t.equal((await day.state('input_datetime.wake_up_time')).state, '06:45:00');
  t.equal((await day.state('sensor.lights_on')).state, '0');
  t.equal((await day.state('automation.doorbell')).state, 'on');
  t.same(day.problems(), []);
});

t.test('a Wednesday in June: wake-up, motion, the doorbell, leaving, a warm afternoon, sunset, watering and good night', async (t) => {
  const day = await startDay(t);
  const { state } = day;

  // 06:45 local, the input_datetime's time: the bedroom light at the input_number's 60 %, coffee on.
  await day.advanceTo('2026-06-10T04:44:00Z', 60_000);
  t.equal((await state('light.bedroom')).state, 'off', 'not before the wake-up time');
  await day.advanceTo('2026-06-10T04:46:00Z');
  const bedroom = await state('light.bedroom');
  t.equal(bedroom.state, 'on', 'wake-up light at 06:45');
  t.equal(bedroom.attributes.brightness, 153, '60 % of 255, from the template reading input_number.wake_up_brightness');
  t.equal((await state('switch.coffee_maker')).state, 'on');
  t.equal((await state('automation.wake_up_light_on_weekdays')).attributes.last_triggered, '2026-06-10T04:45:00+00:00');
  t.equal((await state('sensor.lights_on')).state, '1', 'the template sensor counts the lights that are on');

  // The coffee maker switches itself off after an hour on (state trigger with for:).
  await day.advanceTo('2026-06-10T05:44:00Z', 60_000);
  t.equal((await state('switch.coffee_maker')).state, 'on');
  await day.advanceTo('2026-06-10T05:46:00Z');
  t.equal((await state('switch.coffee_maker')).state, 'off', 'off one hour after it came on');

  // Motion in the hallway: the light at 80 % and the timer (restarted by more motion) turns it off two minutes after.
  await day.setState('binary_sensor.hallway_motion', 'on', { device_class: 'motion' });
  t.equal((await state('light.hallway')).attributes.brightness, 204);
  t.equal((await state('timer.hallway_light')).state, 'active');
  t.equal((await state('binary_sensor.anyone_moving')).state, 'on');
  await day.setState('binary_sensor.hallway_motion', 'off', { device_class: 'motion' });
  await day.advance(90_000);
  await day.setState('binary_sensor.hallway_motion', 'on', { device_class: 'motion' });
  await day.setState('binary_sensor.hallway_motion', 'off', { device_class: 'motion' });
  await day.advance(90_000);
  t.equal((await state('light.hallway')).state, 'on', 'the second motion restarted the two minutes');
  await day.advance(31_000);
  t.equal((await state('timer.hallway_light')).state, 'idle');
  t.equal((await state('light.hallway')).state, 'off', 'off when timer.finished fired');

  // The doorbell while at home: counted, and the porch light flashes twice (repeat with delays).
  await day.setState('binary_sensor.doorbell', 'off');
  await day.setState('binary_sensor.doorbell', 'on');
  t.equal((await state('counter.doorbell_rings')).state, '1');
  t.equal((await state('light.porch')).state, 'on', 'first flash');
  await day.advance(1000);
  t.equal((await state('light.porch')).state, 'off');
  await day.advance(1000);
  t.equal((await state('light.porch')).state, 'on', 'second flash');
  await day.advance(2000);
  t.equal((await state('light.porch')).state, 'off');
  t.match((await state('sensor.last_doorbell')).state, /^2026-06-10T0\d:\d\d:\d\d/, 'the trigger-based template sensor took the time');
  await day.setState('binary_sensor.doorbell', 'off');

  // Leaving: every light off, and a ring while away is a notification instead.
  await day.call('light', 'turn_on', { entity_id: ['light.kitchen', 'light.living_room'] });
  await day.advanceTo('2026-06-10T07:30:00Z', 60_000);
  await day.call('input_select', 'select_option', { entity_id: 'input_select.house_mode', option: 'Away' });
  for (const light of ['light.kitchen', 'light.living_room', 'light.bedroom'])
    t.equal((await state(light)).state, 'off', `${light} off on leaving`);
  await day.setState('binary_sensor.doorbell', 'on');
  t.equal((await state('counter.doorbell_rings')).state, '2');
  t.same(day.notifications, [{ title: 'Doorbell', message: 'Someone rang at 09:30 while you were away' }], 'local time in the message');
  t.equal((await state('light.porch')).state, 'off', 'no flashing while away');
  await day.setState('binary_sensor.doorbell', 'off');

  // Home again in the afternoon; the living room warms above the comfort temperature for ten minutes.
  await day.advanceTo('2026-06-10T12:00:00Z', 60_000);
  await day.call('input_select', 'select_option', { entity_id: 'input_select.house_mode', option: 'Home' });
  await day.setState('sensor.living_room_temperature', '23.5', { unit_of_measurement: '°C', device_class: 'temperature' });
  t.equal((await state('sensor.temperature_above_comfort')).state, '-0.5');
  await day.setState('sensor.living_room_temperature', '26.2', { unit_of_measurement: '°C', device_class: 'temperature' });
  t.equal((await state('sensor.temperature_above_comfort')).state, '2.2');
  await day.advance(9 * 60_000, 60_000);
  t.equal(day.notifications.length, 1, 'not before ten minutes above');
  await day.advance(61_000);
  t.same(day.notifications[1], { title: 'Too warm', message: 'The living room is 26.2 °C' });

  // Sunset (from sun.sun): the porch light half an hour before it.
  const setting = Date.parse((await state('sun.sun')).attributes.next_setting as string);
  await day.advance(setting - 30 * 60_000 - day.clock.now() / 1000 - 60_000, 60_000);
  t.equal((await state('light.porch')).state, 'off');
  await day.advance(61_000);
  t.equal((await state('light.porch')).state, 'on', 'on at sunset - 00:30:00');
  t.equal((await state('light.porch')).attributes.brightness, 150);
  t.equal((await state('sun.sun')).state, 'above_horizon');
  await day.advance(31 * 60_000, 60_000);
  t.equal((await state('sun.sun')).state, 'below_horizon', 'sun.sun follows the hub clock');

  // The soil gets dry after sunset: five minutes dry, then the pump for a quarter of an hour.
  await day.advance(14 * 60_000, 60_000);
  await day.setState('sensor.soil_moisture', '35', { unit_of_measurement: '%' });
  await day.setState('sensor.soil_moisture', '18', { unit_of_measurement: '%' });
  await day.advance(4 * 60_000, 60_000);
  t.equal((await state('switch.garden_pump')).state, 'off', 'not before five minutes dry');
  await day.advance(61_000);
  t.equal((await state('switch.garden_pump')).state, 'on', 'the template trigger held for 00:05:00');
  await day.advance(15 * 60_000, 60_000);
  t.equal((await state('switch.garden_pump')).state, 'off', 'off after the delay');

  // Good night from the button: the script with its brightness field, then the wait for a quiet bedroom.
  await day.call('light', 'turn_on', { entity_id: ['light.living_room', 'light.hallway'] });
  await day.call('input_button', 'press', { entity_id: 'input_button.good_night' });
  t.equal((await state('light.living_room')).state, 'off');
  t.equal((await state('light.hallway')).state, 'off');
  t.equal((await state('light.bedroom')).attributes.brightness, 51, 'brightness field 20 from the automation');
  t.equal((await state('input_select.house_mode')).state, 'Night');
  t.equal((await state('script.good_night')).state, 'on', 'waiting for the bedroom to be quiet');
  await day.setState('binary_sensor.bedroom_motion', 'on', { device_class: 'motion' });
  await day.setState('binary_sensor.bedroom_motion', 'off', { device_class: 'motion' });
  await day.advance(5 * 60_000 + 1000, 60_000);
  t.equal((await state('light.bedroom')).state, 'off', 'off five minutes after the last motion');
  t.equal((await state('script.good_night')).state, 'off');
  t.same(day.notifications[2], { title: 'Good night', message: 'Bedroom quiet; still on: Porch' });

  // 23:59: the porch light goes off (guest mode is off).
  await day.advanceTo('2026-06-10T21:58:00Z', 60_000);
  t.equal((await state('light.porch')).state, 'on');
  await day.advanceTo('2026-06-10T22:00:00Z');
  t.equal((await state('light.porch')).state, 'off', 'off at 23:59');
  t.equal((await state('sensor.lights_on')).state, '0');

  // Good night again, and nobody moves in the bedroom: the wait times out after half an hour and the script goes on.
  await day.call('input_button', 'press', { entity_id: 'input_button.good_night' });
  t.equal((await state('light.bedroom')).state, 'on');
  await day.advance(29 * 60_000, 60_000);
  t.equal((await state('script.good_night')).state, 'on', 'still waiting');
  await day.advance(61_000);
  t.equal((await state('light.bedroom')).state, 'off');
  t.same(day.notifications[3], { title: 'Good night', message: 'Timed out; still on: nothing' });
  t.same(day.problems(), []);
});
