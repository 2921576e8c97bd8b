import t from 'tap';
import type { Core } from '../../../src/core/core.js';
import { lockDomain } from '../../../src/domains/lock.js';
import type { Teardown } from '../../helpers/hub.js';
import { startVirtual, virtualIssues } from '../../helpers/virtual.js';
import { waitForState } from '../../helpers/wait.js';

const issuesOf = virtualIssues;
const start = (t: Teardown, yaml: string) => startVirtual(t, yaml, [lockDomain]);
const waitFor = waitForState;

/** Every state string `entityId` is written with from now on. */
function record(t: { teardown(fn: () => unknown): void }, core: Core, entityId: string): string[] {
  const seen: string[] = [];
  const off = core.bus.on('test', 'state_changed', (event) => {
    if (event.data.entity_id === entityId && event.data.new_state) seen.push(event.data.new_state.state);
  });
  t.teardown(off);
  return seen;
}

const CONFIG = `
- platform: lock
  id: front_door
  name: Front Door
  code: "1234"
  open: true
  transition_time: 0.05
  open_time: 0.05
- platform: lock
  id: shed
  name: Shed
  initial: unlocked
  transition_time: 0.02
  jam_after: 2
- platform: lock
  id: back_door
  name: Back Door
  transition_time: 0
  auto_lock: 0.05
- platform: lock
  id: cellar
  name: Cellar
  transition_time: 0
  jam_probability: 1
`;

t.test('locks start as configured; a numeric code implies its code_format', async (t) => {
  const core = await start(t, CONFIG);
  t.same(core.states.get('lock.front_door')?.attributes, { supported_features: 1, friendly_name: 'Front Door', code_format: '^\\d{4}$' });
  t.equal(core.states.get('lock.front_door')?.state, 'locked');
  t.equal(core.states.get('lock.shed')?.state, 'unlocked');
  t.same(core.states.get('lock.shed')?.attributes, { supported_features: 0, friendly_name: 'Shed' });
});

t.test('the bolt takes a moment: unlocking, unlocked; opening, open, then unlocked', async (t) => {
  const core = await start(t, CONFIG);
  const id = 'lock.front_door';
  const seen = record(t, core, id);
  await core.services.call('lock', 'unlock', { entity_id: id, code: '1234' });
  t.equal(core.states.get(id)?.state, 'unlocking');
  const unlocked = await waitFor(core, id, (s) => s.state === 'unlocked');
  t.equal(unlocked.attributes.changed_by, 'remote');
  await core.services.call('lock', 'open', { entity_id: id, code: '1234' });
  await waitFor(core, id, (s) => s.state === 'unlocked');
  await core.services.call('lock', 'lock', { entity_id: id, code: '1234' });
  await waitFor(core, id, (s) => s.state === 'locked');
  t.same(seen, ['unlocking', 'unlocked', 'opening', 'open', 'unlocked', 'locking', 'locked']);
});

t.test('codes: the wrong format is a validation error, the wrong code a device error', async (t) => {
  const core = await start(t, CONFIG);
  const id = 'lock.front_door';
  await t.rejects(core.services.call('lock', 'unlock', { entity_id: id, code: '12' }), {
    kind: 'service_validation',
    message: "Validation error: The code for lock.front_door doesn't match pattern ^\\d{4}$.",
  });
  await t.rejects(core.services.call('lock', 'unlock', { entity_id: id }), {
    kind: 'service_validation',
    message: /doesn't match pattern/,
  });
  await t.rejects(core.services.call('lock', 'unlock', { entity_id: id, code: '4321' }), {
    kind: 'hub_error',
    message: 'Wrong code for lock.front_door',
  });
  t.equal(core.states.get(id)?.state, 'locked', 'still locked');
  await t.rejects(core.services.call('lock', 'open', { entity_id: 'lock.shed' }), {
    message: 'Entity lock.shed does not support action lock.open.',
  });
});

t.test('jam_after jams every Nth operation; the next operation can clear it', async (t) => {
  const core = await start(t, CONFIG);
  const id = 'lock.shed';
  await core.services.call('lock', 'lock', { entity_id: id });
  await waitFor(core, id, (s) => s.state === 'locked');
  await core.services.call('lock', 'unlock', { entity_id: id });
  t.equal(core.states.get(id)?.state, 'unlocking');
  await waitFor(core, id, (s) => s.state === 'jammed');
  await core.services.call('lock', 'unlock', { entity_id: id });
  await waitFor(core, id, (s) => s.state === 'unlocked');
});

t.test('jam_probability draws on the random source', async (t) => {
  const core = await start(t, CONFIG);
  await core.services.call('lock', 'unlock', { entity_id: 'lock.cellar' });
  t.equal(core.states.get('lock.cellar')?.state, 'jammed');
});

t.test('auto_lock locks again after a while, saying so in changed_by', async (t) => {
  const core = await start(t, CONFIG);
  const id = 'lock.back_door';
  await core.services.call('lock', 'unlock', { entity_id: id });
  t.equal(core.states.get(id)?.state, 'unlocked');
  const relocked = await waitFor(core, id, (s) => s.state === 'locked');
  t.equal(relocked.attributes.changed_by, 'auto_lock');
});

t.test('configuration problems name the option and what is allowed', async (t) => {
  t.same(
    issuesOf(`
- platform: lock
  name: Bad
  code: abc
  code_format: "^\\\\d{4}$"
  initial: ajar
  jam_probability: 2
- platform: lock
  name: Worse
  code_format: "(["
`),
    [
      'virtual.0.code: does not match code_format',
      'virtual.0.initial: "ajar" is not allowed: expected one of locked, unlocked',
      'virtual.0.jam_probability: 2 is not allowed: expected a number from 0 to 1',
      'virtual.1.code_format: is not a valid regular expression: Invalid regular expression: /^(?:([)/: Unterminated character class',
    ],
  );
});
