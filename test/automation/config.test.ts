import t from 'tap';
import { parse } from 'yaml';
import { parseAutomations, parseScenes, parseScripts } from '../../src/automation/parse-sections.js';
import { validate } from './helpers.js';

t.test('the 2024.10+ syntax and the legacy syntax parse to the same automation', async (t) => {
  const modern = parse(`
- id: porch
  alias: Porch light on motion
  triggers:
    - { trigger: state, entity_id: binary_sensor.porch_motion, to: "on", for: { seconds: 5 } }
    - { trigger: numeric_state, entity_id: sensor.lux, below: 20 }
    - { trigger: time, at: "22:00:00" }
  conditions:
    - { condition: state, entity_id: light.porch, state: "off" }
  actions:
    - { action: switch.turn_on, target: { entity_id: switch.porch } }
  mode: single
`);
  const legacy = parse(`
- id: porch
  alias: Porch light on motion
  trigger:
    - { platform: state, entity_id: binary_sensor.porch_motion, to: "on", for: "00:00:05" }
    - { platform: numeric_state, entity_id: sensor.lux, below: 20 }
    - { platform: time, at: "22:00" }
  condition:
    - { condition: state, entity_id: light.porch, state: "off" }
  action:
    - { service: switch.turn_on, entity_id: switch.porch }
`);
  const issues: { path: readonly (string | number)[]; message: string }[] = [];
  const [a] = parseAutomations(modern, ['automation'], issues);
  const [b] = parseAutomations(legacy, ['automation'], issues);
  t.same(issues, []);
  // The same but for the configuration as written, which each keeps for its traces.
  t.same({ ...a, config: null }, { ...b, config: null });
  t.match(a, {
    objectId: 'porch',
    alias: 'Porch light on motion',
    mode: 'single',
    triggers: [
      { kind: 'state', entityIds: ['binary_sensor.porch_motion'], to: ['on'], forMs: 5000, matchAll: false, id: '0' },
      { kind: 'numeric_state', below: 20, id: '1' },
      { kind: 'time', at: [22 * 3600] },
    ],
    actions: [{ kind: 'service', domain: 'switch', service: 'turn_on', target: { entity_id: ['switch.porch'] } }],
  });
});

t.test('every problem is reported with its path, naming what is allowed', async (t) => {
  const messages = validate(`
automation:
  - alias: Bad
    triggers:
      - trigger: sunrise
      - platform: state
      - trigger: time
        at: "25:00"
      - trigger: numeric_state
        entity_id: sensor.x
      - trigger: state
        entity_id: light.x
        for: "48:00:00"
        colour: red
    conditions:
      - condition: sun
      - condition: time
        weekday: [mon, funday]
    actions:
      - action: not a service
      - delay: soon
      - teleport: home
      - repeat: { count: 3 }
  - alias: No triggers
    actions: []
  - alias: Both
    trigger: []
    triggers: []
    actions: []
    mode: sometimes
`);
  t.same(messages, [
    'automation[0].triggers[0].trigger: unknown trigger type "sunrise"; supported: state, numeric_state, template, time, time_pattern, sun, zone, event, homeassistant, mqtt',
    'automation[0].triggers[1].entity_id: is required: expected an entity id or a list of entity ids',
    'automation[0].triggers[2].at: "25:00" is not a time of day: expected "HH:MM" or "HH:MM:SS"',
    'automation[0].triggers[3]: must contain at least one of above, below',
    'automation[0].triggers[4].for: "48:00:00" is longer than the maximum of 24 hours; use a time trigger for longer waits',
    'automation[0].triggers[4].colour: unknown option; allowed: alias, attribute, enabled, entity_id, for, from, id, not_from, not_to, to, trigger, variables',
    'automation[0].conditions[0]: must contain at least one of before, after',
    'automation[0].conditions[1].weekday: "funday" is not allowed: expected one of mon, tue, wed, thu, fri, sat, sun',
    'automation[0].actions[0].action: "not a service" is not a service: expected <domain>.<service>, e.g. light.turn_on',
    'automation[0].actions[1].delay: "soon" is not a duration: expected seconds (a number), "HH:MM:SS", or a mapping of days/hours/minutes/seconds/milliseconds',
    'automation[0].actions[2]: unknown action: expected one of the keys action, service, delay, event, condition, wait_for_trigger, wait_template, stop, variables, scene, if, choose, sequence, repeat, parallel (action: is a service call, service: its legacy name)',
    'automation[0].actions[3].repeat.sequence: is required: expected a list of actions',
    'automation[1].triggers: is required (or the legacy trigger:)',
    'automation[2].mode: "sometimes" is not allowed: expected one of single, restart, queued, parallel',
    'automation[2].trigger: give either triggers: or the legacy trigger:, not both',
  ]);
});

t.test(
  'templates are accepted where Home Assistant takes them; a broken one, or one where a fixed value belongs, names its key',
  async (t) => {
    const accepted = validate(`
automation:
  - triggers:
      - trigger: template
        value_template: "{{ is_state('sun.sun', 'below_horizon') }}"
        for: "00:01:00"
      - trigger: numeric_state
        entity_id: sensor.x
        value_template: "{{ state.attributes.x }}"
        above: 3
    conditions: "{{ true }}"
    actions:
      - action: light.turn_on
        target:
          entity_id: "{{ trigger.entity_id }}"
        data:
          brightness: "{{ 3 * 4 }}"
      - wait_template: "{{ false }}"
        timeout: 5
      - action: light.turn_on
        data_template: { brightness: "{{ 3 }}" }
      - delay: "{{ 2 }}"
      - service_template: "light.turn_{{ 'on' }}"
script:
  greet:
    variables:
      who: "{{ name | default('you') }}"
    sequence:
      - event: greeted
        event_data: { who: "{{ who }}" }
`);
    t.same(accepted, []);
    const refused = validate(`
automation:
  - triggers:
      - trigger: template
      - trigger: state
        entity_id: "{{ 'light.x' }}"
    conditions:
      - condition: template
        value_template: "{{ states('sensor.x') | float(0) > }}"
    actions:
      - action: light.turn_on
        data:
          brightness: "{% if %}"
      - event: "{{ name }}"
      - delay: "{{ 1 "
scene:
  - name: Evening
    entities:
      light.x: "{{ 'on' }}"
`);
    t.same(refused, [
      "automation[0].triggers[0].value_template: is required: expected a template, e.g. \"{{ is_state('sun.sun', 'above_horizon') }}\"",
      'automation[0].triggers[1].entity_id: a template is not allowed here: this key takes a fixed value',
      "automation[0].conditions[0].value_template: invalid template: TemplateSyntaxError: unexpected 'end of print statement' (line 1, column 36 of the template)",
      "automation[0].actions[0].data.brightness: invalid template: TemplateSyntaxError: Expected an expression, got 'end of statement block' (line 1, column 7 of the template)",
      'automation[0].actions[1].event: a template is not allowed here: this key takes a fixed value',
      "automation[0].actions[2].delay: invalid template: TemplateSyntaxError: unexpected end of template, expected 'end of print statement'. (line 1, column 6 of the template)",
      'scene[0].entities.light.x: a template is not allowed here: this key takes a fixed value',
    ]);
  },
);

t.test('delays take seconds, "HH:MM:SS" or a mapping; a day is the cap', async (t) => {
  const [s] = parseScripts(
    parse(`
x:
  sequence:
    - delay: 1.5
    - delay: "00:01:02.5"
    - delay: { hours: 1, minutes: 2, seconds: 3, milliseconds: 4 }
    - delay: "24:00:00"
`),
    ['script'],
    [],
  );
  t.same(
    s?.sequence.map((a) => (a.kind === 'delay' ? a.ms : -1)),
    [1500, 62_500, 3_723_004, 86_400_000],
  );
  t.same(validate('script: { x: { sequence: [ { delay: { hours: 25 } }, { delay: -1 }, { delay: { weeks: 1 } } ] } }'), [
    'script.x.sequence[0].delay: {"hours":25} is longer than the maximum of 24 hours; use a time trigger for longer waits',
    'script.x.sequence[1].delay: -1 is negative: durations must be 0 or more',
    'script.x.sequence[2].delay.weeks: unknown unit; allowed: days, hours, minutes, seconds, milliseconds',
  ]);
});

t.test('scripts: names must be object ids, not the domain services; sequence required', async (t) => {
  t.same(
    validate(`
script:
  Good-Night: { sequence: [] }
  reload: { sequence: [] }
  no_sequence: { alias: Nothing }
  queued: { sequence: [], mode: single, max: 3 }
`),
    [
      'script.Good-Night: "Good-Night" is not a valid script name: use lower-case letters, digits and single underscores (e.g. good_night)',
      "script.reload: a script cannot be named reload: turn_on, turn_off, toggle, reload are the script domain's own services",
      'script.no_sequence.sequence: is required: expected a list of actions',
      'script.queued.max: max only applies to the queued and parallel modes (this one is single)',
    ],
  );
});

t.test('scenes: name and entities required; states are strings or {state, attributes}', async (t) => {
  t.same(
    validate(`
scene:
  - name: Movie
    entities:
      light.living_room: { brightness: 20 }
      not_an_id: "on"
      switch.coffee_maker: [1, 2]
  - entities: {}
`),
    [
      'scene[0].entities.light.living_room.state: is required: expected the state the entity should have',
      'scene[0].entities.not_an_id: "not_an_id" is not an entity id: expected <domain>.<object_id>',
      'scene[0].entities.switch.coffee_maker: expected a state (a string) or a mapping with state and attributes, got a list',
      'scene[1].name: is required: expected a string',
    ],
  );
  const [scene] = parseScenes(
    parse(`
- name: Movie Time
  icon: mdi:movie
  entities:
    light.living_room: { state: "on", brightness: 40 }
    switch.coffee_maker: "off"
    light.kitchen: false
`),
    ['scene'],
    [],
  );
  t.equal(scene?.objectId, 'movie_time');
  t.same(
    [...(scene?.entities ?? [])],
    [
      ['light.living_room', { state: 'on', attributes: { brightness: 40 } }],
      ['switch.coffee_maker', { state: 'off', attributes: {} }],
      ['light.kitchen', { state: 'off', attributes: {} }],
    ],
  );
});

t.test("automation entity ids: the slug of the alias (Home Assistant's), else a valid id; collisions get _2", async (t) => {
  const defs = parseAutomations(
    parse(`
- { id: hall_motion, alias: Hall, triggers: [], actions: [] }
- { id: "1700000000000", alias: Numbered, triggers: [], actions: [] }
- { id: Not Valid, alias: Wake Up, triggers: [], actions: [] }
- { alias: Wake Up, triggers: [], actions: [] }
- { triggers: [], actions: [] }
- { id: ui_made, triggers: [], actions: [] }
`),
    ['automation'],
    [],
  );
  t.same(
    defs.map((d) => d.objectId),
    ['hall', 'numbered', 'wake_up', 'wake_up_2', 'automation_4', 'ui_made'],
  );
  t.same(validate('automation: [ { id: a, triggers: [], actions: [] }, { id: a, triggers: [], actions: [] } ]'), [
    'automation[1].id: "a" is used by another automation; ids must be unique',
  ]);
});
