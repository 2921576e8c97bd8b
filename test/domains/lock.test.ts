import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { addLock, LOCK_STATES, type LockPlatform, lockDomain } from '../../src/domains/lock.js';

function setup(options: { codeFormat?: string; canOpen?: boolean } = {}) {
  const core = new Core({ log: silentLogger, clock: new ManualClock() });
  lockDomain.registerServices(core);
  const calls: string[] = [];
  const platform: LockPlatform = {
    lock: (code) => {
      calls.push(`lock:${code ?? ''}`);
      lock.report({ state: 'locked', changedBy: 'app' });
    },
    unlock: (code) => {
      calls.push(`unlock:${code ?? ''}`);
      lock.report({ state: 'unlocked', changedBy: 'app' });
    },
  };
  if (options.canOpen) {
    platform.open = (code) => {
      calls.push(`open:${code ?? ''}`);
      lock.report({ state: 'open', changedBy: 'app' });
    };
  }
  const lock = addLock(core, { entityId: 'lock.front_door', name: 'Front Door', owner: 'test', codeFormat: options.codeFormat, platform });
  lock.report({ state: 'locked' });
  const call = (service: string, data: Record<string, unknown> = {}) =>
    core.services.call('lock', service, { entity_id: 'lock.front_door', ...data } as never);
  const state = () => core.states.get('lock.front_door');
  return { core, lock, calls, call, state };
}

t.test('every lock state renders, with changed_by and code_format only when set', async (t) => {
  const { lock, state } = setup({ codeFormat: '^\\d{4}$', canOpen: true });
  t.same(state()?.attributes, { supported_features: 1, friendly_name: 'Front Door', code_format: '^\\d{4}$' });
  for (const s of LOCK_STATES) {
    lock.report({ state: s, changedBy: 'keypad' });
    t.equal(state()?.state, s);
  }
  t.equal(state()?.attributes.changed_by, 'keypad');
  lock.report({ state: null });
  t.equal(state()?.state, 'unknown');
  const plain = setup();
  t.same(plain.state()?.attributes, { supported_features: 0, friendly_name: 'Front Door' });
});

t.test('lock, unlock and open reach the platform with the code', async (t) => {
  const { call, calls, state } = setup({ canOpen: true });
  await call('unlock', { code: '1234' });
  t.equal(state()?.state, 'unlocked');
  t.equal(state()?.attributes.changed_by, 'app');
  await call('open');
  t.equal(state()?.state, 'open');
  await call('lock', { code: '' });
  t.same(calls, ['unlock:1234', 'open:', 'lock:'], 'an empty code is no code');
});

t.test('a code must match code_format, from its start as re.match does', async (t) => {
  const { call, calls } = setup({ codeFormat: '^\\d{4}$' });
  const refused = { kind: 'service_validation', message: "Validation error: The code for lock.front_door doesn't match pattern ^\\d{4}$." };
  await t.rejects(call('unlock', { code: '12a4' }), refused);
  await t.rejects(call('unlock'), refused, 'no code counts as an empty one');
  await t.rejects(call('lock', { code: '12345' }), refused);
  await call('unlock', { code: 1234 });
  t.same(calls, ['unlock:1234'], 'a number is coerced to its string');

  const prefix = setup({ codeFormat: '\\d{4}' });
  await prefix.call('unlock', { code: '12345' });
  t.same(prefix.calls, ['unlock:12345'], 'unanchored patterns match a prefix, like Python re.match');
  await t.rejects(prefix.call('unlock', { code: 'x1234' }), { message: /doesn't match pattern \\d\{4\}\./ });
});

t.test('bad fields and missing features are refused', async (t) => {
  const { call, calls } = setup();
  await t.rejects(call('lock', { code: { pin: 1 } }), {
    kind: 'invalid_service_data',
    message: /expected str for dictionary value @ data\['code'\]/,
  });
  await t.rejects(call('lock', { pin: '1' }), { message: /extra keys not allowed @ data\['pin'\]/ });
  await t.rejects(call('open'), { kind: 'service_validation', message: 'Entity lock.front_door does not support action lock.open.' });
  await call('open', { entity_id: 'all' });
  t.same(calls, []);
});

t.test('an unavailable lock drops code_format and changed_by and is skipped', async (t) => {
  const { lock, call, calls, state } = setup({ codeFormat: '^\\d{4}$' });
  lock.entity.markUnavailable();
  t.equal(state()?.state, 'unavailable');
  t.same(state()?.attributes, { supported_features: 0, friendly_name: 'Front Door' });
  await call('unlock', { code: '1234' });
  t.same(calls, []);
});

t.test('scenes lock, unlock or open when the lock is elsewhere', async (t) => {
  const { core, calls } = setup({ canOpen: true });
  const reproduce = (state: string) => lockDomain.reproduceState?.(core, 'lock.front_door', { state, attributes: {} }, core.newContext());
  await reproduce('locked');
  await reproduce('unlocked');
  await reproduce('unlocking');
  await reproduce('open');
  await reproduce('locking');
  await reproduce('jammed');
  t.same(calls, ['unlock:', 'open:', 'lock:']);
});
