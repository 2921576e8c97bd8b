import type { Test } from 'tap';
import type { Entity } from '../../../src/core/entities.js';
import type { EntityRegistry } from '../../../src/registry/entity-registry.js';
import type { MappedDevice } from './ha-mapping-table.js';

/** Compares a paired device's entities with its table rows (ha-mapping-table.ts): the set, then each row. */

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
  /** zigbee2mqtt's object id, when the row gives it: the unique id is `<ieee>_<object id>`. */
  readonly objectId: string | undefined;
}

function parse(row: string): Row {
  const [entityId = '', category = '', enabled = '', attrs = '', objectId] = row.split('|').map((s) => s.trim());
  const attributes: Record<string, unknown> = {};
  for (const pair of attrs.split(' ').filter((p) => p !== '')) {
    const [k = '', v = ''] = pair.split('=');
    const key = CHECKED[k];
    if (key === undefined) throw new Error(`unknown attribute ${k} in the table row ${row}`);
    attributes[key] = key === 'options' ? v.split(',') : ['min', 'max', 'step'].includes(key) ? Number(v) : v;
  }
  return { entityId, category: category === '-' ? null : category, enabled: enabled === 'on', attributes, objectId };
}

type Tap = Test;

export function checkDevice(
  t: Tap,
  d: MappedDevice,
  ieee: string,
  entities: readonly Entity[],
  get: (id: string) => Entity | undefined,
  registry: EntityRegistry,
  label = d.model,
): void {
  const rows = d.rows.map(parse);
  t.same(entities.map((e) => e.id).sort(), rows.map((r) => r.entityId).sort(), `${label}: the entity set`);
  for (const row of rows) {
    const entity = get(row.entityId);
    const entry = registry.entry(row.entityId);
    if (entity === undefined || entry === undefined) {
      t.fail(`${label} ${row.entityId}: no entity or no registry entry`);
      continue;
    }
    const actual: Record<string, unknown> = {};
    for (const key of Object.values(CHECKED)) if (Object.hasOwn(entity.fixed, key)) actual[key] = entity.fixed[key];
    t.same(
      { category: entry.entity_category, enabled: entry.disabled_by === null, ...actual },
      { category: row.category, enabled: row.enabled, ...row.attributes },
      `${label} ${row.entityId}`,
    );
    if (!row.enabled) t.equal(entry.disabled_by, 'integration', `${row.entityId} disabled by the integration`);
    if (row.objectId === undefined)
      t.equal(entity.uniqueId?.startsWith(`${ieee}_`), true, `${row.entityId}: unique id from the IEEE address`);
    else t.equal(entity.uniqueId, `${ieee}_${row.objectId}`, `${row.entityId}: unique id as zigbee2mqtt's object id`);
  }
}
