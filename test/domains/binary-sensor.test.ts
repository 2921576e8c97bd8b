import t from 'tap';
import { nextWait } from '../../drivers/virtual/binary-sensor.js';
import { seededRandom } from '../../drivers/virtual/index.js';
import { Core } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { addBinarySensor, binarySensorDomain } from '../../src/domains/binary-sensor.js';
import { nextEvent, setup, validate } from '../automation/helpers.js';

t.test('a binary sensor is on or off (never open/closed), with its device class', async (t) => {
  const core = new Core({ log: silentLogger });
  binarySensorDomain.registerServices(core);
  const door = addBinarySensor(core, { entityId: 'binary_sensor.front_door', owner: 'test', name: 'Front Door', deviceClass: 'door' });
  door.report(true);
  t.equal(core.states.get('binary_sensor.front_door')?.state, 'on');
  t.same(core.states.get('binary_sensor.front_door')?.attributes, { device_class: 'door', friendly_name: 'Front Door' });
  door.report(false);
  t.equal(core.states.get('binary_sensor.front_door')?.state, 'off');
  door.report(null);
  t.equal(core.states.get('binary_sensor.front_door')?.state, 'unknown');
  t.notOk(core.services.domains().includes('binary_sensor'), 'no services');
});

t.test('waits between trips are exponential around the mean and capped', async (t) => {
  const random = seededRandom(99);
  let sum = 0;
  let max = 0;
  const n = 5000;
  for (let i = 0; i < n; i++) {
    const w = nextWait(60, random);
    sum += w;
    max = Math.max(max, w);
  }
  t.ok(Math.abs(sum / n - 60) < 6, `mean ${sum / n} is about 60`);
  t.ok(max <= 600, 'never more than ten means');
  t.equal(
    nextWait(60, () => 0.999999999),
    600,
  );
});

t.test('a virtual motion sensor trips and then releases by itself', async (t) => {
  const { core } = await setup(
    t,
    `
virtual:
  - { platform: binary_sensor, id: hallway_motion, name: Hallway Motion, device_class: motion, mean_interval: 0.02, on_duration: 0.02 }
  - { platform: binary_sensor, id: front_door, name: Front Door, device_class: door, mean_interval: 0 }
`,
  );
  t.equal(core.states.get('binary_sensor.hallway_motion')?.state, 'off');
  const on = await nextEvent(
    core,
    'state_changed',
    (e) => e.data.entity_id === 'binary_sensor.hallway_motion' && e.data.new_state?.state === 'on',
  );
  t.equal(on.data.new_state?.attributes.device_class, 'motion');
  await nextEvent(core, 'state_changed', (e) => e.data.entity_id === 'binary_sensor.hallway_motion' && e.data.new_state?.state === 'off');
  t.equal(core.states.get('binary_sensor.front_door')?.state, 'off', 'mean_interval 0 never trips');
});

t.test('virtual binary sensor options are validated', async (t) => {
  const { parseVirtualSection } = await import('../../drivers/virtual/index.js');
  const issues: { path: readonly (string | number)[]; message: string }[] = [];
  parseVirtualSection(
    [
      { platform: 'binary_sensor', name: 'A', device_class: 'doorbell' },
      { platform: 'binary_sensor', name: 'B', mean_interval: 0.001, on_duration: -1 },
    ],
    ['virtual'],
    issues,
  );
  t.match(issues[0], {
    path: ['virtual', 0, 'device_class'],
    message: /"doorbell" is not allowed: expected one of battery, .*door, .*window/,
  });
  t.match(issues[1], { path: ['virtual', 1, 'mean_interval'], message: 'expected 0 (never trips) or at least 0.01 seconds' });
  t.match(issues[2], { path: ['virtual', 1, 'on_duration'], message: /expected a number from 0.01/ });
  t.same(validate('scene: []'), []);
});
