import t from 'tap';
import { startTestHub } from '../../helpers/hub.js';
import { WsClient, type WsMessage, withDeadline } from './client.js';

function result<T = unknown>(m: WsMessage): T {
  if (m.success !== true) throw new Error(`command failed: ${JSON.stringify(m)}`);
  return m.result as T;
}

function error(m: WsMessage): { code: string; message: string } {
  if (m.success !== false) throw new Error(`command succeeded: ${JSON.stringify(m)}`);
  return m.error as { code: string; message: string };
}

type UserInfo = { id: string; name: string; username: string | null; is_active: boolean; group_ids: string[]; is_owner: boolean };

t.test("config/auth/* and the homeassistant provider's commands manage users as Home Assistant's", async (t) => {
  const th = await startTestHub(t);
  const admin = await WsClient.authenticated(th.wsUrl, th.token);
  t.teardown(() => admin.close());

  const before = result<UserInfo[]>(await admin.command('config/auth/list'));
  t.equal(before.length, 1);
  t.same(before[0]?.group_ids, ['system-admin']);
  t.equal(before[0]?.is_owner, true);

  const { user } = result<{ user: UserInfo }>(await admin.command('config/auth/create', { name: 'Kid', group_ids: ['system-users'] }));
  t.match(user, { name: 'Kid', is_active: true, group_ids: ['system-users'], username: null, is_owner: false });
  t.equal(error(await admin.command('config/auth/create', { name: 'X', group_ids: ['root'] })).code, 'invalid_format');

  result(
    await admin.command('config/auth_provider/homeassistant/create', { user_id: user.id, username: 'kid', password: 'long enough pw' }),
  );
  t.equal(
    error(
      await admin.command('config/auth_provider/homeassistant/create', { user_id: user.id, username: 'kid2', password: 'long enough pw' }),
    ).code,
    'credentials_exist',
  );
  t.equal((await th.hub.auth.checkPassword('kid', 'long enough pw'))?.id, user.id, 'the new user can log in');

  // The kid is no admin: user management is refused, their own password change works with the current one.
  const kidToken = await th.hub.auth.createToken(user.id, 'kid phone');
  const kid = await WsClient.authenticated(th.wsUrl, kidToken);
  t.teardown(() => kid.close());
  t.equal(error(await kid.command('config/auth/list')).code, 'unauthorized');
  t.equal(
    error(
      await kid.command('config/auth_provider/homeassistant/change_password', {
        current_password: 'wrong one',
        new_password: 'another long pw',
      }),
    ).code,
    'invalid_current_password',
  );
  result(
    await kid.command('config/auth_provider/homeassistant/change_password', {
      current_password: 'long enough pw',
      new_password: 'another long pw',
    }),
  );
  t.equal((await th.hub.auth.checkPassword('kid', 'another long pw'))?.id, user.id);

  result(await admin.command('config/auth_provider/homeassistant/admin_change_password', { user_id: user.id, password: 'reset by admin' }));
  t.equal((await th.hub.auth.checkPassword('kid', 'reset by admin'))?.id, user.id);

  // Deactivating closes the kid's socket and refuses their token and password.
  const closed = withDeadline(kid.closed, 3000, "the kid's socket to close");
  const updated = result<{ user: UserInfo }>(
    await admin.command('config/auth/update', { user_id: user.id, is_active: false, name: 'Kiddo' }),
  );
  t.match(updated.user, { name: 'Kiddo', is_active: false });
  await closed;
  t.equal(th.hub.auth.authenticate(kidToken), undefined, 'the token no longer works');
  t.equal(await th.hub.auth.checkPassword('kid', 'reset by admin'), undefined, 'nor the password');

  const owner = before[0] as UserInfo;
  t.equal(error(await admin.command('config/auth/update', { user_id: owner.id, is_active: false })).code, 'invalid_format');
  t.equal(error(await admin.command('config/auth/delete', { user_id: owner.id })).code, 'no_delete_self');
  t.equal(error(await admin.command('config/auth/delete', { user_id: 'nobody' })).code, 'not_found');
  result(await admin.command('config/auth/delete', { user_id: user.id }));
  t.same(
    result<UserInfo[]>(await admin.command('config/auth/list')).map((u) => u.id),
    [owner.id],
  );
});
