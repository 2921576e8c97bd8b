// The `homekit: filter:` selects as Home Assistant's entityfilter does (src/config/entity-filter.ts), with hearth's
// areas counting as domains do: `include_areas` with `exclude_entities` bridges what is in the areas (the entity's own
// area, else its device's) except the excluded entities, and nothing outside them. Read through a paired controller.
import t from 'tap';
import { startTestHub } from '../helpers/hub.js';
import { pairedClient, short } from './controller.js';

const YAML = `
hub:
  name: Test Home
  latitude: 52.37
  longitude: 4.89
  time_zone: Europe/Amsterdam
areas:
  - {name: Kitchen}
  - {name: Hall}
customize:
  light.kitchen: {area: kitchen}
  switch.kettle: {area: kitchen}
  switch.radio: {area: kitchen}
  light.hall: {area: hall}
virtual:
  - {platform: light, id: kitchen, name: Kitchen, color_modes: [brightness]}
  - {platform: switch, id: kettle, name: Kettle}
  - {platform: switch, id: radio, name: Radio}
  - {platform: switch, id: toaster, name: Toaster, device: {name: Toaster, area: kitchen}}
  - {platform: light, id: hall, name: Hall, color_modes: [brightness]}
  - {platform: switch, id: pump, name: Pump}
homekit:
  name: Test Bridge
  port: 0
  bind: [127.0.0.1]
  filter:
    include_areas: [kitchen]
    exclude_entities: [switch.radio]
`;

t.test('include_areas with exclude_entities bridges the areas less the excluded entities', async (t) => {
  const hub = await startTestHub(t, { yaml: YAML });
  const { client } = await pairedClient(hub);
  t.teardown(() => client.close());
  const { accessories } = await client.getAccessories();
  const serials = accessories
    .map((a) => a.services.flatMap((s) => s.characteristics).find((c) => short(c.type) === '30')?.value)
    .filter((s): s is string => typeof s === 'string' && s.includes('.'))
    .sort();
  t.same(serials, ['light.kitchen', 'switch.kettle', 'switch.toaster'], 'the kitchen, its device included, less the radio');
});
