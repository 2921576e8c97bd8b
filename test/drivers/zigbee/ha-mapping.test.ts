import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { silentLogger } from '../../../src/core/log.js';
import { Registries } from '../../../src/registry/registries.js';
import { StubDevice, zigbeeTestbed } from './devices-helpers.js';
import { checkDevice } from './ha-mapping-check.js';
import { MAPPED_DEVICES } from './ha-mapping-table.js';
import { MORE_MAPPED_DEVICES } from './ha-mapping-table-more.js';

// Every device of the table paired, and each entity compared with what zigbee2mqtt's Home Assistant mapping makes.

t.test('each device as zigbee2mqtt maps it: domains, object ids, categories, enabled by default, units and classes', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-zb-map-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const bed = zigbeeTestbed();
  const registries = await Registries.start({ core: bed.core, dataDir, sections: {}, log: silentLogger, saveDelayMs: 60_000 });
  t.teardown(() => registries.stop());
  const devices = [...MAPPED_DEVICES, ...MORE_MAPPED_DEVICES];
  t.ok(devices.length >= 30, 'the fixtures and at least 24 more models');
  let n = 0;
  for (const d of devices) {
    n += 1;
    const ieee = `0x00000000000a${n.toString(16).padStart(4, '0')}`;
    const device = await bed.add(
      new StubDevice({ ieee, modelID: d.modelID, manufacturerName: d.manufacturerName, endpoints: d.endpoints }),
      d.name,
    );
    t.equal(device.model, d.model, `${d.name} resolves to ${d.model}`);
    checkDevice(t, d, ieee, device.entities, (id) => bed.core.entities.find(id), registries.entities);
  }
});

t.test('a TS0601 radiator valve: window and valve detection each their own switch, apart from the child lock', async (t) => {
  const bed = zigbeeTestbed();
  const trv = await bed.add(new StubDevice({ ieee: '0x00000000000b0001', modelID: 'TS0601', manufacturerName: '_TZE200_ckud7u2l' }), 'TRV');
  const switches = trv.entities.filter((e) => e.domain === 'switch').map((e) => [e.id, e.uniqueId]);
  t.same(switches, [
    ['switch.trv_child_lock', '0x00000000000b0001_switch_child_lock'],
    ['switch.trv_window_detection', '0x00000000000b0001_window_detection'],
    ['switch.trv_valve_detection', '0x00000000000b0001_valve_detection'],
    ['switch.trv_auto_lock', '0x00000000000b0001_auto_lock'],
    ['switch.trv_away_mode', '0x00000000000b0001_away_mode'],
  ]);
  t.equal(bed.core.states.get('switch.trv_window_detection')?.attributes.friendly_name, 'TRV Window detection');
});
