import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import type { Logger } from '../core/log.js';
import { readJsonFile, writeFileAtomic } from '../storage/atomic-file.js';
import type { Authenticator, Principal, TokenSummary, User } from './types.js';

interface StoredUser {
  id: string;
  name: string;
  username?: string;
  is_owner: boolean;
  is_admin: boolean;
  created_at: string;
}

interface StoredToken {
  id: string;
  user_id: string;
  name: string;
  /** SHA-256 of the token's secret part, hex. The token itself is never stored. */
  hash: string;
  created_at: string;
  last_used_at: string | null;
}

interface AuthFile {
  version: 1;
  users: StoredUser[];
  tokens: StoredToken[];
}

export const AUTH_FILE = 'auth.json';
/** last_used_at is kept in memory and written at most this often, to spare the SD card. */
const LAST_USED_FLUSH_MS = 10 * 60 * 1000;

/**
 * Users and long-lived access tokens, in `<data>/auth.json` (mode 0600, written atomically).
 *
 * A token is `<id>.<secret>`: the id finds the record, the secret (256 random bits) is checked against
 * its stored SHA-256 with a constant-time compare. A fast hash is right here: the secret has full entropy,
 * so there is nothing for a slow KDF to protect.
 */
export class AuthStore implements Authenticator {
  private readonly tokensById = new Map<string, StoredToken>();
  private readonly revokeListeners = new Set<(tokenId: string) => void>();
  private lastUsedDirty = false;
  private flushTimer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly path: string,
    private data: AuthFile,
    private readonly log: Logger,
  ) {
    for (const t of data.tokens) this.tokensById.set(t.id, t);
  }

  static async open(dataDir: string, log: Logger): Promise<AuthStore> {
    const path = join(dataDir, AUTH_FILE);
    const loaded = await readJsonFile<AuthFile>(path);
    let data: AuthFile = { version: 1, users: [], tokens: [] };
    if (loaded.status === 'ok' && Array.isArray(loaded.value.users) && Array.isArray(loaded.value.tokens)) data = loaded.value;
    else if (loaded.status === 'corrupt')
      log.error({ movedTo: loaded.movedTo }, 'auth file was corrupt; moved aside and starting with no users');
    return new AuthStore(path, data, log);
  }

  users(): User[] {
    return this.data.users.map(toUser);
  }

  owner(): User | undefined {
    const u = this.data.users.find((x) => x.is_owner);
    return u === undefined ? undefined : toUser(u);
  }

  getUser(id: string): User | undefined {
    const u = this.data.users.find((x) => x.id === id);
    return u === undefined ? undefined : toUser(u);
  }

  /** The owner, created (as an admin named `name`) if there is none yet. */
  async ensureOwner(name = 'Owner', username?: string): Promise<User> {
    const existing = this.owner();
    if (existing !== undefined) return existing;
    const user: StoredUser = {
      id: randomUUID().replace(/-/g, ''),
      name,
      is_owner: true,
      is_admin: true,
      created_at: new Date().toISOString(),
    };
    if (username !== undefined) user.username = username;
    this.data.users.push(user);
    await this.save();
    return toUser(user);
  }

  authenticate(token: string): Principal | undefined {
    const dot = token.indexOf('.');
    if (dot <= 0 || token.length > 256) return undefined;
    const record = this.tokensById.get(token.slice(0, dot));
    if (record === undefined) return undefined;
    const given = createHash('sha256')
      .update(token.slice(dot + 1))
      .digest();
    const stored = Buffer.from(record.hash, 'hex');
    if (stored.length !== given.length || !timingSafeEqual(given, stored)) return undefined;
    const user = this.data.users.find((u) => u.id === record.user_id);
    if (user === undefined) return undefined;
    record.last_used_at = new Date().toISOString();
    this.markLastUsedDirty();
    return { user: toUser(user), tokenId: record.id };
  }

  async createToken(userId: string, name: string): Promise<string> {
    if (!this.data.users.some((u) => u.id === userId)) throw new Error(`no user with id ${userId}`);
    const trimmed = name.trim();
    if (trimmed === '' || trimmed.length > 100) throw new Error('a token name needs 1 to 100 characters');
    if (this.data.tokens.some((t) => t.user_id === userId && t.name === trimmed)) {
      throw new Error(`${trimmed} already exists`);
    }
    const id = randomBytes(9).toString('base64url');
    const secret = randomBytes(32).toString('base64url');
    const record: StoredToken = {
      id,
      user_id: userId,
      name: trimmed,
      hash: createHash('sha256').update(secret).digest('hex'),
      created_at: new Date().toISOString(),
      last_used_at: null,
    };
    this.data.tokens.push(record);
    this.tokensById.set(id, record);
    await this.save();
    return `${id}.${secret}`;
  }

  listTokens(userId?: string): TokenSummary[] {
    return this.data.tokens
      .filter((t) => userId === undefined || t.user_id === userId)
      .map((t) => ({ id: t.id, name: t.name, userId: t.user_id, createdAt: t.created_at, lastUsedAt: t.last_used_at }));
  }

  findTokenByName(name: string, userId?: string): TokenSummary | undefined {
    return this.listTokens(userId).find((t) => t.name === name);
  }

  async revokeToken(tokenId: string): Promise<boolean> {
    const before = this.data.tokens.length;
    this.data.tokens = this.data.tokens.filter((t) => t.id !== tokenId);
    if (this.data.tokens.length === before) return false;
    this.tokensById.delete(tokenId);
    await this.save();
    for (const listener of this.revokeListeners) {
      try {
        listener(tokenId);
      } catch (err) {
        this.log.error({ err }, 'token revoke listener failed');
      }
    }
    return true;
  }

  onRevoke(listener: (tokenId: string) => void): () => void {
    this.revokeListeners.add(listener);
    return () => this.revokeListeners.delete(listener);
  }

  /** Writes pending last-used times; called on stop. */
  async close(): Promise<void> {
    if (this.flushTimer !== undefined) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.lastUsedDirty) await this.save();
    await this.writing;
  }

  private markLastUsedDirty(): void {
    this.lastUsedDirty = true;
    if (this.flushTimer !== undefined) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.save().catch((err: unknown) => this.log.error({ err }, 'could not save token last-used times'));
    }, LAST_USED_FLUSH_MS);
    this.flushTimer.unref();
  }

  /** Serialises writes so two saves never interleave. */
  private save(): Promise<void> {
    this.lastUsedDirty = false;
    const text = `${JSON.stringify(this.data, null, 2)}\n`;
    this.writing = this.writing.catch(() => {}).then(() => writeFileAtomic(this.path, text, 0o600));
    return this.writing;
  }
}

function toUser(u: StoredUser): User {
  const user: { -readonly [K in keyof User]: User[K] } = { id: u.id, name: u.name, isOwner: u.is_owner, isAdmin: u.is_admin };
  if (u.username !== undefined) user.username = u.username;
  return user;
}
