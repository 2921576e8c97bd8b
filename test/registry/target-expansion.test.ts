import t from 'tap';
import { startCore, testSwitch } from './helpers.js';

/** Which entities an area, device, floor or label target reaches. */

t.test('target expansion follows Home Assistant', async (t) => {
  const { core, registries, log } = await startCore(t, {
    sections: {
      floors: [{ name: 'Ground' }, { name: 'Upstairs' }],
      labels: [{ name: 'Festive' }],
      areas: [
        { name: 'Kitchen', floor: 'ground' },
        { name: 'Lounge', floor: 'ground', labels: ['festive'] },
        { name: 'Bedroom', floor: 'upstairs' },
      ],
    },
  });
  const strip = core.devices.register({ identifiers: [['test', 'strip']], name: 'Power strip', owner: 'test' });
  registries.devices.update(strip.id, { area_id: 'kitchen' });
  const tree = core.devices.register({ identifiers: [['test', 'tree']], name: 'Tree', owner: 'test' });
  registries.devices.update(tree.id, { labels: ['festive'] });
  testSwitch(core, 'switch.kettle', { deviceId: strip.id });
  testSwitch(core, 'switch.toaster', { deviceId: strip.id });
  testSwitch(core, 'switch.strip_led', { deviceId: strip.id });
  testSwitch(core, 'switch.tree', { deviceId: tree.id });
  testSwitch(core, 'switch.lamp');
  testSwitch(core, 'switch.bed');
  registries.entities.update('switch.toaster', { area_id: 'lounge' });
  registries.entities.update('switch.strip_led', { entity_category: 'diagnostic' });
  registries.entities.update('switch.lamp', { area_id: 'lounge' });
  registries.entities.update('switch.bed', { area_id: 'bedroom', labels: ['festive'] });

  const expand = (selector: Record<string, string[]>) => [...registries.expandTarget(selector)].sort();
  t.same(
    expand({ area_id: ['kitchen'] }),
    ['switch.kettle'],
    'device in the area: only its entities without an own area; no diagnostic ones',
  );
  t.same(expand({ device_id: [strip.id] }), ['switch.kettle', 'switch.toaster'], 'a device: all its entities');
  t.same(expand({ area_id: ['lounge'] }), ['switch.lamp', 'switch.toaster']);
  t.same(expand({ floor_id: ['ground'] }), ['switch.kettle', 'switch.lamp', 'switch.toaster']);
  t.same(
    expand({ label_id: ['festive'] }),
    ['switch.bed', 'switch.lamp', 'switch.toaster', 'switch.tree'],
    'entities, devices and areas with the label',
  );
  registries.entities.update('switch.lamp', { hidden_by: 'user' });
  t.same(expand({ area_id: ['lounge', 'bedroom'] }), ['switch.bed', 'switch.toaster'], 'hidden entities are skipped');
  t.same(expand({ area_id: ['garage'], floor_id: ['roof'] }), []);
  t.ok(log.entries.some((e) => e.msg === 'Referenced floors roof, areas garage are missing or not currently available'));
});
