import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { startTestHub } from '../../helpers/hub.js';
import { waitForState } from './helpers.js';

t.test('a Pi without GPIO sysfs or 1-Wire: the hub starts at once, the API answers, the entities are unavailable', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'hearth-nohw-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const yaml = `
hub:
  name: No hardware
gpio:
  sysfs_root: ${root}
  devices:
    - name: Relay board
      invert_logic: true
      switches:
        - {pin: 17, name: Pump}
      binary_sensors:
        - {pin: 24, name: Motion, device_class: motion}
onewire:
  base_path: ${join(root, 'w1')}
  sensors:
    - {id: 28-0316a2791fff, name: Greenhouse}
`;
  const started = performance.now();
  const { hub, api } = await startTestHub(t, { yaml });
  t.ok(performance.now() - started < 5000, 'start() did not wait on the hardware');
  t.equal(hub.core.runState, 'RUNNING');
  await waitForState(hub.core, 'switch.pump', (s) => s.state === 'unavailable');
  await waitForState(hub.core, 'sensor.greenhouse', (s) => s.state === 'unavailable');

  const res = await api('/api/states/switch.pump');
  t.equal(res.status, 200);
  t.match(await res.json(), { entity_id: 'switch.pump', state: 'unavailable', attributes: { friendly_name: 'Pump' } });
  const sensor = await (await api('/api/states/sensor.greenhouse')).json();
  t.match(sensor, { state: 'unavailable', attributes: { unit_of_measurement: '°C', device_class: 'temperature' } });
  // A service call on an unavailable relay is not an error (Home Assistant skips unavailable entities).
  const call = await api('/api/services/switch/turn_on', { method: 'POST', body: JSON.stringify({ entity_id: 'switch.pump' }) });
  t.equal(call.status, 200);
  t.same([...hub.core.devices.all()].map((d) => [d.identifiers[0]?.[0], d.name, d.model]).sort(), [
    ['gpio', 'Relay board', 'GPIO device'],
    ['onewire', 'Greenhouse', 'DS18B20'],
  ]);
});
