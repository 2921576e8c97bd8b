import t from 'tap';
import { bh1750Lux } from '../../../drivers/i2c/bh1750.js';
import { FakeI2cBus } from '../../fakes/fake-i2c-bus.js';
import { SimBh1750 } from '../../fakes/i2c-chips.js';
import { startI2c } from '../../fakes/i2c-harness.js';
import { waitForState } from '../../fakes/wait-state.js';

t.test('lux is the count divided by 1.2 (datasheet, H-resolution mode)', async (t) => {
  t.equal(bh1750Lux(1200), 1000);
  t.equal(bh1750Lux(0), 0);
  t.equal(bh1750Lux(0xffff), 54612.5);
});

t.test('a BH1750 powers on, measures continuously and reports illuminance', async (t) => {
  const chip = new SimBh1750();
  chip.count = 500;
  const bus = new FakeI2cBus(1).attach(0x23, chip);
  const { core } = await startI2c(t, 'devices: [{chip: bh1750, name: Porch, poll_interval: 0.1}]', bus);
  const lux = await waitForState(core, 'sensor.porch_illuminance', (s) => s.state !== 'unknown');
  t.equal(lux.state, '416.7');
  t.same(lux.attributes, {
    state_class: 'measurement',
    unit_of_measurement: 'lx',
    device_class: 'illuminance',
    friendly_name: 'Porch Illuminance',
  });
  t.same(chip.opcodes.slice(0, 2), [0x01, 0x10], 'power on, then continuous H-resolution mode');
  const device = core.devices.get(core.entities.get('sensor.porch_illuminance')?.deviceId ?? '');
  t.same([device?.manufacturer, device?.model], ['ROHM Semiconductor', 'BH1750FVI']);
  chip.count = 1200;
  await waitForState(core, 'sensor.porch_illuminance', (s) => s.state === '1000.0');
});

t.test('after a power cycle the chip is set up again once it answers', async (t) => {
  const chip = new SimBh1750();
  const bus = new FakeI2cBus(1).attach(0x23, chip);
  const { core } = await startI2c(t, 'devices: [{chip: bh1750, name: Porch, poll_interval: 0.1}]', bus);
  await waitForState(core, 'sensor.porch_illuminance', (s) => s.state === '1000.0');
  bus.nack(0x23);
  chip.powerCycle();
  await waitForState(core, 'sensor.porch_illuminance', (s) => s.state === 'unavailable');
  bus.heal(0x23);
  chip.count = 600;
  await waitForState(core, 'sensor.porch_illuminance', (s) => s.state === '500.0');
  t.same(chip.opcodes.slice(-2), [0x01, 0x10], 'powered on and measuring again');
});
