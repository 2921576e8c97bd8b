import t from 'tap';
import { helperHub } from './helper-setup.js';

t.test('input_boolean: initial, turn_on/off/toggle, name and icon', async (t) => {
  const { call, state, attrs } = await helperHub(
    t,
    `input_boolean:
  guest_mode: {name: Guest mode, icon: "mdi:account", initial: true}
  plain:
`,
  );
  t.equal(state('input_boolean.guest_mode'), 'on');
  t.same(attrs('input_boolean.guest_mode'), { icon: 'mdi:account', friendly_name: 'Guest mode', editable: false });
  t.equal(state('input_boolean.plain'), 'off', 'no initial: off');
  await call('input_boolean', 'turn_off', 'input_boolean.guest_mode');
  t.equal(state('input_boolean.guest_mode'), 'off');
  await call('input_boolean', 'toggle', 'input_boolean.guest_mode');
  t.equal(state('input_boolean.guest_mode'), 'on');
  await call('input_boolean', 'turn_on', 'input_boolean.plain');
  t.equal(state('input_boolean.plain'), 'on');
});

t.test('input_number: min/max/step, set_value refused out of range, increment stops at max', async (t) => {
  const { call, state, attrs } = await helperHub(
    t,
    `input_number:
  volume: {name: Volume, min: 0, max: 10, step: 2.5, unit_of_measurement: "%", mode: box}
  level: {min: -5, max: 5, initial: 1}
`,
  );
  t.equal(state('input_number.volume'), '0.0', 'starts at min, written as Python writes a float');
  t.same(attrs('input_number.volume'), {
    unit_of_measurement: '%',
    friendly_name: 'Volume',
    initial: null,
    editable: false,
    min: 0,
    max: 10,
    step: 2.5,
    mode: 'box',
  });
  t.equal(state('input_number.level'), '1.0');
  await call('input_number', 'increment', 'input_number.volume');
  t.equal(state('input_number.volume'), '2.5');
  await call('input_number', 'set_value', 'input_number.volume', { value: 9 });
  t.equal(state('input_number.volume'), '9.0');
  await call('input_number', 'increment', 'input_number.volume');
  t.equal(state('input_number.volume'), '10.0', 'a step past max stops at max');
  await t.rejects(call('input_number', 'set_value', 'input_number.volume', { value: 11 }), {
    message: 'Validation error: Invalid value for input_number.volume: 11 (range 0 - 10)',
  });
  await t.rejects(call('input_number', 'set_value', 'input_number.volume', { value: 'loud' }), { message: /expected float/ });
  await call('input_number', 'decrement', 'input_number.level');
  await call('input_number', 'decrement', 'input_number.level');
  t.equal(state('input_number.level'), '-1.0');
});

t.test('input_select: options, select_option/next/previous/first/last with cycle, set_options', async (t) => {
  const { call, state, attrs } = await helperHub(
    t,
    `input_select:
  mode:
    name: House mode
    options: [Home, Away, Night]
    initial: Away
`,
  );
  const id = 'input_select.mode';
  t.equal(state(id), 'Away');
  t.same(attrs(id), { friendly_name: 'House mode', options: ['Home', 'Away', 'Night'], editable: false });
  await call('input_select', 'select_next', id);
  t.equal(state(id), 'Night');
  await call('input_select', 'select_next', id);
  t.equal(state(id), 'Home', 'cycles to the first');
  await call('input_select', 'select_previous', id, { cycle: false });
  t.equal(state(id), 'Home', 'without cycle it stays at the first');
  await call('input_select', 'select_last', id);
  t.equal(state(id), 'Night');
  await call('input_select', 'select_first', id);
  t.equal(state(id), 'Home');
  await call('input_select', 'select_option', id, { option: 'Night' });
  t.equal(state(id), 'Night');
  await t.rejects(call('input_select', 'select_option', id, { option: 'Party' }), {
    message: 'Validation error: Invalid option: Party (possible options: Home, Away, Night)',
  });
  await call('input_select', 'set_options', id, { options: ['Day', 'Night'] });
  t.equal(state(id), 'Night', 'the option stays while still offered');
  t.same(attrs(id)?.options, ['Day', 'Night']);
  await call('input_select', 'set_options', id, { options: ['A', 'B'] });
  t.equal(state(id), 'A', 'else the first');
  await t.rejects(call('input_select', 'set_options', id, { options: ['A', 'A'] }), { message: /Duplicated options/ });
});

t.test('input_text: min/max length and pattern', async (t) => {
  const { call, state, attrs } = await helperHub(
    t,
    `input_text:
  code: {name: Code, min: 4, max: 6, pattern: "[0-9]*", mode: password}
  note: {initial: hello}
`,
  );
  t.equal(state('input_text.code'), 'unknown', 'no initial and nothing stored');
  t.same(attrs('input_text.code'), { friendly_name: 'Code', editable: false, min: 4, max: 6, pattern: '[0-9]*', mode: 'password' });
  t.equal(state('input_text.note'), 'hello');
  t.same(attrs('input_text.note'), { editable: false, min: 0, max: 100, pattern: null, mode: 'text' });
  await call('input_text', 'set_value', 'input_text.code', { value: '1234' });
  t.equal(state('input_text.code'), '1234');
  await t.rejects(call('input_text', 'set_value', 'input_text.code', { value: '12' }), {
    message: /Invalid value: 12 \(length range 4 - 6\)/,
  });
  await t.rejects(call('input_text', 'set_value', 'input_text.code', { value: '1234567' }), { message: /length range 4 - 6/ });
  await t.rejects(call('input_text', 'set_value', 'input_text.code', { value: '12ab' }), {
    message: /does not match the pattern \[0-9\]\*/,
  });
  t.equal(state('input_text.code'), '1234', 'a refused value changes nothing');
});

t.test('input_datetime: date, time, both; set_datetime by parts, datetime and timestamp', async (t) => {
  const { call, state, attrs } = await helperHub(
    t,
    `input_datetime:
  alarm: {name: Alarm, has_time: true, initial: "07:30"}
  holiday: {has_date: true}
  party: {has_date: true, has_time: true, initial: "2026-07-01 20:00:00"}
`,
  );
  t.equal(state('input_datetime.alarm'), '07:30:00');
  t.same(attrs('input_datetime.alarm'), {
    friendly_name: 'Alarm',
    has_date: false,
    has_time: true,
    editable: false,
    hour: 7,
    minute: 30,
    second: 0,
    timestamp: 27000,
  });
  t.equal(state('input_datetime.holiday'), '1970-01-01', 'no initial: the epoch, as Home Assistant');
  t.equal(state('input_datetime.party'), '2026-07-01 20:00:00');
  t.equal(attrs('input_datetime.party')?.timestamp, Date.UTC(2026, 6, 1, 18) / 1000, 'in the hub zone (CEST)');
  await call('input_datetime', 'set_datetime', 'input_datetime.holiday', { date: '2026-12-24' });
  t.equal(state('input_datetime.holiday'), '2026-12-24');
  t.equal(attrs('input_datetime.holiday')?.timestamp, Date.UTC(2026, 11, 23, 23) / 1000);
  await call('input_datetime', 'set_datetime', 'input_datetime.party', { datetime: '2026-08-01 21:15:05' });
  t.equal(state('input_datetime.party'), '2026-08-01 21:15:05');
  await call('input_datetime', 'set_datetime', 'input_datetime.party', { timestamp: Date.UTC(2026, 0, 1, 12) / 1000 });
  t.equal(state('input_datetime.party'), '2026-01-01 13:00:00', 'a timestamp is shown in the hub zone');
  await call('input_datetime', 'set_datetime', 'input_datetime.alarm', { time: '06:45:10' });
  t.equal(state('input_datetime.alarm'), '06:45:10');
  await t.rejects(call('input_datetime', 'set_datetime', 'input_datetime.alarm', { time: '25:00' }), {
    message: /Invalid time specified: 25:00/,
  });
  await t.rejects(call('input_datetime', 'set_datetime', 'input_datetime.alarm', {}), { message: /date|time/ });
});

t.test('input_button: press writes the time of the press', async (t) => {
  const { call, state, clock } = await helperHub(t, 'input_button:\n  doorbell: {name: Doorbell}\n');
  t.equal(state('input_button.doorbell'), 'unknown');
  await call('input_button', 'press', 'input_button.doorbell');
  t.equal(state('input_button.doorbell'), '2026-01-15T06:00:00+00:00');
  clock.advance(1_500_000);
  await call('input_button', 'press', 'input_button.doorbell');
  t.equal(state('input_button.doorbell'), '2026-01-15T06:00:01.500000+00:00');
});
