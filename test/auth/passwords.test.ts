import t from 'tap';
import {
  hashPassword,
  MAX_PASSWORD_LENGTH,
  PasswordCheckBusy,
  passwordProblem,
  SCRYPT_COST,
  verifyAgainstNothing,
  verifyPassword,
} from '../../src/auth/passwords.js';

t.test('a password hashes with scrypt, its cost and a fresh salt, and verifies', async (t) => {
  const a = await hashPassword('correct horse');
  const b = await hashPassword('correct horse');
  t.match(a, new RegExp(`^scrypt\\$${SCRYPT_COST.log2N}\\$${SCRYPT_COST.r}\\$${SCRYPT_COST.p}\\$[\\w-]{22}\\$[\\w-]{43}$`));
  t.not(a, b, 'a fresh salt each time');
  t.ok(await verifyPassword('correct horse', a));
  t.ok(await verifyPassword('correct horse', b));
  t.notOk(await verifyPassword('correct horse!', a));
  t.notOk(await verifyPassword('', a));
  t.notOk(await verifyPassword('x'.repeat(MAX_PASSWORD_LENGTH + 1), a), 'overlong input is refused without hashing');
});

t.test('malformed or tampered hashes never match and never run huge costs', async (t) => {
  const good = await hashPassword('pw-pw-pw-pw');
  const parts = good.split('$');
  for (const bad of [
    '',
    'bcrypt$x',
    parts.slice(0, 5).join('$'),
    ['scrypt', '30', ...parts.slice(2)].join('$'),
    ['scrypt', parts[1], '99', ...parts.slice(3)].join('$'),
    [...parts.slice(0, 5), 'short'].join('$'),
  ]) {
    t.notOk(await verifyPassword('pw-pw-pw-pw', bad), JSON.stringify(bad.slice(0, 30)));
  }
  t.equal(await verifyAgainstNothing('anything'), false);
});

t.test('password rules name what is wrong', async (t) => {
  t.equal(passwordProblem('short'), 'must have at least 8 characters');
  t.equal(passwordProblem('        '), 'must not be only spaces');
  t.equal(passwordProblem('x'.repeat(MAX_PASSWORD_LENGTH + 1)), `must have at most ${MAX_PASSWORD_LENGTH} characters`);
  t.equal(passwordProblem('long enough'), undefined);
});

t.test('a flood of checks is bounded: beyond the queue they are refused as busy, not queued', async (t) => {
  const hash = await hashPassword('pw-pw-pw-pw');
  const results = await Promise.allSettled(Array.from({ length: 30 }, () => verifyPassword('pw-pw-pw-pw', hash)));
  const busy = results.filter((r) => r.status === 'rejected' && r.reason instanceof PasswordCheckBusy).length;
  const ok = results.filter((r) => r.status === 'fulfilled' && r.value === true).length;
  t.equal(busy + ok, 30, 'every check either ran and matched or was refused');
  t.ok(busy >= 10, `at most 2 running + 16 waiting (${busy} refused)`);
  t.ok(await verifyPassword('pw-pw-pw-pw', hash), 'checks run again once the flood drained');
});
