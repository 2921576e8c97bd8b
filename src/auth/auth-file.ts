// The shape of `<data>/auth.json`: users and long-lived tokens as stored, and a stored user as the hub's User.
import { createHash, randomBytes } from 'node:crypto';
import { HubError } from '../core/errors.js';
import type { User } from './types.js';

export const AUTH_FILE = 'auth.json';

export interface StoredUser {
  id: string;
  name: string;
  username?: string;
  is_owner: boolean;
  is_admin: boolean;
  /** false: deactivated (no login, no token works); missing in files from before it existed. */
  is_active?: boolean;
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
  if (u.is_active === false) user.isActive = false;
  if (u.username !== undefined) user.username = u.username;
  return user;
}

/** A user's display name, trimmed; 1 to 100 characters. */
export function checkedUserName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > 100) throw new HubError('invalid_format', 'name must have 1 to 100 characters');
  return trimmed;
}

/** A new long-lived token's record (only the secret's SHA-256 is kept) and the token, shown once. */
export function newTokenRecord(userId: string, name: string): { readonly record: StoredToken; readonly token: string } {
  const id = randomBytes(9).toString('base64url');
  const secret = randomBytes(32).toString('base64url');
  const record: StoredToken = {
    id,
    user_id: userId,
    name,
    hash: createHash('sha256').update(secret).digest('hex'),
    created_at: new Date().toISOString(),
    last_used_at: null,
  };
  return { record, token: `${id}.${secret}` };
}
