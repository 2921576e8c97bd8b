import t from 'tap';
import { TemplateEngine } from '../../src/template/index.js';
import { startTestHub } from '../helpers/hub.js';

const YAML = `
hub:
  name: Test Home
  time_zone: Europe/Amsterdam
labels:
  - name: Christmas
floors:
  - name: Ground Floor
areas:
  - name: Kitchen
    floor: Ground Floor
  - name: Living Room
    labels: [christmas]
  - name: Bedroom
virtual:
  - platform: light
    id: kitchen_ceiling
    name: Kitchen Ceiling
    device: {name: Kitchen Lights, manufacturer: IKEA, model: TRADFRI, area: kitchen}
  - platform: light
    id: kitchen_counter
    name: Kitchen Counter
    device: {name: Kitchen Lights}
  - platform: light
    id: sofa
    name: Sofa Lamp
  - platform: light
    id: bedside
    name: Bedside
customize:
  light.kitchen_counter: {area: living_room}
  light.sofa: {area: living_room}
  light.bedside: {area: Bedroom, labels: [Christmas]}
`;

/** area_entities and friends against the hub's registries, as Home Assistant resolves them. */
t.test('areas, devices and labels', async (t) => {
  const { hub } = await startTestHub(t, { yaml: YAML });
  const engine = new TemplateEngine({ core: hub.core, registries: hub.registries, timeZone: 'Europe/Amsterdam' });
  const render = (source: string) => {
    const r = engine.tryRender(source);
    return r.ok ? r.text : `ERR ${r.error.message}`;
  };
  // An entity inherits its device's area unless it has its own (kitchen_counter is in the living room);
  // the virtual driver gives every entity a device (the sofa lamp's is its own).
  t.equal(render("{{ area_entities('kitchen') }}"), "['light.kitchen_ceiling']");
  t.equal(render("{{ area_entities('Living Room') | sort }}"), "['light.kitchen_counter', 'light.sofa']");
  t.equal(render("{{ area_entities('nowhere') }}"), '[]');
  t.equal(
    render(
      "{{ area_name('light.sofa') }} / {{ area_name('light.kitchen_ceiling') }} / {{ area_name('kitchen') }} / {{ area_name('light.nope') }}",
    ),
    'Living Room / Kitchen / Kitchen / None',
  );
  t.equal(render("{{ area_id('Living Room') }} {{ area_id('light.bedside') }}"), 'living_room bedroom');
  t.equal(
    render(
      "{{ device_attr('light.kitchen_ceiling', 'manufacturer') }} {{ device_attr('light.kitchen_ceiling', 'model') }} {{ device_attr('light.sofa', 'name') }}",
    ),
    'IKEA TRADFRI Sofa Lamp',
  );
  t.equal(render("{{ device_entities(device_id('light.kitchen_ceiling')) | sort }}"), "['light.kitchen_ceiling', 'light.kitchen_counter']");
  t.equal(render("{{ device_id('Kitchen Lights') == device_id('light.kitchen_counter') }} {{ device_id('light.nope') }}"), 'True None');
  t.equal(
    render("{{ area_devices('kitchen') | count }} {{ area_devices('kitchen') | first == device_id('light.kitchen_ceiling') }}"),
    '1 True',
  );
  t.equal(
    render("{{ label_entities('Christmas') }} {{ label_entities('christmas') }} {{ label_areas('christmas') }}"),
    "['light.bedside'] ['light.bedside'] ['living_room']",
  );
  t.equal(
    render("{{ labels('light.bedside') }} {{ labels() }} {{ labels('living_room') }} {{ label_devices('christmas') }}"),
    "['christmas'] ['christmas'] ['christmas'] []",
  );
  t.equal(render("{{ 'kitchen' | area_entities | count }} {{ 'light.sofa' | area_name }}"), '1 Living Room');
  t.equal(render("{{ area_entities('kitchen') | expand | map(attribute='name') | list }}"), "['Kitchen Ceiling']");
  t.equal(
    render("{{ floor_id('Ground Floor') }} {{ floor_id('light.kitchen_ceiling') }} {{ floor_id('light.sofa') }}"),
    'ground_floor ground_floor None',
  );
  t.equal(
    render(
      "{{ floor_name('ground_floor') }} / {{ floor_name('kitchen') }} / {{ floor_areas('Ground Floor') }} / {{ floor_areas('nope') }}",
    ),
    "Ground Floor / Ground Floor / ['kitchen'] / []",
  );
  t.equal(render("{{ integration_entities('virtual') | count }} {{ integration_entities('nope') }}"), '4 []');
});

t.test('without registries, the functions find nothing, as for unknown names', async (t) => {
  const { hub } = await startTestHub(t, { yaml: YAML });
  const engine = new TemplateEngine({ core: hub.core });
  const r = engine.tryRender(
    "{{ area_entities('kitchen') }} {{ area_name('light.sofa') }} {{ label_entities('christmas') }} {{ labels() }} {{ label_areas('x') }}",
  );
  t.equal(r.ok ? r.text : r.error.message, '[] None [] [] []');
});
