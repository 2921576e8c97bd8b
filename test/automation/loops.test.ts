import t from 'tap';
import { DEVICES, recordEvents, setup, validate } from './helpers.js';

const SCRIPTS = `${DEVICES}
script:
  counting:
    sequence:
      - repeat:
          count: "{{ times }}"
          sequence:
            - event: step
              event_data: { index: "{{ repeat.index }}", first: "{{ repeat.first }}", last: "{{ repeat.last }}" }
      - event: after
        event_data: { defined: "{{ repeat is defined }}" }
  each:
    sequence:
      - repeat:
          for_each: "{{ ['light.kitchen', 'light.living_room'] }}"
          sequence:
            - action: light.turn_on
              target: { entity_id: "{{ repeat.item }}" }
      - repeat:
          for_each: [ { n: 1 }, { n: "{{ 1 + 1 }}" } ]
          sequence:
            - event: item
              event_data: { n: "{{ repeat.item.n }}", last: "{{ repeat.last }}" }
  nested:
    sequence:
      - repeat:
          count: 2
          sequence:
            - variables: { outer: "{{ repeat.index }}" }
            - repeat:
                for_each: [a, b]
                sequence:
                  - event: pair
                    event_data: { pair: "{{ outer }}{{ repeat.item }}" }
            - event: back
              event_data: { index: "{{ repeat.index }}" }
  while_on:
    sequence:
      - repeat:
          while:
            - condition: state
              entity_id: switch.coffee_maker
              state: "off"
            - "{{ repeat.index <= 3 }}"
          sequence:
            - event: tick
              event_data: { index: "{{ repeat.index }}" }
  until_on:
    sequence:
      - repeat:
          until: "{{ repeat.index == 2 }}"
          sequence:
            - event: tick
              event_data: { index: "{{ repeat.index }}" }
  forever:
    sequence:
      - repeat:
          while: "{{ true }}"
          sequence:
            - variables: { x: 1 }
  until_broken:
    sequence:
      - repeat:
          until: "{{ no_such_thing.attribute > 1 }}"
          sequence: [ { event: tick, event_data: { index: "{{ repeat.index }}" } } ]
  bad_list:
    sequence:
      - repeat:
          for_each: "{{ 42 }}"
          sequence: [ { event: never } ]
`;

t.test('repeat count runs the sequence n times with repeat.index, first and last; the variable is gone after', async (t) => {
  const { core } = await setup(t, SCRIPTS);
  const steps = recordEvents(core, 'step');
  const after = recordEvents(core, 'after');
  await core.services.call('script', 'counting', { times: 3 });
  t.same(
    steps.map((e) => e.data),
    [
      { index: 1, first: true, last: false },
      { index: 2, first: false, last: false },
      { index: 3, first: false, last: true },
    ],
  );
  t.same(after[0]?.data, { defined: false });
  await core.services.call('script', 'counting', { times: 0 });
  t.equal(steps.length, 3, 'a count of 0 runs nothing');
});

t.test('repeat for_each walks a templated list and a list with templates, with repeat.item', async (t) => {
  const { core } = await setup(t, SCRIPTS);
  const items = recordEvents(core, 'item');
  await core.services.call('script', 'each', {});
  t.equal(core.states.get('light.kitchen')?.state, 'on');
  t.equal(core.states.get('light.living_room')?.state, 'on');
  t.same(
    items.map((e) => e.data),
    [
      { n: 1, last: false },
      { n: 2, last: true },
    ],
  );
});

t.test('a nested repeat has its own repeat variable and the outer one comes back after it', async (t) => {
  const { core } = await setup(t, SCRIPTS);
  const pairs = recordEvents(core, 'pair');
  const back = recordEvents(core, 'back');
  await core.services.call('script', 'nested', {});
  t.same(
    pairs.map((e) => e.data.pair),
    ['1a', '1b', '2a', '2b'],
  );
  t.same(
    back.map((e) => e.data.index),
    [1, 2],
  );
});

t.test('repeat while checks before each iteration, until after each', async (t) => {
  const { core } = await setup(t, SCRIPTS);
  const ticks = recordEvents(core, 'tick');
  await core.services.call('script', 'while_on', {});
  t.same(
    ticks.map((e) => e.data.index),
    [1, 2, 3],
  );
  await core.services.call('switch', 'turn_on', { entity_id: 'switch.coffee_maker' });
  await core.services.call('script', 'while_on', {});
  t.equal(ticks.length, 3, 'a false while condition runs nothing');
  ticks.length = 0;
  await core.services.call('script', 'until_on', {});
  t.same(
    ticks.map((e) => e.data.index),
    [1, 2],
  );
});

t.test('a runaway loop is stopped with an error after 10000 iterations, logged once', async (t) => {
  const { core, log } = await setup(t, SCRIPTS);
  await t.rejects(core.services.call('script', 'forever', {}), /terminated because it looped 10000 times/);
  await t.rejects(core.services.call('script', 'forever', {}), /looped 10000 times/);
  const errors = log.entries.filter((e) => e.level === 'error' && e.msg.includes('looped'));
  t.equal(errors.length, 1, 'the second run logs at debug level only');
  t.match(errors[0]?.msg, /script\.forever: Error executing script\. Error for repeat at pos 1: While condition/);
});

t.test('an until condition that fails to render ends the loop, with the error logged', async (t) => {
  const { core, log } = await setup(t, SCRIPTS);
  const ticks = recordEvents(core, 'tick');
  await core.services.call('script', 'until_broken', {});
  t.equal(ticks.length, 1);
  t.ok(log.entries.some((e) => e.level === 'warn' && e.msg.startsWith('script.until_broken:')));
});

t.test('for_each that does not render to a list fails the run', async (t) => {
  const { core } = await setup(t, SCRIPTS);
  const never = recordEvents(core, 'never');
  await t.rejects(core.services.call('script', 'bad_list', {}), /Repeat 'for_each' must be a list of items, got: 42/);
  t.equal(never.length, 0);
});

t.test('repeat config problems name the key and what is allowed', async (t) => {
  t.same(
    validate(`
script:
  x:
    sequence:
      - repeat: { count: 2, while: "{{ true }}", sequence: [] }
      - repeat: { count: -1, sequence: [] }
      - repeat: { for_each: 3, sequence: [] }
      - repeat: { until: [], sequence: [ { delay: soon } ], colour: red }
      - repeat: { for_each: "{{ [1 }}", sequence: [] }
      - repeat: 3
`),
    [
      'script.x.sequence[0].repeat.while: give exactly one of count, while, until, for_each',
      'script.x.sequence[1].repeat.count: expected a whole number from 0 to 10000 or a template, got -1',
      'script.x.sequence[2].repeat.for_each: expected a list of items or a template giving one, got number 3',
      'script.x.sequence[3].repeat.sequence[0].delay: "soon" is not a duration: expected seconds (a number), "HH:MM:SS", or a mapping of days/hours/minutes/seconds/milliseconds',
      'script.x.sequence[3].repeat.colour: unknown option; allowed: count, for_each, sequence, until, while',
      "script.x.sequence[4].repeat.for_each: invalid template: TemplateSyntaxError: unexpected '}', expected ']' (line 1, column 7 of the template)",
      'script.x.sequence[5].repeat: expected a mapping (key: value), got number 3',
    ],
  );
});
