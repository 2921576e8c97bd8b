import t from 'tap';
import { isTemplate as isConfigTemplate } from '../../src/automation/config-values.js';
import { isTemplate } from '../../src/core/template-text.js';

/** Home Assistant's is_template_string: `{{`, `{%` or `{#` anywhere makes a template. */
const TABLE: readonly [text: string, template: boolean][] = [
  ['{{ states("sensor.x") }}', true],
  ['value: {{ value }}', true],
  ['{% if true %}on{% endif %}', true],
  ['{%- set x = 1 -%}', true],
  ['{# comment #}', true],
  ['on{# why: the relay is inverted #}', true],
  ['', false],
  ['plain text', false],
  ['{"json": {"nested": 1}}', false],
  ['{ {not} }', false],
  ['}} %} #}', false],
  ['50%', false],
  ['#{1}', false],
];

t.test('one test decides what is a template, comments included', async (t) => {
  for (const [text, expected] of TABLE) {
    t.equal(isTemplate(text), expected, `core: ${JSON.stringify(text)}`);
    t.equal(isConfigTemplate(text), expected, `automation configuration: ${JSON.stringify(text)}`);
  }
  t.equal(isConfigTemplate(42), false, 'a number is never a template');
});
