import t from 'tap';
import { RecordingLogger } from '../../fakes/recording-logger.js';
import { waitForState } from '../../fakes/wait-state.js';
import { startTestHub } from '../../helpers/hub.js';

const YAML = `
hub:
  name: Test Home
i2c:
  devices:
    - chip: bme280
      bus: 99
      address: 0x76
      name: Nowhere
`;

t.test('with the real i2c-bus (or without it), a bus that does not exist leaves the hub up and the chip unavailable', async (t) => {
  const log = new RecordingLogger();
  const { hub, api } = await startTestHub(t, { yaml: YAML, log });
  const res = await api('/api/states/sensor.nowhere_temperature');
  t.equal(res.status, 200, 'the entity is served while the driver retries');
  const state = await waitForState(hub.core, 'sensor.nowhere_temperature', (s) => s.state === 'unavailable');
  t.equal(state.attributes.unit_of_measurement, '°C');
  const warning = await log.waitFor('warn', 'BME280 at i2c-99 0x76 is not answering');
  // ENOENT from i2c-bus opening /dev/i2c-99 per transfer, or ENOPKG when the optional package is absent.
  t.match(warning.obj.err, /^(ENOENT: .*\/dev\/i2c-99|ENOPKG: )/);
  const device = [...hub.core.devices.all()].find((d) => d.name === 'Nowhere');
  t.same([device?.manufacturer, device?.model, device?.owner], ['Bosch Sensortec', 'BME280', 'i2c']);
});
