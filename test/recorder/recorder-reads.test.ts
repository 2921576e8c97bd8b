import t from 'tap';
import { parseRecorderSection } from '../../src/recorder/config.js';
import { tempDir } from '../storage/helpers.js';
import { feed, HOUR, history, MIN, rig, S, START } from './recorder-rig.js';

/** What the recorder gives back: states in order with their attributes, times and contexts, and events. */

t.test('records state changes and reads them back in order, with the state in force at the start', async (t) => {
  const r = await rig(t, await tempDir(t));
  feed(r);
  const all = history(r.recorder, 'sensor.temp', START, START + HOUR);
  t.equal(all.length, 20);
  t.same(
    all[0],
    { s: '20.0', a: '{"unit_of_measurement":"°C","state_class":"measurement"}', lc: START, lu: START },
    'numeric state and attributes',
  );
  t.same(all.map((p) => p.s).slice(0, 4), ['20.0', '20.1', '20.2', '20.3'], 'numbers come back as the same text');
  const sw = history(r.recorder, 'switch.heater', START, START + HOUR);
  t.same(
    sw.map((p) => [p.s, p.user]),
    [
      ['on', 'user-1'],
      ['off', 'user-1'],
      ['on', 'user-1'],
      ['off', 'user-1'],
    ],
    'discrete entities keep their context for the logbook',
  );
  const window = history(r.recorder, 'sensor.temp', START + 5 * MIN + 1, START + 7 * MIN, true);
  t.same(
    window.map((p) => p.s),
    ['20.5', '20.6'],
    'the state in force at the start comes first, then the changes within',
  );
  t.same(
    history(r.recorder, 'sensor.temp', START + 30 * MIN, START + HOUR, true).map((p) => p.s),
    ['21.9'],
    'no change within: just the state in force',
  );
  t.same(history(r.recorder, 'sensor.temp', START - HOUR, START, true), [], 'nothing before the first change');
  t.same(r.recorder.entitiesDuring(START, START + HOUR).sort(), ['sensor.temp', 'switch.heater']);
});

t.test('attribute-only updates keep last_changed; text and odd numbers round-trip exactly', async (t) => {
  const r = await rig(t, await tempDir(t));
  const { core, clock } = r;
  const states = ['on', '-0', '007', '1e5', '-12.500', '0.000001', '123456789', 'unavailable', 'ünïcode', ''];
  for (const s of states) {
    core.states.set('sensor.odd', s, { n: 1 });
    clock.advance(S);
  }
  core.states.set('sensor.odd', '', { n: 2 });
  t.same(
    history(r.recorder, 'sensor.odd', START, START + HOUR).map((p) => p.s),
    [...states, ''],
  );
  const last = history(r.recorder, 'sensor.odd', START, START + HOUR).at(-1);
  t.same([last?.a, last?.lc, last?.lu], ['{"n":2}', START + 9 * S, START + 10 * S], 'attributes changed, last_changed kept');
});

t.test('a clock that jumps back: points keep their order, stamped no earlier than the one before', async (t) => {
  const r = await rig(t, await tempDir(t));
  r.core.states.set('sensor.x', '1');
  r.clock.advance(-10 * MIN);
  r.core.states.set('sensor.x', '2');
  t.same(
    history(r.recorder, 'sensor.x', 0, START + HOUR).map((p) => [p.s, p.lu]),
    [
      ['1', START],
      ['2', START],
    ],
  );
});

t.test('events are recorded with their context; excluded event types are not', async (t) => {
  const config = parseRecorderSection({ exclude: { event_types: ['noisy_event'] } }, ['recorder'], []);
  const r = await rig(t, await tempDir(t), { config });
  const ctx = r.core.newContext('user-9');
  r.core.bus.fire('automation_triggered', { name: 'Lights', entity_id: 'automation.lights' }, ctx);
  r.core.bus.fire('noisy_event', {}, ctx);
  const seen: [string, string, string | null][] = [];
  r.recorder.forEachEvent(START, START + HOUR, (type, data, _t, c) => seen.push([type, data, c.user_id]));
  t.same(seen, [['automation_triggered', '{"name":"Lights","entity_id":"automation.lights"}', 'user-9']]);
});
