import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { silentLogger } from '../../../src/core/log.js';
import { Registries } from '../../../src/registry/registries.js';
import { StubDevice, zigbeeTestbed } from '../zigbee-devices-helpers.js';
import { MAPPED_DEVICES } from './ha-mapping-table.js';

// Every device of the table paired, and each entity compared with what zigbee2mqtt's Home Assistant mapping makes.

const CHECKED: Readonly<Record<string, string>> = {
  u: 'unit_of_measurement',
  dc: 'device_class',
  sc: 'state_class',
  o: 'options',
  min: 'min',
  max: 'max',
  step: 'step',
};

interface Row {
  readonly entityId: string;
  readonly category: string | null;
  readonly enabled: boolean;
  readonly attributes: Record<string, unknown>;
}

function parse(row: string): Row {
  const [entityId = '', category = '', enabled = '', attrs = ''] = row.split('|').map((s) => s.trim());
  const attributes: Record<string, unknown> = {};
  for (const pair of attrs.split(' ').filter((p) => p !== '')) {
    const [k = '', v = ''] = pair.split('=');
    const key = CHECKED[k];
    if (key === undefined) throw new Error(`unknown attribute ${k} in the table row ${row}`);
    attributes[key] = key === 'options' ? v.split(',') : ['min', 'max', 'step'].includes(key) ? Number(v) : v;
  }
  return { entityId, category: category === '-' ? null : category, enabled: enabled === 'on', attributes };
}

t.test('each device as zigbee2mqtt maps it: domains, object ids, categories, enabled by default, units and classes', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-zb-map-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const bed = zigbeeTestbed();
  const registries = await Registries.start({ core: bed.core, dataDir, sections: {}, log: silentLogger, saveDelayMs: 60_000 });
  t.teardown(() => registries.stop());
  t.ok(MAPPED_DEVICES.length >= 16, 'the fixtures and at least ten more models');
  let n = 0;
  for (const d of MAPPED_DEVICES) {
    n += 1;
    const ieee = `0x00000000000a${n.toString(16).padStart(4, '0')}`;
    const device = await bed.add(
      new StubDevice({ ieee, modelID: d.modelID, manufacturerName: d.manufacturerName, endpoints: d.endpoints }),
      d.name,
    );
    t.equal(device.model, d.model, `${d.name} resolves to ${d.model}`);
    const rows = d.rows.map(parse);
    t.same(device.entities.map((e) => e.id).sort(), rows.map((r) => r.entityId).sort(), `${d.model}: the entity set`);
    for (const row of rows) {
      const entity = bed.core.entities.get(row.entityId);
      const entry = registries.entities.entry(row.entityId);
      if (entity === undefined || entry === undefined) continue;
      const actual: Record<string, unknown> = {};
      for (const key of Object.values(CHECKED)) if (Object.hasOwn(entity.fixed, key)) actual[key] = entity.fixed[key];
      t.same(
        { category: entry.entity_category, enabled: entry.disabled_by === null, ...actual },
        { category: row.category, enabled: row.enabled, ...row.attributes },
        `${d.model} ${row.entityId}`,
      );
      if (!row.enabled) t.equal(entry.disabled_by, 'integration', `${row.entityId} disabled by the integration`);
      t.equal(entity.uniqueId?.startsWith(`${ieee}_`), true, `${row.entityId}: unique id from the IEEE address`);
    }
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
