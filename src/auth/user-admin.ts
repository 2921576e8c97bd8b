// Adding, changing and removing users (config/auth/create, update, delete), under the auth store's rules.
import { randomUUID } from 'node:crypto';
import { isoFromMillis } from '../core/clock.js';
import { HubError } from '../core/errors.js';
import { checkedUserName, type StoredUser, toUser } from './auth-file.js';
import type { AuthStore } from './store.js';
import type { User } from './types.js';

/** A new user (not the owner), without a login until setPassword gives one. */
export function createUser(store: AuthStore, name: string, isAdmin: boolean): Promise<User> {
  const user: StoredUser = {
    id: randomUUID().replace(/-/g, ''),
    name: checkedUserName(name),
    is_owner: false,
    is_admin: isAdmin,
    is_active: true,
    created_at: isoFromMillis(),
  };
  return store.editUsers((data) => {
    data.users.push(user);
    return toUser(user);
  });
}

/** Changes a user's name, admin group or active flag; deactivating ends their tokens and their apps' sign-ins. */
export async function updateUser(
  store: AuthStore,
  userId: string,
  change: { name?: string; isAdmin?: boolean; isActive?: boolean },
): Promise<User> {
  const updated = await store.editUsers((data) => {
    const user = data.users.find((u) => u.id === userId);
    if (user === undefined) throw new HubError('not_found', 'User not found');
    if (user.is_owner && (change.isActive === false || change.isAdmin === false)) {
      throw new HubError('invalid_format', 'The owner stays an active administrator');
    }
    if (change.name !== undefined) user.name = checkedUserName(change.name);
    if (change.isAdmin !== undefined) user.is_admin = change.isAdmin;
    if (change.isActive !== undefined) user.is_active = change.isActive;
    return toUser(user);
  });
  if (change.isActive === false) store.endSessions(userId, false);
  return updated;
}

/** Removes a user (not the owner) with every token and sign-in of theirs. */
export async function deleteUser(store: AuthStore, userId: string): Promise<void> {
  await store.editUsers((data) => {
    const user = data.users.find((u) => u.id === userId);
    if (user === undefined) throw new HubError('not_found', 'User not found');
    if (user.is_owner) throw new HubError('invalid_format', 'The owner cannot be deleted');
    data.users = data.users.filter((u) => u.id !== userId);
  });
  await store.passwords.remove(userId);
  store.endSessions(userId, true);
}
