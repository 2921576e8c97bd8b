import t from 'tap';
import { engineFixture } from './helpers.js';

/**
 * Python dict keys keep their type, as Jinja's dicts do: zigbee2mqtt's discovery payloads index dicts with integer
 * and None keys (lib/extension/homeassistant.ts: the fan's percentage templates, the climate's action template).
 */

// zigbee2mqtt's fan (ZCL hvacFanCtrl modes off/low/medium/high, presets on/auto/smart), exactly as it publishes them.
const Z2M_PERCENTAGE_COMMAND = "{{ {0:'off', 1:'low', 2:'medium', 3:'high'}[value] | default('') }}";
const Z2M_PERCENTAGE_VALUE = "{{ {'off':0, 'low':1, 'medium':2, 'high':3}[value_json.fan_mode] | default('None') }}";
const Z2M_NUMBERED_COMMAND = "{{ {0:'off', 1:'1', 2:'2', 3:'3'}[value] | default('') }}";
const Z2M_NUMBERED_VALUE = "{{ {'off':0, '1':1, '2':2, '3':3}[value_json.fan_mode] | default('None') }}";
const Z2M_ACTION =
  "{% set values = {None:None,'idle':'idle','heat':'heating','cool':'cooling','fan_only':'fan'} %}{{ values[value_json.running_state] }}";

t.test("zigbee2mqtt's fan and climate templates", async (t) => {
  const f = engineFixture();
  const r = (source: string, variables: Record<string, unknown>) => f.render(source, { variables });
  t.equal(r(Z2M_PERCENTAGE_COMMAND, { value: 0 }), 'off');
  t.equal(r(Z2M_PERCENTAGE_COMMAND, { value: 2 }), 'medium');
  t.equal(r(Z2M_PERCENTAGE_COMMAND, { value: 3 }), 'high');
  t.equal(r(Z2M_PERCENTAGE_COMMAND, { value: '2' }), '', "the text '2' is not the key 2");
  t.equal(r(Z2M_PERCENTAGE_VALUE, { value_json: { fan_mode: 'medium' } }), '2');
  t.equal(r(Z2M_PERCENTAGE_VALUE, { value_json: { fan_mode: 'smart' } }), 'None');
  t.equal(r(Z2M_NUMBERED_COMMAND, { value: 1 }), '1');
  t.equal(r(Z2M_NUMBERED_VALUE, { value_json: { fan_mode: '3' } }), '3');
  t.equal(r(Z2M_NUMBERED_VALUE, { value_json: { fan_mode: 3 } }), 'None', "the key '3' is not 3");
  t.equal(r(Z2M_ACTION, { value_json: { running_state: 'heat' } }), 'heating');
  t.equal(r(Z2M_ACTION, { value_json: { running_state: null } }), 'None');
  t.equal(r("{% set values = {0:'off', 1:'low'} %}{{ values[value] }}", { value: 1 }), 'low');
});

t.test('integer, bool and None keys print, compare and iterate as Python has them', async (t) => {
  const f = engineFixture();
  const cases: readonly [string, string][] = [
    ["{{ {0: 'off', 1: 'low', 2: 'medium', 3: 'high'} }}", "{0: 'off', 1: 'low', 2: 'medium', 3: 'high'}"],
    ["{{ {None: 1, 'a': 2} }}", "{None: 1, 'a': 2}"],
    ["{{ {0: 'off'}[0] }}|{{ {0: 'off'}['0'] }}|{{ {'0': 'x'}[0] }}", 'off||'],
    ["{{ 0 in {0: 'off'} }} {{ '0' in {0: 'off'} }}", 'True False'],
    ["{{ {0: 'off'}.get(0) }} {{ {0: 'off'}.get('0', 'none') }}", 'off none'],
    ["{{ {0: 'off', 1: 'low'}.keys() | list }} {{ {0: 'off'}.items() | list }}", "[0, 1] [(0, 'off')]"],
    ["{% for k in {1: 'a', 2: 'b'} %}{{ k + 1 }}{% endfor %}", '23'],
    ["{% for k, v in {1: 'a'}.items() %}{{ k * 10 }}{{ v }}{% endfor %}", '10a'],
    ["{{ {True: 'yes'}[1] }} {{ {1: 'one'}[True] }}", 'yes one'],
    ["{{ {1: 2} == {1: 2} }} {{ {1: 2} == {'1': 2} }}", 'True False'],
    ["{{ {0: 'off', None: 1} | tojson }}", '{"0":"off","null":1}'],
    ["{% set k = 'x' %}{{ {k: 1} }}", "{'x': 1}"],
    ['{{ dict(a=1) }} {{ namespace(a=2).a }}', "{'a': 1} 2"],
    ["{{ dict([(0, 'off'), (1, 'low')]) }} {{ dict({'a': 1}, b=2) }}", "{0: 'off', 1: 'low'} {'a': 1, 'b': 2}"],
    ["{{ {'b': 1, 'a': 2} | dictsort }}", "[('a', 2), ('b', 1)]"],
  ];
  for (const [source, want] of cases) t.equal(f.render(source), want, source);
});
