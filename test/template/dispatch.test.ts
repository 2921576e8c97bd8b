import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import { EventBus } from '../../src/core/event-bus.js';
import { StateTable } from '../../src/core/state-table.js';
import { type ChangeHandler, RenderInfo, TemplateDispatch } from '../../src/template/index.js';

function reads(entities: string[], domains: string[] = [], all = false): RenderInfo {
  const info = new RenderInfo();
  for (const e of entities) info.entity(e);
  for (const d of domains) info.domain(d);
  info.all = all;
  return info;
}

function setup() {
  const clock = new ManualClock();
  const bus = new EventBus(clock);
  const states = new StateTable(64, bus, clock);
  const dispatch = new TemplateDispatch(bus, 'test', (err) => {
    throw err;
  });
  const heard: string[] = [];
  const handler =
    (name: string): ChangeHandler =>
    (e) =>
      heard.push(`${name}:${e.data.entity_id}`);
  const listeners = () => bus.listenerCounts().find((c) => c.event === 'state_changed')?.listener_count ?? 0;
  return { states, dispatch, heard, handler, listeners };
}

t.test('a change reaches the templates that read the entity, its domain or everything, each once', async (t) => {
  const { states, dispatch, heard, handler, listeners } = setup();
  const one = handler('one');
  const lights = handler('lights');
  const all = handler('all');
  dispatch.track(one, reads(['sensor.a', 'light.x']));
  dispatch.track(lights, reads(['light.x'], ['light']));
  dispatch.track(all, reads([], [], true));
  t.equal(listeners(), 1, 'one bus listener for them all');
  states.set('sensor.a', '1');
  states.set('light.x', 'on');
  states.set('light.y', 'on');
  states.set('switch.z', 'on');
  t.same(heard, [
    'one:sensor.a',
    'all:sensor.a',
    'one:light.x',
    'lights:light.x',
    'all:light.x',
    'lights:light.y',
    'all:light.y',
    'all:switch.z',
  ]);
});

t.test('re-tracking replaces what a template listens to; untracking the last one leaves the bus', async (t) => {
  const { states, dispatch, heard, handler, listeners } = setup();
  const h = handler('h');
  dispatch.track(h, reads(['sensor.a']));
  dispatch.track(h, reads(['sensor.b']));
  states.set('sensor.a', '1');
  states.set('sensor.b', '1');
  t.same(heard, ['h:sensor.b']);
  dispatch.untrack(h);
  t.equal(listeners(), 0);
  states.set('sensor.b', '2');
  t.same(heard, ['h:sensor.b']);
  dispatch.track(h, reads(['sensor.b']));
  states.set('sensor.b', '3');
  t.same(heard, ['h:sensor.b', 'h:sensor.b'], 'listening again after a new track');
});

t.test('a template stopped by another during a change is not called', async (t) => {
  const { states, dispatch, heard, handler } = setup();
  const second = handler('second');
  const first: ChangeHandler = (e) => {
    heard.push(`first:${e.data.entity_id}`);
    dispatch.untrack(second);
  };
  dispatch.track(first, reads(['sensor.a']));
  dispatch.track(second, reads(['sensor.a']));
  states.set('sensor.a', '1');
  t.same(heard, ['first:sensor.a']);
});
