import t from 'tap';
import { RecordingLogger } from '../../fakes/recording-logger.js';
import { waitForState } from '../../fakes/wait-state.js';
import { startTestHub } from '../../helpers/hub.js';

const PORT = '/dev/serial/by-id/usb-hearth-test-not-plugged-in-if00-port0';
const YAML = `
hub:
  name: Test Home
serial:
  devices:
    - type: pms5003
      port: ${PORT}
      name: Hall Air
`;

t.test('with the real serialport, a port that is not there leaves the hub up and the sensor unavailable', async (t) => {
  const log = new RecordingLogger();
  const { hub, api } = await startTestHub(t, { yaml: YAML, log });
  const res = await api('/api/states/sensor.hall_air_pm25');
  t.equal(res.status, 200, 'the entity is served while the port is retried');
  const state = await waitForState(hub.core, 'sensor.hall_air_pm25', (s) => s.state === 'unavailable');
  t.equal(state.attributes.device_class, 'pm25');
  const warning = await log.waitFor('warn', `PMS5003 on ${PORT} is unavailable`);
  t.match(warning.obj.err, /cannot open the port: .*(No such file or directory|ENOENT)/);
  const device = [...hub.core.devices.all()].find((d) => d.name === 'Hall Air');
  t.same([device?.manufacturer, device?.model, device?.owner], ['Plantower', 'PMS5003', 'serial']);
});
