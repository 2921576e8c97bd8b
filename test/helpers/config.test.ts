import t from 'tap';
import { ConfigFileError, parseConfigText } from '../../src/config/load.js';
import { formatPath } from '../../src/config/reader.js';
import { SECTION_VALIDATORS } from '../../src/sections.js';

/** `<file>:<line> <path>: <message>` of every problem, or [] when the text is valid. */
function problems(yaml: string): string[] {
  try {
    parseConfigText(`hub: {name: Test}\n${yaml}`, null, SECTION_VALIDATORS, { displayPath: 'configuration.yaml' });
    return [];
  } catch (err) {
    if (err instanceof ConfigFileError) return err.issues.map((i) => `${i.file}:${i.line} ${formatPath(i.path)}: ${i.message}`);
    throw err;
  }
}

t.test("Home Assistant's helper YAML, as its documentation writes it, loads", async (t) => {
  t.same(
    problems(`
input_boolean:
  notify_home:
    name: Notify when someone arrives home
    icon: mdi:car
input_number:
  slider1:
    name: Slider
    initial: 30
    min: -20
    max: 35
    step: 1
  box1:
    name: Numeric Input Box
    initial: 30
    min: -20
    max: 35
    step: 1
    mode: box
input_select:
  who_cooks:
    name: Who cooks today
    options:
      - Paulus
      - Anne Therese
    initial: Anne Therese
    icon: mdi:panda
input_text:
  text3:
    name: Text 3
    min: 8
    max: 40
  text5:
    name: Text 5
    pattern: "[a-fA-F0-9]*"
  text4:
    name: Text 4
    mode: password
input_datetime:
  both_date_and_time:
    name: Input with both date and time
    has_date: true
    has_time: true
  only_date:
    has_date: true
    has_time: false
  only_time:
    has_date: false
    has_time: true
    initial: "06:30"
input_button:
  ring_bell:
    name: Ring bell
    icon: mdi:bell
counter:
  my_custom_counter:
    initial: 30
    step: 1
timer:
  laundry:
    duration: "00:01:00"
  test:
    duration: 120
    restore: true
`),
    [],
  );
});

t.test('every problem names the file, the line and the key', async (t) => {
  t.same(
    problems(`input_number:
  slider:
    min: 10
    max: 5
  box:
    name: Box
    max: 5
    mode: dial
input_select:
  empty: {options: []}
  dup: {options: [a, b, a]}
  wrong_initial: {options: [a, b], initial: c}
input_text:
  long: {max: 300}
  bad: {pattern: "[a-"}
input_datetime:
  neither: {name: Nothing}
  bad_initial: {has_date: true, initial: "tomorrow"}
counter:
  c: {step: 0, colour: red}
timer:
  t: {duration: soon}
input_boolean:
  Bad-Id: {}
  b: {initial: maybe}
input_button: [a, b]
`),
    [
      'configuration.yaml:5 input_number.slider.max: Maximum (5) is not greater than minimum (10)',
      'configuration.yaml:6 input_number.box.min: required key not provided',
      'configuration.yaml:9 input_number.box.mode: "dial" is not allowed: expected one of box, slider',
      'configuration.yaml:11 input_select.empty.options: expected at least one option',
      'configuration.yaml:12 input_select.dup.options: Duplicate options are not allowed: "a"',
      'configuration.yaml:13 input_select.wrong_initial.initial: initial state c is not part of the options: a,b',
      'configuration.yaml:15 input_text.long.max: 300 is not allowed: expected an integer of at most 255',
      'configuration.yaml:16 input_text.bad.pattern: "[a-" is not a valid regular expression',
      'configuration.yaml:18 input_datetime.neither: Entity has_date or has_time must be set (at least one of them true)',
      'configuration.yaml:19 input_datetime.bad_initial.initial: "tomorrow" is not a date (2026-01-15)',
      'configuration.yaml:21 counter.c.step: 0 is not allowed: expected an integer above 0',
      'configuration.yaml:21 counter.c.colour: extra keys not allowed; allowed: name, icon, initial, step, minimum, maximum, restore',
      'configuration.yaml:23 timer.t.duration: expected a duration (seconds, "HH:MM:SS" or {hours, minutes, seconds}), got string "soon"',
      'configuration.yaml:25 input_boolean.Bad-Id: invalid id "Bad-Id": expected lower-case letters, digits and underscores (it becomes input_boolean.<id>)',
      'configuration.yaml:26 input_boolean.b.initial: expected true or false, got string "maybe"',
      'configuration.yaml:27 input_button: expected a mapping of ids to input_button helpers (e.g. my_helper: {name: ...})',
    ],
  );
});
