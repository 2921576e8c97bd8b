import t from 'tap';
import { automationIntegration } from '../../src/automation/integration.js';
import { readConfigText } from '../../src/config/load.js';
import { helpersIntegration } from '../../src/helpers/index.js';
import { setupOf } from '../../src/integration/setup.js';
import { mqttIntegration } from '../../src/mqtt/integration.js';
import { SECTION_VALIDATORS } from '../../src/sections.js';
import { templateIntegration } from '../../src/template-entities/index.js';

const read = (yaml: string) => readConfigText(yaml, null, SECTION_VALIDATORS, { displayPath: 'configuration.yaml' });

t.test('an automation with problems under a labelled key is left out alone, named where the file has it', async (t) => {
  const config = read(`
automation one:
  - alias: First
    triggers: [{trigger: homeassistant, event: start}]
    actions: []
automation two:
  - alias: Second
    triggers: [{trigger: nope}]
    actions: []
  - alias: Third
    triggers: [{trigger: homeassistant, event: start}]
    actions: []
`);
  const setup = setupOf(automationIntegration, config);
  t.same(
    setup.config?.automation.map((a) => a.alias),
    ['First', 'Third'],
  );
  t.same(
    setup.broken.map((b) => b.name),
    ['automation two[0] (Second)'],
  );
  t.match(setup.broken[0]?.reason, /^configuration\.yaml:8:26: automation two\[0\]\.triggers\[0\]\.trigger: unknown trigger type "nope"/);
});

t.test('a template entity with problems is left out alone; a problem of its block leaves the block out', async (t) => {
  const config = read(`
template:
  - sensor:
      - {name: Good, state: "{{ 1 }}"}
      - {name: Bad, state: "{{ 1 }}", colour: red}
    binary_sensor:
      - {name: Also good, state: "{{ true }}"}
  - triggers: [{trigger: nope}]
    sensor:
      - {name: Triggered, state: "{{ 2 }}"}
`);
  const setup = setupOf(templateIntegration, config);
  t.same(
    setup.config?.template.flatMap((b) => b.entities.map((e) => e.name)),
    ['Good', 'Also good'],
  );
  t.same(
    setup.broken.map((b) => b.name),
    ['template[0].sensor[1] (Bad)', 'template[1]'],
  );
});

t.test('a part without items is not started on any problem, and reads its section once when sound', async (t) => {
  const broken = setupOf(mqttIntegration, read('mqtt:\n  broker: mqtt://127.0.0.1\n  keepalive: -1\n'));
  t.equal(broken.config, undefined);
  t.same(
    broken.broken.map((b) => b.name),
    ['mqtt'],
  );
  const sound = read('mqtt:\n  broker: mqtt://127.0.0.1\n');
  t.equal(setupOf(mqttIntegration, sound).config?.mqtt, sound.parsed.get('mqtt'), 'the very object the load read');
  t.same(setupOf(mqttIntegration, read('')).config, { mqtt: undefined }, 'nothing configured without the section');
});

t.test('leaving out a broken item keeps a sound one named __proto__ (keys from the file never reach a prototype)', async (t) => {
  const setup = setupOf(helpersIntegration, read('input_boolean:\n  __proto__: {name: Proto}\n  bad: {name: [1]}\n'));
  t.same(
    setup.config?.input_boolean?.map((i) => i.id),
    ['__proto__'],
  );
  t.same(
    setup.broken.map((b) => b.name),
    ['input_boolean.bad'],
  );
});
