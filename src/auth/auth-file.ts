// The shape of `<data>/auth.json`: users and long-lived tokens as stored, and a stored user as the hub's User.
import type { User } from './types.js';

export const AUTH_FILE = 'auth.json';

export interface StoredUser {
  id: string;
  name: string;
  username?: string;
  is_owner: boolean;
  is_admin: boolean;
  created_at: string;
}

export interface StoredToken {
  id: string;
  user_id: string;
  name: string;
  /** SHA-256 of the token's secret part, hex. The token itself is never stored. */
  hash: string;
  created_at: string;
  last_used_at: string | null;
}

export interface AuthFile {
  version: 1;
  users: StoredUser[];
  tokens: StoredToken[];
}

export function isAuthFile(value: unknown): value is AuthFile {
  const v = value as Partial<AuthFile> | null;
  return typeof v === 'object' && v !== null && Array.isArray(v.users) && Array.isArray(v.tokens);
}

export function emptyAuthFile(): AuthFile {
  return { version: 1, users: [], tokens: [] };
}

export function toUser(u: StoredUser): User {
  const user: { -readonly [K in keyof User]: User[K] } = { id: u.id, name: u.name, isOwner: u.is_owner, isAdmin: u.is_admin };
  if (u.username !== undefined) user.username = u.username;
  return user;
}
