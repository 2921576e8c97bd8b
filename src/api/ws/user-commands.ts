import type { User } from '../../auth/types.js';
import { createUser, deleteUser, updateUser } from '../../auth/user-admin.js';
import { HubError } from '../../core/errors.js';
import type { JsonObject } from '../../core/json.js';
import { command, requireAdmin, userOf } from './command.js';
import type { Command, Connection } from './connection.js';
import { bool, optional, required, str, strList } from './schema.js';

/**
 * Home Assistant's user management (components/config/auth.py and auth_provider_homeassistant.py): users
 * with `group_ids` `system-admin` or `system-users`, logins of the `homeassistant` provider (username and
 * password). Admins manage users; anyone changes their own password with the current one.
 */

const ADMIN_GROUP = 'system-admin';
const USER_GROUP = 'system-users';
const groupList = strList(4);

async function userInfo(conn: Connection, user: User): Promise<JsonObject> {
  const username = (await conn.env.ctx.auth.usernameOf(user.id)) ?? null;
  return {
    id: user.id,
    username,
    name: user.name,
    is_owner: user.isOwner,
    is_active: user.isActive !== false,
    local_only: false,
    system_generated: false,
    group_ids: [user.isAdmin ? ADMIN_GROUP : USER_GROUP],
    credentials: username === null ? [] : [{ type: 'homeassistant' }],
  };
}

/** `group_ids` to the admin flag; each id must be one of HA's two groups. */
function adminOf(groups: string[] | undefined): boolean | undefined {
  if (groups === undefined) return undefined;
  for (const g of groups) {
    if (g !== ADMIN_GROUP && g !== USER_GROUP) {
      throw new HubError(
        'invalid_format',
        `unknown group @ data['group_ids']: expected ${ADMIN_GROUP} or ${USER_GROUP}. Got ${JSON.stringify(g)}`,
      );
    }
  }
  return groups.includes(ADMIN_GROUP);
}

function existing(conn: Connection, userId: string): User {
  const user = conn.env.ctx.auth.getUser(userId);
  if (user === undefined) throw new HubError('not_found', 'User not found');
  return user;
}

const list = command({}, async (conn, _msg, id) => {
  requireAdmin(conn);
  const users = await Promise.all(conn.env.ctx.auth.users().map((u) => userInfo(conn, u)));
  conn.sendResult(id, JSON.stringify(users));
});

const create = command({ name: required(str), group_ids: optional(groupList), local_only: optional(bool) }, async (conn, msg, id) => {
  requireAdmin(conn);
  const user = await createUser(conn.env.ctx.auth, msg.name, adminOf(msg.group_ids) ?? false);
  conn.sendResult(id, JSON.stringify({ user: await userInfo(conn, user) }));
});

const update = command(
  { user_id: required(str), name: optional(str), is_active: optional(bool), group_ids: optional(groupList), local_only: optional(bool) },
  async (conn, msg, id) => {
    const me = requireAdmin(conn);
    existing(conn, msg.user_id);
    if (msg.user_id === me.id && msg.is_active === false) throw new HubError('invalid_format', 'Unable to deactivate your own account');
    const user = await updateUser(conn.env.ctx.auth, msg.user_id, {
      name: msg.name,
      isActive: msg.is_active,
      isAdmin: adminOf(msg.group_ids),
    });
    conn.sendResult(id, JSON.stringify({ user: await userInfo(conn, user) }));
  },
);

const remove = command({ user_id: required(str) }, async (conn, msg, id) => {
  const me = requireAdmin(conn);
  if (msg.user_id === me.id) throw new HubError('no_delete_self', 'Unable to remove your own account');
  existing(conn, msg.user_id);
  await deleteUser(conn.env.ctx.auth, msg.user_id);
  conn.sendResult(id, 'null');
});

const providerCreate = command({ user_id: required(str), username: required(str), password: required(str) }, async (conn, msg, id) => {
  requireAdmin(conn);
  existing(conn, msg.user_id);
  const auth = conn.env.ctx.auth;
  if ((await auth.usernameOf(msg.user_id)) !== undefined) throw new HubError('credentials_exist', 'User already has credentials.');
  await auth.setPassword(msg.user_id, msg.username, msg.password);
  conn.sendResult(id, 'null');
});

const changePassword = command({ current_password: required(str), new_password: required(str) }, async (conn, msg, id) => {
  const me = userOf(conn);
  const auth = conn.env.ctx.auth;
  const username = await auth.usernameOf(me.id);
  if (username === undefined) throw new HubError('credentials_not_found', 'Credentials not found');
  if ((await auth.checkPassword(username, msg.current_password))?.id !== me.id) {
    throw new HubError('invalid_current_password', 'Invalid current password');
  }
  await auth.setPassword(me.id, username, msg.new_password);
  conn.sendResult(id, 'null');
});

const adminChangePassword = command({ user_id: required(str), password: required(str) }, async (conn, msg, id) => {
  requireAdmin(conn);
  existing(conn, msg.user_id);
  const auth = conn.env.ctx.auth;
  const username = await auth.usernameOf(msg.user_id);
  if (username === undefined) throw new HubError('credentials_not_found', 'Credentials not found');
  await auth.setPassword(msg.user_id, username, msg.password);
  conn.sendResult(id, 'null');
});

export const USER_COMMANDS: readonly [string, Command][] = [
  ['config/auth/list', list],
  ['config/auth/create', create],
  ['config/auth/update', update],
  ['config/auth/delete', remove],
  ['config/auth_provider/homeassistant/create', providerCreate],
  ['config/auth_provider/homeassistant/change_password', changePassword],
  ['config/auth_provider/homeassistant/admin_change_password', adminChangePassword],
];
