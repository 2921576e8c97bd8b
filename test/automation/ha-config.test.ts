import { fileURLToPath } from 'node:url';
import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import type { State } from '../../src/core/state.js';
import { WsClient as Ws, type WsClient, type WsMessage } from '../api/ws-client.js';
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
