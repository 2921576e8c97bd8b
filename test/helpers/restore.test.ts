import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import type { JsonObject } from '../../src/core/json.js';
import { MINIMAL_CONFIG, startTestHub, type Teardown } from './hub.js';
import { ManualScheduler } from './manual-scheduler.js';
import { waitForState } from './wait.js';

const T0 = Date.UTC(2026, 0, 15, 6, 0, 0) * 1000;
const MINUTE = 60_000_000;

const YAML = `${MINIMAL_CONFIG}
input_boolean:
  away: {name: Away}
input_number:
  target: {name: Target, min: 15, max: 25, step: 0.5}
  fixed: {name: Fixed, min: 0, max: 10, initial: 3}
input_select:
  mode: {options: [Home, Away, Night]}
input_text:
  note: {name: Note}
input_datetime:
  wake: {has_date: true, has_time: true}
input_button:
  bell: {}
counter:
  visits: {}
  forgetful: {restore: false}
timer:
  tea: {duration: "0:10:00", restore: true}
  plain: {duration: "0:10:00"}
  laundry: {duration: "1:00:00", restore: true}
  paused: {duration: "0:20:00", restore: true}
`;

const AUTOMATION = `
automation:
  - id: tea_ready
    triggers: [{trigger: event, event_type: timer.finished, event_data: {entity_id: timer.tea}}]
    actions: [{action: counter.increment, target: {entity_id: counter.forgetful}}]
`;

async function hubAt(t: Teardown, dataDir: string, at: number) {
  const clock = new ManualClock(at);
  const scheduler = new ManualScheduler(clock);
  const th = await startTestHub(t, { yaml: YAML + AUTOMATION, dataDir, clock, scheduler });
  const core = th.hub.core;
  const call = (domain: string, service: string, entityId: string, data: JsonObject = {}) =>
    core.services.call(domain, service, { entity_id: entityId, ...data });
  return { th, core, clock, scheduler, call };
}

t.test('values, counts and running timers come back after a restart', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-helpers-restore-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));

  const first = await hubAt(t, dataDir, T0);
  await first.call('input_boolean', 'turn_on', 'input_boolean.away');
  await first.call('input_number', 'set_value', 'input_number.target', { value: 21.5 });
  await first.call('input_number', 'set_value', 'input_number.fixed', { value: 7 });
  await first.call('input_select', 'select_option', 'input_select.mode', { option: 'Night' });
  await first.call('input_text', 'set_value', 'input_text.note', { value: 'milk' });
  await first.call('input_datetime', 'set_datetime', 'input_datetime.wake', { datetime: '2026-01-16 06:45:00' });
  await first.call('input_button', 'press', 'input_button.bell');
  for (let i = 0; i < 3; i++) await first.call('counter', 'increment', 'counter.visits');
  await first.call('counter', 'increment', 'counter.forgetful');
  await first.call('timer', 'start', 'timer.tea');
  await first.call('timer', 'start', 'timer.plain');
  await first.call('timer', 'start', 'timer.laundry');
  await first.call('timer', 'start', 'timer.paused');
  first.scheduler.advance(2 * 60_000);
  await first.call('timer', 'pause', 'timer.paused');
  await first.th.hub.stop();

  // 5 minutes later: the tea timer (10 min from T0) has 3 minutes left, the laundry 55.
  const second = await hubAt(t, dataDir, T0 + 7 * MINUTE);
  const { core } = second;
  const settled = (id: string) => waitForState(core, id, (s) => s.attributes.restored === undefined && s.state !== 'unknown');
  t.equal((await settled('input_boolean.away')).state, 'on');
  t.equal((await settled('input_number.target')).state, '21.5');
  t.equal((await settled('input_number.fixed')).state, '3.0', 'an initial wins over the stored value, as in Home Assistant');
  t.equal((await settled('input_select.mode')).state, 'Night');
  t.equal((await settled('input_text.note')).state, 'milk');
  const wake = await settled('input_datetime.wake');
  t.equal(wake.state, '2026-01-16 06:45:00');
  t.equal(wake.attributes.timestamp, Date.UTC(2026, 0, 16, 5, 45) / 1000);
  t.equal((await settled('input_button.bell')).state, '2026-01-15T06:00:00+00:00');
  t.equal((await settled('counter.visits')).state, '3');
  t.equal((await settled('counter.forgetful')).state, '0', 'restore: false starts again at initial');
  t.equal(core.states.get('timer.plain')?.state, 'idle', "a timer without restore: true starts idle (Home Assistant's default)");
  const tea = await waitForState(core, 'timer.tea', (s) => s.state === 'active' && s.attributes.restored === undefined);
  t.equal(tea.attributes.finishes_at, '2026-01-15T06:10:00+00:00', 'keeps its end');
  t.equal(tea.attributes.remaining, '0:03:00');
  const paused = await waitForState(core, 'timer.paused', (s) => s.attributes.restored === undefined);
  t.equal(paused.state, 'paused');
  t.equal(paused.attributes.remaining, '0:18:00', 'a paused timer keeps what was left');

  const finished: JsonObject[] = [];
  core.bus.on('test', 'timer.finished', (e) => finished.push(e.data as JsonObject));
  second.scheduler.advance(3 * 60_000 - 1000);
  t.equal(core.states.get('timer.tea')?.state, 'active');
  second.scheduler.advance(1000);
  t.equal(core.states.get('timer.tea')?.state, 'idle', 'finishes at its end');
  t.same(finished, [{ entity_id: 'timer.tea', finished_at: '2026-01-15T06:10:00+00:00' }]);
  await waitForState(core, 'counter.forgetful', (s) => s.state === '1');
  t.pass('the automation waiting for timer.finished ran');
  await second.th.hub.stop();

  // Two hours later: the laundry ended while the hub was down.
  const third = await hubAt(t, dataDir, T0 + 120 * MINUTE);
  const laundry = await waitForState(third.core, 'timer.laundry', (s) => s.state === 'idle' && s.attributes.restored === undefined);
  t.notOk(laundry.attributes.finishes_at, 'finished at the start');
  t.equal(third.core.states.get('timer.paused')?.state, 'paused', 'a paused timer stays paused however long');
  await third.th.hub.stop();
});

t.test('a timer that ended during the restart fires timer.finished once the hub runs, for automations', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-helpers-restore-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const first = await hubAt(t, dataDir, T0);
  await first.call('timer', 'start', 'timer.tea');
  await first.th.hub.stop();
  const second = await hubAt(t, dataDir, T0 + 30 * MINUTE);
  const counter = await waitForState(second.core, 'counter.forgetful', (s) => s.state === '1');
  t.equal(counter.state, '1', 'the automation on timer.finished ran after the restart');
  t.equal(second.core.states.get('timer.tea')?.state, 'idle');
});
