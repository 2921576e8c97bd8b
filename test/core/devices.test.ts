import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import { DeviceRegistry } from '../../src/core/devices.js';
import { EventBus } from '../../src/core/event-bus.js';

function registry(): DeviceRegistry {
  const clock = new ManualClock();
  return new DeviceRegistry(new EventBus(clock), clock);
}

t.test('createdWhile names the devices a failed unit created, not those it updated or that came before', async (t) => {
  const devices = registry();
  devices.register({ identifiers: [['virtual', 'old']], name: 'Old', owner: 'virtual' });
  const seen: string[][] = [];
  const result = devices.createdWhile(
    () => {
      devices.register({ identifiers: [['virtual', 'old']], name: 'Old, renamed', owner: 'virtual' });
      devices.register({ identifiers: [['virtual', 'new']], name: 'New', owner: 'virtual' });
      throw new Error('the chip did not answer');
    },
    (created, err) => {
      seen.push([...created]);
      t.match(err, { message: 'the chip did not answer' });
      return 'refused';
    },
  );
  t.equal(result, 'refused');
  t.same(seen, [[devices.byIdentifierOf(['virtual', 'new'])?.id]]);
  // Nothing is tracked after the call: a later registration is nobody's.
  t.equal(
    devices.createdWhile(
      () => 'added',
      () => 'refused',
    ),
    'added',
  );
  devices.register({ identifiers: [['virtual', 'later']], name: 'Later', owner: 'virtual' });
  t.equal([...devices.all()].length, 3);
});

t.test('createdWhile inside createdWhile: each call sees what was created in its own span', async (t) => {
  const devices = registry();
  let inner: readonly string[] = [];
  let outer: readonly string[] = [];
  devices.createdWhile(
    () => {
      devices.register({ identifiers: [['x', 'a']], name: 'A', owner: 'x' });
      devices.createdWhile(
        () => {
          devices.register({ identifiers: [['x', 'b']], name: 'B', owner: 'x' });
          throw new Error('inner');
        },
        (created) => {
          inner = created;
        },
      );
      throw new Error('outer');
    },
    (created) => {
      outer = created;
    },
  );
  t.same(inner, [devices.byIdentifierOf(['x', 'b'])?.id]);
  t.same(outer, [devices.byIdentifierOf(['x', 'a'])?.id, devices.byIdentifierOf(['x', 'b'])?.id]);
});
