import t from 'tap';
import { isoFromMicros, ManualClock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { addButton, buttonDomain } from '../../src/domains/button.js';
import { addNumber, numberDomain, numberStep } from '../../src/domains/number.js';
import { addSelect, selectDomain } from '../../src/domains/select.js';
import { applyStoredState } from '../../src/restore/restore-policy.js';

function setup() {
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 0) * 1000);
  const core = new Core({ log: silentLogger, clock });
  for (const d of [buttonDomain, numberDomain, selectDomain]) d.registerServices(core);
  const calls: string[] = [];
  const call = (domain: string, service: string, entityId: string, data: Record<string, unknown> = {}) =>
    core.services.call(domain, service, { entity_id: entityId, ...data } as never);
  const state = (id: string) => core.states.get(id);
  return { core, clock, calls, call, state };
}

t.test('button: unknown until pressed, then the ISO time of the last press; device_class kept', async (t) => {
  const { core, clock, calls, call, state } = setup();
  const button = addButton(core, {
    entityId: 'button.identify',
    owner: 'test',
    name: 'Identify',
    deviceClass: 'identify',
    platform: { press: () => void calls.push('press') },
  });
  button.report();
  t.equal(state('button.identify')?.state, 'unknown');
  t.same(state('button.identify')?.attributes, { device_class: 'identify', friendly_name: 'Identify' });
  clock.advance(1_500_000);
  await call('button', 'press', 'button.identify');
  t.same(calls, ['press']);
  t.equal(state('button.identify')?.state, isoFromMicros(clock.now()));
  t.match(state('button.identify')?.state, /^2026-06-01T12:00:01\.500000\+00:00$/);
  t.equal(button.data.pressedAt, state('button.identify')?.state, 'the domain keeps the press time for its provider');
  clock.advance(1_000_000);
  await call('button', 'press', 'button.identify');
  t.equal(state('button.identify')?.state, '2026-06-01T12:00:02.500000+00:00', 'each press is a new state');
});

t.test('button: restore takes the last press back without pressing', async (t) => {
  const { core, calls, state } = setup();
  const button = addButton(core, { entityId: 'button.restart', owner: 'test', platform: { press: () => void calls.push('press') } });
  button.report();
  await applyStoredState(core, button.entity, { state: '2026-05-31T08:00:00+00:00', attributes: {} }, core.newContext());
  t.equal(state('button.restart')?.state, '2026-05-31T08:00:00+00:00');
  await applyStoredState(core, button.entity, { state: 'not a time', attributes: {} }, core.newContext());
  t.equal(state('button.restart')?.state, '2026-05-31T08:00:00+00:00', 'a stored state that is no time is ignored');
  t.same(calls, [], 'restoring never presses');
});

t.test('number: value, capabilities in order, set_value checked against min and max', async (t) => {
  const { core, call, state } = setup();
  const values: number[] = [];
  const number = addNumber(core, {
    entityId: 'number.target',
    owner: 'test',
    name: 'Target',
    range: { min: 5, max: 30, step: 0.5, mode: 'box' },
    unit: '°C',
    deviceClass: 'temperature',
    platform: {
      setValue: (v) => {
        values.push(v);
        number.report(v);
      },
    },
  });
  number.report(21);
  t.equal(state('number.target')?.state, '21');
  t.same(Object.keys(state('number.target')?.attributes ?? {}), [
    'min',
    'max',
    'step',
    'mode',
    'unit_of_measurement',
    'device_class',
    'friendly_name',
  ]);
  t.same(state('number.target')?.attributes, {
    min: 5,
    max: 30,
    step: 0.5,
    mode: 'box',
    unit_of_measurement: '°C',
    device_class: 'temperature',
    friendly_name: 'Target',
  });
  await call('number', 'set_value', 'number.target', { value: '22.5' });
  t.equal(state('number.target')?.state, '22.5');
  await call('number', 'set_value', 'number.target', { value: 30 });
  await t.rejects(call('number', 'set_value', 'number.target', { value: 31 }), {
    kind: 'service_validation',
    message: 'Validation error: Value 31.0 for number.target is outside valid range 5.0 - 30.0',
  });
  await t.rejects(call('number', 'set_value', 'number.target', { value: 4.5 }), { message: /Value 4\.5 for number\.target is outside/ });
  await t.rejects(call('number', 'set_value', 'number.target', { value: 'warm' }), {
    kind: 'invalid_service_data',
    message: /data\['value'\]/,
  });
  await t.rejects(call('number', 'set_value', 'number.target'), { message: /required key not provided @ data\['value'\]/ });
  t.same(values, [22.5, 30], 'only values in range reach the platform');
  number.report(21, true);
  t.equal(state('number.target')?.state, '21.0', 'a float value is written as Python prints it');
  number.setRange({ min: 0, max: 40 });
  number.report(40);
  t.same(state('number.target')?.attributes.max, 40, 'a new range shows');
  await call('number', 'set_value', 'number.target', { value: 35 });
  t.equal(state('number.target')?.state, '35');
});

t.test("number: the default step is NumberEntity's", async (t) => {
  t.equal(numberStep({ min: 0, max: 100 }), 1);
  t.equal(numberStep({ min: 0, max: 1 }), 0.1);
  t.equal(numberStep({ min: 0, max: 0.05 }), 0.01);
  t.equal(numberStep({ min: 0, max: 100, step: 5 }), 5);
});

t.test('select: option and options; select_option refuses an option it does not have; first/last/next/previous', async (t) => {
  const { core, call, state } = setup();
  const chosen: string[] = [];
  const select = addSelect(core, {
    entityId: 'select.mode',
    owner: 'test',
    name: 'Mode',
    options: ['eco', 'comfort', 'boost'],
    platform: {
      selectOption: (o) => {
        chosen.push(o);
        select.report(o);
      },
    },
  });
  select.report('eco');
  t.same(state('select.mode')?.attributes, { options: ['eco', 'comfort', 'boost'], friendly_name: 'Mode' });
  await call('select', 'select_option', 'select.mode', { option: 'boost' });
  t.equal(state('select.mode')?.state, 'boost');
  await t.rejects(call('select', 'select_option', 'select.mode', { option: 'turbo' }), {
    kind: 'service_validation',
    message: 'Validation error: Option turbo is not valid for entity select.mode, valid options are: eco, comfort, boost',
  });
  await t.rejects(call('select', 'select_option', 'select.mode'), { message: /required key not provided @ data\['option'\]/ });
  await call('select', 'select_next', 'select.mode');
  t.equal(state('select.mode')?.state, 'eco', 'next wraps around by default');
  await call('select', 'select_previous', 'select.mode', { cycle: false });
  t.equal(state('select.mode')?.state, 'eco', 'without cycle, previous stops at the first');
  await call('select', 'select_previous', 'select.mode');
  t.equal(state('select.mode')?.state, 'boost');
  await call('select', 'select_next', 'select.mode', { cycle: false });
  t.equal(state('select.mode')?.state, 'boost', 'without cycle, next stops at the last');
  await call('select', 'select_first', 'select.mode');
  t.equal(state('select.mode')?.state, 'eco');
  await call('select', 'select_last', 'select.mode');
  t.equal(state('select.mode')?.state, 'boost');
  select.report('turbo');
  t.equal(state('select.mode')?.state, 'unknown', 'an option not among the options is unknown');
  await call('select', 'select_next', 'select.mode');
  t.equal(state('select.mode')?.state, 'comfort', 'from no option, next is the second (as Home Assistant counts from the first)');
  select.setOptions(['a', 'b']);
  select.report('a');
  t.same(state('select.mode')?.attributes.options, ['a', 'b']);
  await t.rejects(call('select', 'select_option', 'select.mode', { option: 'eco' }), { message: /valid options are: a, b$/ });
  t.same(chosen, ['boost', 'eco', 'eco', 'boost', 'boost', 'eco', 'boost', 'comfort']);
});

t.test('the services are listed with their fields', async (t) => {
  const { core } = setup();
  const catalogue = core.services.catalogue() as Record<string, Record<string, { fields: Record<string, unknown> }>>;
  t.same(Object.keys(catalogue.button ?? {}), ['press']);
  t.same(Object.keys(catalogue.number ?? {}), ['set_value']);
  t.ok(catalogue.number?.set_value?.fields.value);
  t.same(Object.keys(catalogue.select ?? {}), ['select_option', 'select_first', 'select_last', 'select_next', 'select_previous']);
  t.ok(catalogue.select?.select_next?.fields.cycle);
});
