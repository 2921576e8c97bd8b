import t from 'tap';
import { parseVirtualSection } from '../../drivers/virtual/index.js';
import { ConfigFileError, parseConfigText, type SectionValidators } from '../../src/config/load.js';
import { formatPath } from '../../src/config/reader.js';
import { REGISTRY_SECTION_VALIDATORS } from '../../src/registry/index.js';

const VALIDATORS: SectionValidators = {
  ...REGISTRY_SECTION_VALIDATORS,
  virtual: (value, path, issues) => void parseVirtualSection(value, path, issues),
};

/** `<path>: <message>` of every problem, or [] when the text is valid. */
function problems(yaml: string): string[] {
  try {
    parseConfigText(yaml, null, VALIDATORS);
    return [];
  } catch (err) {
    if (err instanceof ConfigFileError) return err.issues.map((i) => `${formatPath(i.path)}: ${i.message}`);
    throw err;
  }
}

t.test('valid registry sections pass', async (t) => {
  t.same(
    problems(`
floors:
  - name: Ground Floor
    level: 0
    icon: mdi:home-floor-0
    aliases: [downstairs]
labels:
  - {name: Christmas, color: red, icon: "mdi:pine-tree", description: Seasonal}
  - {id: power, name: Power hungry, color: "#ff8800"}
areas:
  - {name: Kitchen, floor: ground_floor, icon: "mdi:stove", labels: [christmas], aliases: [Cookery]}
  - {id: lounge, name: Living Room, picture: /local/lounge.jpg}
customize:
  light.kitchen: {name: Kitchen Light, icon: "mdi:ceiling-light", area: kitchen, labels: [Christmas], hidden: false, disabled: false, entity_category: config}
virtual:
  - platform: switch
    name: Kettle
    device: {name: Kitchen Strip, manufacturer: ACME, model: S4, area: Kitchen}
  - platform: switch
    name: Toaster
    device: {name: Kitchen Strip}
`),
    [],
  );
});

t.test('problems name the path and what is allowed', async (t) => {
  t.same(
    problems(`
floors:
  - name: Ground
    level: 1.5
  - name: ground
labels:
  - {name: Odd, color: "Not a colour!"}
  - {name: Odd 2, id: Bad-Id}
areas:
  - name: Kitchen
    icon: stove
    colour: red
  - name: kitchen
  - id: kitchen
    name: Cookery
  - floor: ground
customize:
  Light.Bad: {name: x}
  light.ok:
    friendly_name: Nope
    entity_category: hidden
    hidden: yes please
    name: ""
`),
    [
      'floors[0].level: 1.5 is not allowed: expected an integer from -1000 to 1000',
      'floors[1].name: floor id ground is used twice (also at floors[0]); give each floor its own id',
      'floors[1].name: floor name "ground" is used twice (also at floors[0])',
      'labels[0].color: "Not a colour!" is not allowed: expected a colour name (e.g. indigo) or #rrggbb',
      'labels[1].id: "Bad-Id" is not allowed: expected lower-case letters, digits and single underscores (e.g. living_room)',
      'areas[0].icon: "stove" is not allowed: expected an icon in the form prefix:name (e.g. mdi:sofa)',
      'areas[0].colour: unknown option; allowed: aliases, floor, icon, id, labels, name, picture',
      'areas[1].name: area id kitchen is used twice (also at areas[0]); give each area its own id',
      'areas[1].name: area name "kitchen" is used twice (also at areas[0])',
      'areas[2].id: area id kitchen is used twice (also at areas[0]); give each area its own id',
      'areas[3].name: is required: expected a string',
      'customize.Light.Bad: "Light.Bad" is not a valid entity id: format should be <domain>.<object_id>: lower-case letters, digits and single underscores, not starting or ending with an underscore',
      'customize.light.ok.friendly_name: unknown option; allowed: area, disabled, entity_category, hidden, icon, labels, name',
      'customize.light.ok.entity_category: "hidden" is not allowed: expected one of config, diagnostic',
      'customize.light.ok.hidden: "yes please" is not allowed: expected true or false',
      'customize.light.ok.name: expected a non-empty name',
    ],
  );
});

t.test('sections of the wrong shape', async (t) => {
  t.same(problems('areas: {name: Kitchen}\nfloors: Ground\ncustomize: [light.x]\n'), [
    'areas: expected a list of areas (- name: ...), got a mapping',
    'floors: expected a list of floors (- name: ...), got string "Ground"',
    'customize: expected a mapping of entity ids (light.kitchen: {name: ...}), got a list',
  ]);
});

t.test('virtual devices: known options only; items sharing a device agree', async (t) => {
  t.same(
    problems(`
virtual:
  - platform: switch
    name: Kettle
    device: {name: Strip, manufacturer: ACME, colour: red}
  - platform: switch
    name: Toaster
    device: {name: Strip, manufacturer: Other}
  - platform: switch
    name: Fan
    device: {manufacturer: ACME}
`).sort(),
    [
      'virtual[0].device.colour: unknown option; allowed: area, manufacturer, model, name',
      'virtual[1].device.manufacturer: "Other" differs from "ACME" given for device "Strip" at virtual[0].device',
      'virtual[2].device.name: is required: expected a string',
    ].sort(),
  );
});
