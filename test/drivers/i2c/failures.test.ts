import t from 'tap';
import { parseI2cSection } from '../../../drivers/i2c/config.js';
import { I2cDriver } from '../../../drivers/i2c/index.js';
import { Core } from '../../../src/core/core.js';
import { addSensor } from '../../../src/domains/sensor.js';
import { FakeI2cBus } from '../../fakes/fake-i2c-bus.js';
import { SimBh1750, SimSht3x } from '../../fakes/i2c-chips.js';
import { startI2c } from '../../fakes/i2c-harness.js';
import { RecordingLogger } from '../../fakes/recording-logger.js';
import { recordStates, waitForState } from '../../fakes/wait-state.js';

const TWO_CHIPS = `
timeout_ms: 50
devices:
  - {chip: bh1750, address: 0x23, name: Porch, poll_interval: 0.1}
  - {chip: sht31, address: 0x44, name: Shed, poll_interval: 0.1}
`;

t.test('NACKs (EREMOTEIO) mark the chip unavailable, logged once, until it answers again', async (t) => {
  const bus = new FakeI2cBus(1).attach(0x23, new SimBh1750()).attach(0x44, new SimSht3x());
  const { core, log } = await startI2c(t, TWO_CHIPS, bus);
  await waitForState(core, 'sensor.porch_illuminance', (s) => s.state === '1000.0');
  await waitForState(core, 'sensor.shed_temperature', (s) => s.state === '21.5');
  const seen = recordStates(core, 'sensor.porch_illuminance', t);
  const shed = recordStates(core, 'sensor.shed_temperature', t);

  bus.nack(0x23);
  await waitForState(core, 'sensor.porch_illuminance', (s) => s.state === 'unavailable');
  await bus.afterTransfers(0x23, 9); // three failed polls of three attempts each (two retries)
  const warnings = log.matching('warn', 'BH1750FVI at i2c-1 0x23');
  t.equal(warnings.length, 1, 'the cause is logged once, not on every poll');
  t.match(warnings[0]?.obj.err, /^EREMOTEIO/);
  t.same(core.states.get('sensor.porch_illuminance')?.attributes, {
    state_class: 'measurement',
    unit_of_measurement: 'lx',
    device_class: 'illuminance',
    friendly_name: 'Porch Illuminance',
  });

  bus.heal(0x23);
  await waitForState(core, 'sensor.porch_illuminance', (s) => s.state === '1000.0');
  await log.waitFor('info', 'BH1750FVI at i2c-1 0x23 answers again');
  t.same(seen, ['unavailable', '1000.0']);
  t.same(shed, [], 'the other chip on the bus carried on');
});

t.test('a single NACK is absorbed by the retries', async (t) => {
  const bus = new FakeI2cBus(1).attach(0x23, new SimBh1750()).attach(0x44, new SimSht3x());
  const { core, log } = await startI2c(t, TWO_CHIPS, bus);
  await waitForState(core, 'sensor.porch_illuminance', (s) => s.state === '1000.0');
  const seen = recordStates(core, 'sensor.porch_illuminance', t);
  bus.nack(0x23, 1);
  await bus.afterTransfers(0x23, 4);
  t.same(seen, []);
  t.same(log.matching('warn', 'not answering'), []);
});

t.test('a transfer that hangs times out: unavailable, and back once the bus is free', async (t) => {
  const bus = new FakeI2cBus(1).attach(0x23, new SimBh1750()).attach(0x44, new SimSht3x());
  const { core, log } = await startI2c(t, TWO_CHIPS, bus);
  await waitForState(core, 'sensor.porch_illuminance', (s) => s.state === '1000.0');
  bus.hang(0x23);
  await waitForState(core, 'sensor.porch_illuminance', (s) => s.state === 'unavailable');
  const warning = await log.waitFor('warn', 'BH1750FVI at i2c-1 0x23');
  t.match(warning.obj.err, /ETIMEDOUT: i2c-1: transfer timed out after 50 ms/);
  // While the timed-out transfer still holds its thread, the bus takes no more: the other chip waits too.
  await waitForState(core, 'sensor.shed_temperature', (s) => s.state === 'unavailable');
  t.match((await log.waitFor('warn', 'SHT31 at i2c-1 0x44')).obj.err, /EBUSSTUCK/);
  bus.heal(0x23);
  await waitForState(core, 'sensor.porch_illuminance', (s) => s.state === '1000.0');
  await waitForState(core, 'sensor.shed_temperature', (s) => s.state === '21.5');
  t.equal(log.matching('warn', 'BH1750FVI at i2c-1 0x23').length, 1, 'logged once');
});

t.test('a missing bus (ENOENT on the first real read) leaves the chips unavailable and never blocks start', async (t) => {
  const bus = new FakeI2cBus(3).attach(0x23, new SimBh1750());
  bus.missing = true;
  const started = Date.now();
  const { core, log } = await startI2c(t, 'devices: [{chip: bh1750, bus: 3, name: Attic, poll_interval: 0.1}]', bus);
  t.ok(Date.now() - started < 1000, 'start() returned without waiting for the bus');
  t.equal(core.states.get('sensor.attic_illuminance')?.state, 'unknown', 'registered at once, unknown until read');
  await waitForState(core, 'sensor.attic_illuminance', (s) => s.state === 'unavailable');
  await bus.afterTransfers(0x23, 3);
  const warnings = log.matching('warn', 'BH1750FVI at i2c-3 0x23');
  t.equal(warnings.length, 1);
  t.match(warnings[0]?.obj.err, /ENOENT: no such file or directory, open '\/dev\/i2c-3'/);
  bus.missing = false;
  await waitForState(core, 'sensor.attic_illuminance', (s) => s.state === '1000.0');
});

t.test('a bus that cannot be opened at all (i2c-bus not installed) is a failure like any other', async (t) => {
  const log = new RecordingLogger();
  const core = new Core({ log });
  const config = parseI2cSection({ devices: [{ chip: 'bh1750', name: 'Attic' }] }, ['i2c'], []);
  let opens = 0;
  let thirdOpen: () => void = () => {};
  const retried = new Promise<void>((resolve, reject) => {
    thirdOpen = resolve;
    setTimeout(() => reject(new Error('the bus was not tried again')), 3000).unref();
  });
  const driver = new I2cDriver({ core, log, owner: 'i2c', dataDir: '' }, config, {
    openBus: async () => {
      if (++opens === 3) thirdOpen();
      throw Object.assign(new Error('the i2c-bus package is not available'), { code: 'ENOPKG' });
    },
    backoff: { initialMs: 10, maxMs: 20 },
  });
  await driver.start();
  t.teardown(() => driver.stop());
  await waitForState(core, 'sensor.attic_illuminance', (s) => s.state === 'unavailable');
  t.match((await log.waitFor('warn', 'not answering')).obj.err, /ENOPKG/);
  await retried;
  t.equal(log.matching('warn', 'not answering').length, 1);
});

t.test('a chip whose entity id another driver already has gets the next free _2 id, as in Home Assistant', async (t) => {
  const bus = new FakeI2cBus(1).attach(0x23, new SimBh1750()).attach(0x44, new SimSht3x());
  const { core, log } = await startI2c(t, TWO_CHIPS, bus, (c) => {
    addSensor(c, { entityId: 'sensor.shed_humidity', owner: 'virtual', name: 'Taken' });
  });
  await waitForState(core, 'sensor.shed_humidity_2', (s) => s.state !== 'unknown');
  t.equal(core.entities.get('sensor.shed_humidity')?.owner, 'virtual', 'the other driver keeps its entity');
  t.ok(core.entities.get('sensor.shed_temperature'), 'the rest of the chip is there');
  await waitForState(core, 'sensor.porch_illuminance', (s) => s.state === '1000.0');
  t.same(log.matching('error', 'not added'), []);
});

t.test('a chip whose unique id is already live (a duplicate) is refused with one line, without leftovers; the others run', async (t) => {
  const bus = new FakeI2cBus(1).attach(0x23, new SimBh1750()).attach(0x44, new SimSht3x());
  const { core, log } = await startI2c(t, TWO_CHIPS, bus, (c) => {
    addSensor(c, { entityId: 'sensor.shed_humidity', owner: 'i2c', uniqueId: 'i2c-1-0x44-humidity', name: 'Same' });
  });
  t.match((await log.waitFor('error', 'not added')).msg, /SHT31 i2c-1-0x44 not added: Platform i2c does not generate unique IDs/);
  t.equal(core.entities.get('sensor.shed_temperature'), undefined, 'the half-registered chip was undone');
  t.notOk(
    [...core.devices.all()].some((d) => d.model === 'SHT31'),
    'and its device',
  );
  await waitForState(core, 'sensor.porch_illuminance', (s) => s.state === '1000.0');
  t.equal(log.matching('error', 'not added').length, 1, 'one line');
});
