import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import { EventBus, type HubEvent } from '../../src/core/event-bus.js';
import { StateTable } from '../../src/core/state-table.js';

function setup(capacity = 4) {
  const clock = new ManualClock();
  const bus = new EventBus(clock);
  const table = new StateTable(capacity, bus, clock);
  const events: HubEvent<'state_changed'>[] = [];
  bus.on('test', 'state_changed', (e) => events.push(e));
  return { clock, bus, table, events };
}

t.test('a new entity fires state_changed with old_state null', async (t) => {
  const { table, events } = setup();
  table.set('light.kitchen', 'on', { brightness: 10 });
  t.equal(events.length, 1);
  t.equal(events[0]?.data.old_state, null);
  t.equal(events[0]?.data.new_state?.state, 'on');
});
