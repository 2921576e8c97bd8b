// Refresh tokens of apps signed in through Home Assistant's login flow (the Companion apps, the HA frontend), in
// <data>/refresh_tokens.json, and the 30-minute access tokens they issue as JWTs, as Home Assistant's auth does.
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import { isoFromMillis } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import { DataFile, jsonOf, readDataFile } from '../storage/data-file.js';

export const REFRESH_TOKENS_FILE = 'refresh_tokens.json';
/** Home Assistant's ACCESS_TOKEN_EXPIRATION. */
export const ACCESS_TOKEN_EXPIRATION_S = 1800;
/** An unused refresh token expires after this long (Home Assistant's REFRESH_TOKEN_EXPIRATION, 90 days). */
export const REFRESH_TOKEN_EXPIRATION_MS = 90 * 24 * 60 * 60 * 1000;
/** Last use is written at most this often per token, to spare the SD card. */
const LAST_USED_WRITE_MS = 60 * 60 * 1000;
/** Bounds: a person signs in on a few phones and browsers; beyond this the least recently used goes. */
export const MAX_REFRESH_TOKENS_PER_USER = 100;
const MAX_REFRESH_TOKENS = 1000;
const MAX_CLIENT_TEXT = 300;

export interface StoredRefreshToken {
  id: string;
  user_id: string;
  client_id: string | null;
  client_name: string | null;
  client_icon: string | null;
  token_type: 'normal';
  /** SHA-256 of the token, hex: the file alone lets nobody in. */
  hash: string;
  /** Signs this token's access tokens: deleting the refresh token invalidates them at once, as in Home Assistant. */
  jwt_key: string;
  created_at: string;
  last_used_at: string | null;
  last_used_ip: string | null;
  expire_at: number;
}

interface RefreshFile {
  version: 1;
  refresh_tokens: StoredRefreshToken[];
}

/** A refresh token as the WebSocket API and the profile page list it. */
export interface RefreshTokenInfo {
  readonly id: string;
  readonly userId: string;
  readonly clientId: string | null;
  readonly clientName: string | null;
  readonly clientIcon: string | null;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
  readonly lastUsedIp: string | null;
  /** Seconds since the epoch, as Home Assistant's `expire_at`. */
  readonly expireAt: number;
}

export interface NewRefreshToken {
  readonly clientId: string | null;
  readonly clientName?: string | null;
  readonly clientIcon?: string | null;
}

export class RefreshTokens {
  private readonly byId = new Map<string, StoredRefreshToken>();
  private readonly byHash = new Map<string, StoredRefreshToken>();
  private readonly file: DataFile;
  private readonly removedListeners = new Set<(id: string) => void>();

  constructor(
    private readonly dataDir: string,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.file = new DataFile({
      path: join(dataDir, REFRESH_TOKENS_FILE),
      log,
      label: 'refresh tokens file',
      render: () => `${JSON.stringify({ version: 1, refresh_tokens: [...this.byId.values()] } satisfies RefreshFile, null, 1)}\n`,
    });
  }

  async load(): Promise<void> {
    const loaded = await readDataFile(join(this.dataDir, REFRESH_TOKENS_FILE), {
      log: this.log,
      parse: jsonOf(isRefreshFile, 'a refresh tokens file ({"refresh_tokens": [...]})'),
      label: 'refresh tokens file',
      fallback: 'apps signed in with a password sign in again',
    });
    this.byId.clear();
    this.byHash.clear();
    if (loaded.status !== 'ok') return;
    const now = this.now();
    for (const t of loaded.value.refresh_tokens) {
      if (!isStoredRefreshToken(t) || t.expire_at * 1000 <= now) continue;
      this.byId.set(t.id, t);
      this.byHash.set(t.hash, t);
    }
  }

  async close(): Promise<void> {
    await this.file.stop();
  }

  /** Told when a refresh token is deleted, so the connections that its access tokens opened can close. */
  onRemoved(listener: (id: string) => void): () => void {
    this.removedListeners.add(listener);
    return () => this.removedListeners.delete(listener);
  }

  /** A new refresh token for a user; the token text is returned once and only its hash is kept. */
  async create(userId: string, client: NewRefreshToken): Promise<{ readonly token: string; readonly info: RefreshTokenInfo }> {
    const token = randomBytes(64).toString('hex');
    const now = this.now();
    const stored: StoredRefreshToken = {
      id: randomUUID().replace(/-/g, ''),
      user_id: userId,
      client_id: clip(client.clientId),
      client_name: clip(client.clientName ?? null),
      client_icon: clip(client.clientIcon ?? null),
      token_type: 'normal',
      hash: sha256Hex(token),
      jwt_key: randomBytes(64).toString('hex'),
      created_at: isoFromMillis(now),
      last_used_at: null,
      last_used_ip: null,
      expire_at: Math.floor((now + REFRESH_TOKEN_EXPIRATION_MS) / 1000),
    };
    this.dropBeyondBounds(userId);
    this.byId.set(stored.id, stored);
    this.byHash.set(stored.hash, stored);
    await this.save();
    return { token, info: infoOf(stored) };
  }

  /** The refresh token of a token text, or undefined when unknown or expired. */
  find(token: string): RefreshTokenInfo | undefined {
    if (token.length === 0 || token.length > 256) return undefined;
    const stored = this.byHash.get(sha256Hex(token));
    if (stored === undefined) return undefined;
    if (stored.expire_at * 1000 <= this.now()) {
      void this.remove(stored.id);
      return undefined;
    }
    return infoOf(stored);
  }

  get(id: string): RefreshTokenInfo | undefined {
    const stored = this.byId.get(id);
    return stored === undefined ? undefined : infoOf(stored);
  }

  list(userId: string): RefreshTokenInfo[] {
    return [...this.byId.values()].filter((t) => t.user_id === userId).map(infoOf);
  }

  /** A 30-minute access token (a JWT signed with the refresh token's own key); records the use. */
  accessToken(refreshId: string, remoteIp: string | null): string {
    const stored = this.byId.get(refreshId);
    if (stored === undefined) throw new Error(`no refresh token ${refreshId}`);
    const now = this.now();
    const lastUsed = stored.last_used_at === null ? 0 : Date.parse(stored.last_used_at);
    const changed = stored.last_used_ip !== remoteIp || now - lastUsed >= LAST_USED_WRITE_MS;
    stored.last_used_at = isoFromMillis(now);
    stored.last_used_ip = remoteIp;
    stored.expire_at = Math.floor((now + REFRESH_TOKEN_EXPIRATION_MS) / 1000);
    if (changed) void this.save();
    const iat = Math.floor(now / 1000);
    return signJwt({ iss: stored.id, iat, exp: iat + ACCESS_TOKEN_EXPIRATION_S }, stored.jwt_key);
  }

  /** The refresh token and user of a valid, unexpired access token (a JWT this store signed). */
  verifyAccessToken(jwt: string): { readonly refreshId: string; readonly userId: string } | undefined {
    const claims = readJwt(jwt, (iss) => this.byId.get(iss)?.jwt_key);
    if (claims === undefined || claims.exp * 1000 <= this.now()) return undefined;
    const stored = this.byId.get(claims.iss);
    return stored === undefined ? undefined : { refreshId: stored.id, userId: stored.user_id };
  }

  async remove(id: string): Promise<boolean> {
    const stored = this.byId.get(id);
    if (stored === undefined) return false;
    this.byId.delete(id);
    this.byHash.delete(stored.hash);
    await this.save();
    for (const listener of this.removedListeners) {
      try {
        listener(id);
      } catch (err) {
        this.log.error({ err }, 'refresh token listener failed');
      }
    }
    return true;
  }

  /** Deletes every refresh token of a user (a deactivated or removed user). */
  async removeUser(userId: string): Promise<void> {
    for (const t of [...this.byId.values()]) if (t.user_id === userId) await this.remove(t.id);
  }

  private dropBeyondBounds(userId: string): void {
    const mine = [...this.byId.values()].filter((t) => t.user_id === userId);
    if (mine.length >= MAX_REFRESH_TOKENS_PER_USER) {
      mine.sort((a, b) => (a.last_used_at ?? a.created_at).localeCompare(b.last_used_at ?? b.created_at));
      for (const t of mine.slice(0, mine.length - MAX_REFRESH_TOKENS_PER_USER + 1)) void this.remove(t.id);
    }
    while (this.byId.size >= MAX_REFRESH_TOKENS) {
      const oldest = this.byId.keys().next();
      if (oldest.done === true) break;
      void this.remove(oldest.value);
    }
  }

  /** Never rejects: a refused write is logged once by the DataFile and retried; memory stays the truth. */
  private save(): Promise<void> {
    return this.file.save().catch(() => {});
  }
}

function clip(text: string | null): string | null {
  return text === null ? null : text.slice(0, MAX_CLIENT_TEXT);
}

function infoOf(t: StoredRefreshToken): RefreshTokenInfo {
  return {
    id: t.id,
    userId: t.user_id,
    clientId: t.client_id,
    clientName: t.client_name,
    clientIcon: t.client_icon,
    createdAt: t.created_at,
    lastUsedAt: t.last_used_at,
    lastUsedIp: t.last_used_ip,
    expireAt: t.expire_at,
  };
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

// ---- JWT (HS256), as Home Assistant's access tokens ------------------------------------------------

const JWT_HEADER = Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url');
const MAX_JWT_LENGTH = 2048;

export interface JwtClaims {
  readonly iss: string;
  readonly iat: number;
  readonly exp: number;
  readonly path?: string;
  readonly params?: Record<string, string>;
}

export function signJwt(claims: JwtClaims, key: string): string {
  const body = `${JWT_HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
}

/** The claims of a JWT whose signature checks with the key its issuer names; never throws on what it is given. */
export function readJwt(jwt: string, keyOf: (issuer: string) => string | undefined): JwtClaims | undefined {
  if (jwt.length > MAX_JWT_LENGTH) return undefined;
  const parts = jwt.split('.');
  if (parts.length !== 3 || parts[0] !== JWT_HEADER) return undefined;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(parts[1] ?? '', 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isClaims(claims)) return undefined;
  const key = keyOf(claims.iss);
  if (key === undefined) return undefined;
  const expected = createHmac('sha256', key).update(`${parts[0]}.${parts[1]}`).digest();
  const given = Buffer.from(parts[2] ?? '', 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return claims;
}

function isClaims(value: unknown): value is JwtClaims {
  const c = value as Partial<JwtClaims> | null;
  return typeof c === 'object' && c !== null && typeof c.iss === 'string' && typeof c.iat === 'number' && typeof c.exp === 'number';
}

function isRefreshFile(value: unknown): value is RefreshFile {
  const v = value as Partial<RefreshFile> | null;
  return typeof v === 'object' && v !== null && Array.isArray(v.refresh_tokens);
}

function isStoredRefreshToken(value: unknown): value is StoredRefreshToken {
  const t = value as Partial<StoredRefreshToken> | null;
  return (
    typeof t === 'object' &&
    t !== null &&
    typeof t.id === 'string' &&
    typeof t.user_id === 'string' &&
    typeof t.hash === 'string' &&
    typeof t.jwt_key === 'string' &&
    typeof t.created_at === 'string' &&
    typeof t.expire_at === 'number'
  );
}
