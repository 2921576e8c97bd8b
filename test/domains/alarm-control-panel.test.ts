import t from 'tap';
import { parseVirtualSection, seededRandom } from '../../drivers/virtual/index.js';
import type { VirtualContext } from '../../drivers/virtual/types.js';
import type { ConfigIssue } from '../../src/config/reader.js';
import { Core } from '../../src/core/core.js';
import type { JsonObject, JsonValue } from '../../src/core/json.js';
import { silentLogger } from '../../src/core/log.js';
import type { State } from '../../src/core/state.js';
import { AlarmFeature, addAlarmControlPanel, alarmControlPanelDomain } from '../../src/domains/alarm-control-panel.js';
import { Timers } from '../../src/util/timers.js';
import { waitForState } from '../helpers/wait.js';

interface Teardown {
  teardown(fn: () => unknown): void;
}

const ID = 'alarm_control_panel.home';

function setup(t: Teardown, item: JsonObject = {}) {
  const core = new Core({ log: silentLogger });
  alarmControlPanelDomain.registerServices(core);
  const timers = new Timers((err) => {
    throw err;
  });
  t.teardown(() => timers.stopAll());
  const issues: ConfigIssue[] = [];
  const [parsed] = parseVirtualSection(
    [{ platform: 'alarm_control_panel', name: 'Home', arming_time: 0.05, delay_time: 0.05, trigger_time: 0.1, ...item }],
    ['virtual'],
    issues,
  );
  if (parsed === undefined || issues.length > 0) throw new Error(`bad test config: ${JSON.stringify(issues)}`);
  const ctx: VirtualContext = { core, log: silentLogger, owner: 'virtual', timers, random: seededRandom(3) };
  // Every state the panel goes through, in order.
  const history: string[] = [];
  core.bus.on('test', 'state_changed', (e) => {
    if (e.data.entity_id === ID && e.data.new_state) history.push(e.data.new_state.state);
  });
  parsed.platform.create(ctx, { entityId: parsed.entityId, name: parsed.name }, parsed.options);
  const state = () => core.states.get(ID) as State;
  return {
    core,
    state,
    history,
    call: (service: string, data: Record<string, JsonValue> = {}) =>
      core.services.call('alarm_control_panel', service, { entity_id: ID, ...data }),
    waitFor: (pred: (s: State) => boolean, ms?: number) => waitForState(core, ID, pred, ms),
  };
}

function parseIssues(item: JsonObject): string[] {
  const issues: ConfigIssue[] = [];
  parseVirtualSection([{ platform: 'alarm_control_panel', name: 'Home', ...item }], ['virtual'], issues);
  return issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

t.test('a panel without a code starts disarmed and arms without one', async (t) => {
  const { state, call, waitFor } = setup(t);
  t.equal(state().state, 'disarmed');
  t.same(state().attributes, {
    friendly_name: 'Home',
    supported_features: 63,
    code_format: null,
    changed_by: null,
    code_arm_required: false,
    previous_state: null,
    next_state: null,
  });
  await call('alarm_arm_away');
  t.equal(state().state, 'arming');
  t.match(state().attributes, { previous_state: 'disarmed', next_state: 'armed_away' });
  const armed = await waitFor((s) => s.state === 'armed_away');
  t.match(armed.attributes, { previous_state: null, next_state: null });
  await call('alarm_disarm');
  t.equal(state().state, 'disarmed');
});

t.test('a numeric code: code_format number, arming needs it, a wrong one is refused', async (t) => {
  const { state, call, waitFor, history } = setup(t, { code: '1234' });
  t.match(state().attributes, { code_format: 'number', code_arm_required: true });
  await t.rejects(call('alarm_arm_home'), {
    kind: 'service_validation',
    message: 'Arming requires a code but none was given for alarm_control_panel.home',
  });
  await t.rejects(call('alarm_arm_home', { code: '' }), {
    message: 'Arming requires a code but none was given for alarm_control_panel.home',
  });
  await t.rejects(call('alarm_arm_home', { code: '0000' }), { kind: 'service_validation', message: 'Invalid alarm code provided' });
  t.equal(state().state, 'disarmed');
  await call('alarm_arm_home', { code: 1234 });
  await waitFor((s) => s.state === 'armed_home');
  await t.rejects(call('alarm_disarm'), { kind: 'service_validation', message: 'Invalid alarm code provided' });
  await t.rejects(call('alarm_disarm', { code: '4321' }), { message: 'Invalid alarm code provided' });
  t.equal(state().state, 'armed_home');
  await call('alarm_disarm', { code: '1234' });
  t.equal(state().state, 'disarmed');
  t.same(history, ['disarmed', 'arming', 'armed_home', 'disarmed']);
});

t.test('a text code gives code_format text; code_arm_required false arms without the code', async (t) => {
  const { state, call, waitFor } = setup(t, { code: 'open sesame', code_arm_required: false, arming_time: 0 });
  t.match(state().attributes, { code_format: 'text', code_arm_required: false });
  await call('alarm_arm_night');
  t.equal(state().state, 'armed_night', 'arming_time 0 arms at once');
  await t.rejects(call('alarm_disarm', { code: 'open' }), { message: 'Invalid alarm code provided' });
  await call('alarm_disarm', { code: 'open sesame' });
  await waitFor((s) => s.state === 'disarmed');
});

t.test('a trigger waits delay_time (pending), sounds for trigger_time, then returns to the armed state', async (t) => {
  const { state, call, waitFor, history } = setup(t, { initial: 'armed_home' });
  t.equal(state().state, 'armed_home');
  await call('alarm_trigger');
  t.equal(state().state, 'pending');
  t.match(state().attributes, { previous_state: 'armed_home', next_state: 'triggered' });
  const triggered = await waitFor((s) => s.state === 'triggered');
  t.match(triggered.attributes, { previous_state: 'armed_home', next_state: null });
  const back = await waitFor((s) => s.state === 'armed_home');
  t.match(back.attributes, { previous_state: null, next_state: null });
  t.same(history, ['armed_home', 'pending', 'triggered', 'armed_home']);
});

t.test('disarm_after_trigger disarms when the trigger time is over; delay_time 0 triggers at once', async (t) => {
  const { state, call, waitFor } = setup(t, { initial: 'armed_away', disarm_after_trigger: true, delay_time: 0 });
  await call('alarm_trigger', { code: 'ignored' });
  t.equal(state().state, 'triggered');
  await waitFor((s) => s.state === 'disarmed');
});

t.test('trigger_time 0 makes the panel ignore triggers', async (t) => {
  const { state, call } = setup(t, { trigger_time: 0 });
  await call('alarm_trigger');
  t.equal(state().state, 'disarmed');
});

t.test('disarming while pending cancels the alarm', async (t) => {
  const { call, waitFor, history } = setup(t, { code: '1234', code_arm_required: false, arming_time: 0.2 });
  await call('alarm_trigger');
  await call('alarm_disarm', { code: '1234' });
  await call('alarm_arm_away');
  // Arming takes longer than the cancelled delay; had it not been cancelled, `triggered` would show up first.
  await waitFor((s) => s.state === 'armed_away');
  t.same(history, ['disarmed', 'pending', 'disarmed', 'arming', 'armed_away']);
});

t.test('arm modes set the feature bits; an arm service without its bit is refused', async (t) => {
  const { state, call, waitFor } = setup(t, { arm_modes: ['armed_home', 'armed_away'] });
  t.equal(state().attributes.supported_features, 1 | 2 | 8);
  await t.rejects(call('alarm_arm_night'), {
    kind: 'service_validation',
    message: 'Entity alarm_control_panel.home does not support action alarm_control_panel.alarm_arm_night.',
  });
  await t.rejects(call('alarm_arm_vacation'), { message: 'does not support action alarm_control_panel.alarm_arm_vacation.' });
  await t.rejects(call('alarm_arm_custom_bypass'), { message: 'does not support action alarm_control_panel.alarm_arm_custom_bypass.' });
  await call('alarm_arm_home');
  await waitFor((s) => s.state === 'armed_home');
});

t.test('an arm service on `all` skips the panels without its mode, as Home Assistant does', async (t) => {
  const core = new Core({ log: silentLogger });
  alarmControlPanelDomain.registerServices(core);
  const armed: string[] = [];
  for (const [id, supportedFeatures] of [
    ['alarm_control_panel.house', AlarmFeature.ARM_AWAY | AlarmFeature.ARM_NIGHT],
    ['alarm_control_panel.shed', AlarmFeature.ARM_AWAY],
  ] as const) {
    addAlarmControlPanel(core, {
      entityId: id,
      owner: 'test',
      capabilities: { supportedFeatures, codeFormat: null, codeArmRequired: false },
      platform: {
        disarm() {},
        arm(mode) {
          armed.push(`${id}:${mode}`);
        },
        trigger() {},
      },
    }).report({ state: 'disarmed' });
  }
  await core.services.call('alarm_control_panel', 'alarm_arm_night', { entity_id: 'all' });
  t.same(armed, ['alarm_control_panel.house:armed_night'], 'the call succeeds and only the panel with a night mode arms');
  await t.rejects(core.services.call('alarm_control_panel', 'alarm_arm_night', { entity_id: 'alarm_control_panel.shed' }), {
    message: 'Entity alarm_control_panel.shed does not support action alarm_control_panel.alarm_arm_night.',
  });
});

t.test('service data: code is a string, and nothing else is accepted', async (t) => {
  const { call } = setup(t);
  await t.rejects(call('alarm_disarm', { code: { pin: 1 } }), {
    kind: 'invalid_service_data',
    message: "expected str for dictionary value @ data['code']",
  });
  await t.rejects(call('alarm_arm_away', { pin: '1234' }), {
    kind: 'invalid_service_data',
    message: "extra keys not allowed @ data['pin']",
  });
  await t.rejects(call('alarm_arm_away', { code: 'x'.repeat(256) }), {
    kind: 'invalid_service_data',
    message: "length of value must be at most 255 for dictionary value @ data['code']",
  });
});

t.test('scenes: reproduceState arms, disarms and ignores transitional states', async (t) => {
  const { core, state, waitFor } = setup(t);
  const reproduce = (s: string) => alarmControlPanelDomain.reproduceState?.(core, ID, { state: s, attributes: {} }, core.newContext());
  await reproduce('armed_vacation');
  await waitFor((s) => s.state === 'armed_vacation');
  await reproduce('pending');
  t.equal(state().state, 'armed_vacation');
  await reproduce('disarmed');
  t.equal(state().state, 'disarmed');
});

t.test('YAML options are validated with the allowed values in the message', async (t) => {
  t.same(parseIssues({}), []);
  t.same(parseIssues({ code: 1234, arming_time: 30 }), [], 'a numeric code may be written as a number');
  t.same(parseIssues({ arm_modes: ['armed_home', 'armed_sideways'] }), [
    'virtual.0.arm_modes.1: "armed_sideways" is not allowed: expected one of armed_home, armed_away, armed_night, armed_vacation, armed_custom_bypass',
  ]);
  t.same(parseIssues({ arm_modes: ['armed_home'], initial: 'armed_away' }), [
    `virtual.0.initial: "armed_away" is not one of the panel's arm_modes (armed_home)`,
  ]);
  t.same(parseIssues({ delay_time: -1 }), ['virtual.0.delay_time: -1 is not allowed: expected a number from 0 to 3600']);
  t.same(parseIssues({ code: '' }), ['virtual.0.code: must not be empty: leave it out for a panel without a code']);
  t.same(parseIssues({ initial: 'triggered' }), [
    'virtual.0.initial: "triggered" is not allowed: expected one of disarmed, armed_home, armed_away, armed_night, armed_vacation, armed_custom_bypass',
  ]);
});
