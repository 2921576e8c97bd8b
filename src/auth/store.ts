// The auth store: users and long-lived tokens in auth.json, token checks, and the users' passwords through user-passwords.ts.
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isoFromMillis } from '../core/clock.js';
import type { Component } from '../core/component.js';
import { HubError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { DataFile, jsonOf, readDataFile } from '../storage/data-file.js';
import { type FileStamp, fileStampSync, WatchedFile } from '../storage/watched-file.js';
import { AccessTokens, type IssuedToken } from './access-tokens.js';
import {
  AUTH_FILE,
  type AuthFile,
  checkedUserName,
  emptyAuthFile,
  isAuthFile,
  newTokenRecord,
  type StoredToken,
  type StoredUser,
  toUser,
} from './auth-file.js';
import { LoginFlows } from './login-flows.js';
import { RefreshTokens } from './refresh-tokens.js';
import { PathSigner } from './signed-paths.js';
import type { Authenticator, Principal, TokenSummary, User } from './types.js';
import { UserPasswords } from './user-passwords.js';

export { AUTH_FILE } from './auth-file.js';

/** last_used_at is kept in memory and written at most this often, to spare the SD card. */
const LAST_USED_FLUSH_MS = 10 * 60 * 1000;
/** How often authenticate() may stat the file to notice changes made by the CLI (the watch is the fast path). */
const STAT_INTERVAL_MS = 1000;

/**
 * Users and long-lived access tokens, in `<data>/auth.json` (mode 0600, written atomically).
 *
 * A token is `<id>.<secret>`: the id finds the record, the secret (256 random bits) is checked against
 * its stored SHA-256 with a constant-time compare. A fast hash is right here: the secret has full entropy,
 * so there is nothing for a slow KDF to protect.
 */
export class AuthStore implements Authenticator, Component {
  readonly name = 'auth';
  private readonly tokensById = new Map<string, StoredToken>();
  private readonly revokeListeners = new Set<(tokenId: string) => void>();
  private lastUsedDirty = false;
  private flushTimer: NodeJS.Timeout | undefined;
  /** Writes auth.json; in the hub a write the disk refuses is retried and the users and tokens in memory stay the truth. */
  private readonly file: DataFile;
  /** The version of the file this store last read or wrote; another one means the CLI changed it. */
  private stamp: FileStamp | undefined;
  private lastStatAt = 0;
  /** In the hub: follows auth.json, which the CLI replaces when it creates or revokes a token. */
  private watched: WatchedFile | undefined;
  /** Page access tokens (short-lived, memory only). */
  private readonly accessTokens = new AccessTokens();
  /** @internal Passwords (user-passwords.ts); the store's own methods below are how the rest reaches them. */
  readonly passwords: UserPasswords;
  /** Apps signed in through Home Assistant's login flow (refresh_tokens.json) and their JWT access tokens. */
  readonly refreshTokens: RefreshTokens;
  /** Login flows in progress and their one-time authorization codes (memory only). */
  readonly loginFlows = new LoginFlows();
  private readonly paths = new PathSigner();

  private constructor(
    private readonly path: string,
    private data: AuthFile,
    private readonly log: Logger,
    /** The hub keeps serving from memory when the disk refuses a write; a CLI command must fail instead. */
    private readonly keepInMemory = false,
  ) {
    this.indexTokens();
    this.passwords = new UserPasswords(
      dirname(path),
      log,
      () => this.data.users,
      () => this.save(),
    );
    this.stamp = fileStampSync(path);
    this.refreshTokens = new RefreshTokens(dirname(path), log);
    // Deleting a refresh token closes what its access tokens opened, as revoking a long-lived token does.
    this.refreshTokens.onRemoved((id) => this.notifyRevoked(id));
    this.file = new DataFile({
      path,
      log,
      label: 'auth file',
      retry: keepInMemory ? undefined : false,
      // Each write first takes in what another process wrote since (read-modify-write), so the hub never
      // undoes a token the CLI created or revoked; a retry writes the latest content.
      render: () => {
        this.reloadIfChanged();
        this.lastUsedDirty = false;
        return `${JSON.stringify(this.data, null, 2)}\n`;
      },
      onWritten: () => {
        this.stamp = fileStampSync(this.path);
      },
    });
  }

  /** Opens `<dataDir>/auth.json`; with `watch` (the hub) the CLI's token changes apply at once. */
  static async open(dataDir: string, log: Logger, options: { watch?: boolean } = {}): Promise<AuthStore> {
    const store = AuthStore.unopened(dataDir, log, options);
    await store.start();
    return store;
  }

  /** The hub's store: a component whose start() reads the file (and watches it with `watch`). */
  static unopened(dataDir: string, log: Logger, options: { watch?: boolean } = {}): AuthStore {
    return new AuthStore(join(dataDir, AUTH_FILE), emptyAuthFile(), log, options.watch === true);
  }

  /** Reads the file (a corrupt one is moved aside: no users, no tokens) and, in the hub, starts watching it. */
  async start(): Promise<void> {
    const loaded = await readDataFile(this.path, {
      log: this.log,
      parse: jsonOf(isAuthFile, 'an auth file ({"users": [...], "tokens": [...]})'),
      label: 'auth file',
      fallback: 'starting with no users and no tokens',
    });
    this.data = loaded.status === 'ok' ? loaded.value : emptyAuthFile();
    this.indexTokens();
    await this.refreshTokens.load();
    this.stamp = fileStampSync(this.path);
    if (this.keepInMemory) {
      this.watched ??= new WatchedFile(this.dataDir, AUTH_FILE, () => this.reloadIfChanged(), {
        log: this.log,
        withoutWatch: 'token changes made by the CLI are seen within a second of the next request',
      });
      this.watched.start();
    }
  }

  stop(): Promise<void> {
    return this.close();
  }

  private indexTokens(): void {
    this.tokensById.clear();
    for (const t of this.data.tokens) this.tokensById.set(t.id, t);
  }

  /** Re-reads the file another process changed: tokens gone count as revoked, newer last-used times stay. */
  private reloadIfChanged(): void {
    const stamp = fileStampSync(this.path);
    if (stamp === this.stamp || stamp === undefined) return;
    let disk: unknown;
    try {
      disk = JSON.parse(readFileSync(this.path, 'utf8'));
    } catch (err) {
      this.log.error({ err }, 'auth file changed but cannot be read; keeping the users and tokens in memory');
      this.stamp = stamp;
      return;
    }
    if (!isAuthFile(disk)) return;
    this.stamp = stamp;
    const before = new Map(this.tokensById);
    const removed = [...before.keys()].filter((id) => !disk.tokens.some((t) => t.id === id));
    for (const t of disk.tokens) {
      const mine = before.get(t.id);
      if (mine?.last_used_at && (t.last_used_at === null || mine.last_used_at > t.last_used_at)) t.last_used_at = mine.last_used_at;
    }
    this.data = disk;
    this.indexTokens();
    if (removed.length > 0) this.log.info({ tokens: removed.length }, 'tokens revoked by another process');
    for (const id of removed) this.notifyRevoked(id);
  }

  /** The directory holding auth.json (sessions, credentials and bans live beside it). */
  get dataDir(): string {
    return dirname(this.path);
  }

  users(): User[] {
    return this.data.users.map(toUser);
  }

  /** The owner account (made at onboarding), if there is one yet. */
  ownerUser(): User | undefined {
    const u = this.data.users.find((x) => x.is_owner);
    return u === undefined ? undefined : toUser(u);
  }

  getUser(id: string): User | undefined {
    const u = this.data.users.find((x) => x.id === id);
    return u === undefined ? undefined : toUser(u);
  }

  /** The owner, created (as an admin named `name`) if there is none yet. */
  async ensureOwner(name = 'Owner', username?: string): Promise<User> {
    this.reloadIfChanged();
    const existing = this.ownerUser();
    if (existing !== undefined) return existing;
    const user: StoredUser = {
      id: randomUUID().replace(/-/g, ''),
      name,
      is_owner: true,
      is_admin: true,
      created_at: isoFromMillis(),
    };
    if (username !== undefined) user.username = username;
    this.data.users.push(user);
    await this.save();
    return toUser(user);
  }

  authenticate(token: string): Principal | undefined {
    const now = Date.now();
    if (now - this.lastStatAt >= STAT_INTERVAL_MS) {
      this.lastStatAt = now;
      this.reloadIfChanged();
    }
    const dot = token.indexOf('.');
    // Three parts: a JWT access token issued under a refresh token (an app signed in with a password).
    if (dot > 0 && token.indexOf('.', dot + 1) > dot) return this.authenticateJwt(token);
    if (dot <= 0 || token.length > 256) return undefined;
    const record = this.tokensById.get(token.slice(0, dot));
    if (record === undefined) return this.authenticateAccessToken(token.slice(0, dot), token.slice(dot + 1));
    const given = createHash('sha256')
      .update(token.slice(dot + 1))
      .digest();
    const stored = Buffer.from(record.hash, 'hex');
    if (stored.length !== given.length || !timingSafeEqual(given, stored)) return undefined;
    const user = this.data.users.find((u) => u.id === record.user_id);
    if (user === undefined || user.is_active === false) return undefined;
    record.last_used_at = isoFromMillis();
    this.markLastUsedDirty();
    return { user: toUser(user), tokenId: record.id };
  }

  async createToken(userId: string, name: string): Promise<string> {
    this.reloadIfChanged();
    if (!this.data.users.some((u) => u.id === userId)) throw new Error(`no user with id ${userId}`);
    const trimmed = name.trim();
    if (trimmed === '' || trimmed.length > 100) throw new Error('a token name needs 1 to 100 characters');
    if (this.data.tokens.some((t) => t.user_id === userId && t.name === trimmed)) {
      throw new Error(`${trimmed} already exists`);
    }
    const { record, token } = newTokenRecord(userId, trimmed);
    this.data.tokens.push(record);
    this.tokensById.set(record.id, record);
    await this.save();
    return token;
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
    this.reloadIfChanged();
    const before = this.data.tokens.length;
    this.data.tokens = this.data.tokens.filter((t) => t.id !== tokenId);
    if (this.data.tokens.length === before) return false;
    this.tokensById.delete(tokenId);
    await this.save();
    this.notifyRevoked(tokenId);
    return true;
  }

  private notifyRevoked(tokenId: string): void {
    for (const listener of this.revokeListeners) {
      try {
        listener(tokenId);
      } catch (err) {
        this.log.error({ err }, 'token revoke listener failed');
      }
    }
  }

  onRevoke(listener: (tokenId: string) => void): () => void {
    this.revokeListeners.add(listener);
    return () => this.revokeListeners.delete(listener);
  }

  /**
   * A 30-minute access token for a user, accepted wherever a long-lived token is. `group` names what
   * revokes it (a web session): its Principal carries the group as `tokenId`, so revoking the group
   * closes the WebSockets opened with any of its tokens, as revoking a long-lived token does.
   */
  issueAccessToken(userId: string, group: string): IssuedToken {
    if (!this.data.users.some((u) => u.id === userId)) throw new Error(`no user with id ${userId}`);
    return this.accessTokens.issue(userId, group);
  }

  /** Revokes every access token of a group at once and tells the revoke listeners. */
  revokeAccessTokens(group: string): void {
    this.accessTokens.revokeGroup(group);
    // Listeners run even when no token is left: a socket may have outlived its token's expiry.
    this.notifyRevoked(group);
  }

  /** A signed URL's `authSig` for `path` (with its query), valid `expiresS` seconds (`auth/sign_path`). */
  signPath(path: string, userId: string, tokenId: string, expiresS: number): string {
    return this.paths.sign(path, `${userId}:${tokenId}`, expiresS);
  }

  /** The principal of a signed path's `authSig` when it was signed for exactly `path` and has not expired. */
  verifySignedPath(path: string, authSig: string): Principal | undefined {
    const [userId = '', tokenId = ''] = this.paths.verify(path, authSig)?.split(':') ?? [];
    const user = this.data.users.find((u) => u.id === userId && u.is_active !== false);
    return user === undefined ? undefined : { user: toUser(user), tokenId };
  }

  private authenticateJwt(token: string): Principal | undefined {
    const owner = this.refreshTokens.verifyAccessToken(token);
    const user = owner === undefined ? undefined : this.data.users.find((u) => u.id === owner.userId);
    return owner === undefined || user === undefined || user.is_active === false
      ? undefined
      : { user: toUser(user), tokenId: owner.refreshId };
  }

  private authenticateAccessToken(id: string, secret: string): Principal | undefined {
    const owner = this.accessTokens.check(id, secret);
    if (owner === undefined) return undefined;
    const user = this.data.users.find((u) => u.id === owner.userId);
    return user === undefined || user.is_active === false ? undefined : { user: toUser(user), tokenId: owner.groupId };
  }

  /** True once any password was ever set: the web onboarding is then closed for good. */
  onboarded = (): Promise<boolean> => this.passwords.onboarded();
  /** The login name of a user who has a password. */
  usernameOf = (userId: string): Promise<string | undefined> => this.passwords.usernameOf(userId);
  /** Sets a user's username and password; problems are HubErrors naming the field (`username`, `password`). */
  setPassword = (userId: string, username: string, password: string): Promise<void> =>
    this.passwords.setPassword(userId, username, password);

  /** The user whose username and password these are; the same work is done for unknown usernames. */
  async checkPassword(username: string, password: string): Promise<User | undefined> {
    const user = await this.passwords.checkPassword(username, password);
    return user?.isActive === false ? undefined : user;
  }

  /**
   * @internal For user-admin.ts: changes the users under the store's rules (the file read again first, written after).
   * `fn` may throw a HubError; nothing is written then.
   */
  async editUsers<T>(fn: (data: AuthFile) => T): Promise<T> {
    this.reloadIfChanged();
    const result = fn(this.data);
    await this.save();
    return result;
  }

  /**
   * @internal Closes what a user's tokens opened and ends their pages' access tokens and their apps' sign-ins; `drop`
   * forgets the long-lived tokens too.
   */
  endSessions(userId: string, drop: boolean): void {
    const theirs = this.data.tokens.filter((t) => t.user_id === userId);
    if (drop) this.data.tokens = this.data.tokens.filter((t) => t.user_id !== userId);
    this.indexTokens();
    for (const t of theirs) this.notifyRevoked(t.id);
    for (const group of this.accessTokens.groupsOf(userId)) this.revokeAccessTokens(group);
    void this.refreshTokens.removeUser(userId);
  }

  /** Renames a user (the display name, not the login). */
  async renameUser(userId: string, name: string): Promise<void> {
    if (this.getUser(userId)?.name === name.trim()) return;
    await this.editUsers((data) => {
      const user = data.users.find((u) => u.id === userId);
      if (user === undefined) throw new HubError('not_found', 'User not found');
      user.name = checkedUserName(name);
    });
  }

  /** Writes pending last-used times; called on stop. */
  async close(): Promise<void> {
    this.watched?.stop();
    if (this.flushTimer !== undefined) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.lastUsedDirty) await this.save();
    await this.file.stop();
    await this.refreshTokens.close();
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

  /** Writes auth.json (one write at a time); in the hub a refused write is logged and retried, memory stays the truth. */
  private save(): Promise<void> {
    const saved = this.file.save();
    return this.keepInMemory ? saved.catch(() => {}) : saved;
  }
}
