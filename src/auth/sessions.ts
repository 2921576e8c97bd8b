import { createHash, createHmac, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { isoFromMillis } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import { DataFile, jsonOf, readDataFile } from '../storage/data-file.js';

export const SESSIONS_FILE = 'sessions.json';
/** A session lasts this long after its last use, so a phone that visits weekly stays logged in. */
export const SESSION_IDLE_MS = 30 * 24 * 60 * 60 * 1000;
/** The sliding expiry is written at most this often per session, to spare the SD card. */
const RENEW_EVERY_MS = 24 * 60 * 60 * 1000;
const MAX_SESSIONS_PER_USER = 20;
const MAX_SESSIONS = 200;
const MAX_USER_AGENT = 200;

interface StoredSession {
  /** SHA-256 of the cookie's secret, hex: the file alone does not let anyone in. */
  id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  user_agent: string;
}

interface SessionsData {
  version: 1;
  sessions: StoredSession[];
}

/** A logged-in browser. */
export interface Session {
  readonly id: string;
  readonly userId: string;
  readonly createdAt: string;
  /** Groups the page access tokens issued to this session, so logging out revokes them (and closes their WebSockets). */
  readonly tokenGroup: string;
  /** The form token that proves a POST came from this session's own pages (HMAC of the cookie secret). */
  readonly csrf: string;
}

/**
 * Web sessions, persisted in `<data>/sessions.json` (mode 0600, atomic writes) so a hub restart does not
 * log everyone out. The cookie carries a 256-bit secret; only its hash is stored.
 */
export class SessionStore {
  private readonly byId = new Map<string, StoredSession>();
  /** Writes sessions.json; a write the disk refuses is logged once and retried, the sessions in memory hold. */
  private readonly file: DataFile;

  private constructor(
    path: string,
    sessions: readonly StoredSession[],
    log: Logger,
    private readonly now: () => number,
  ) {
    const t = now();
    for (const s of sessions) if (Date.parse(s.expires_at) > t) this.byId.set(s.id, s);
    this.file = new DataFile({
      path,
      log,
      label: 'sessions file',
      render: () => {
        const data: SessionsData = { version: 1, sessions: [...this.byId.values()] };
        return `${JSON.stringify(data, null, 2)}\n`;
      },
    });
  }

  static async open(dataDir: string, log: Logger, now: () => number = Date.now): Promise<SessionStore> {
    const path = join(dataDir, SESSIONS_FILE);
    const loaded = await readDataFile(path, {
      log,
      parse: jsonOf(isSessionsData, 'a sessions file ({"sessions": [...]})'),
      label: 'sessions file',
      fallback: 'everyone logs in again',
    });
    const sessions = loaded.status === 'ok' ? loaded.value.sessions.filter(isStoredSession) : [];
    return new SessionStore(path, sessions, log, now);
  }

  get size(): number {
    return this.byId.size;
  }

  async create(userId: string, userAgent: string): Promise<{ secret: string; session: Session }> {
    const secret = randomBytes(32).toString('base64url');
    const t = this.now();
    const stored: StoredSession = {
      id: hashSecret(secret),
      user_id: userId,
      created_at: isoFromMillis(t),
      expires_at: isoFromMillis(t + SESSION_IDLE_MS),
      user_agent: userAgent.slice(0, MAX_USER_AGENT),
    };
    this.dropBeyondBounds(userId);
    this.byId.set(stored.id, stored);
    await this.save();
    return { secret, session: toSession(stored, secret) };
  }

  /** The session of a cookie secret, or undefined when unknown or expired. Renews the expiry. */
  get(secret: string): Session | undefined {
    if (secret === '' || secret.length > 100) return undefined;
    const stored = this.byId.get(hashSecret(secret));
    if (stored === undefined) return undefined;
    const t = this.now();
    const expiresAt = Date.parse(stored.expires_at);
    if (expiresAt <= t) {
      this.byId.delete(stored.id);
      this.saveInBackground();
      return undefined;
    }
    if (t + SESSION_IDLE_MS - expiresAt > RENEW_EVERY_MS) {
      stored.expires_at = isoFromMillis(t + SESSION_IDLE_MS);
      this.saveInBackground();
    }
    return toSession(stored, secret);
  }

  /** Ends a session (logout); true when it existed. */
  async end(id: string): Promise<boolean> {
    if (!this.byId.delete(id)) return false;
    await this.save();
    return true;
  }

  async close(): Promise<void> {
    await this.file.stop();
  }

  private dropBeyondBounds(userId: string): void {
    const t = this.now();
    for (const [id, s] of this.byId) if (Date.parse(s.expires_at) <= t) this.byId.delete(id);
    const mine = [...this.byId.values()].filter((s) => s.user_id === userId);
    // Insertion order is creation order: the first are the oldest.
    for (const s of mine.slice(0, Math.max(0, mine.length - MAX_SESSIONS_PER_USER + 1))) this.byId.delete(s.id);
    while (this.byId.size >= MAX_SESSIONS) {
      const oldest = this.byId.keys().next();
      if (oldest.done === true) break;
      this.byId.delete(oldest.value);
    }
  }

  private saveInBackground(): void {
    void this.save();
  }

  /** Never rejects: a refused write was logged once by the DataFile and is retried; the sessions in memory hold. */
  private save(): Promise<void> {
    return this.file.save().catch(() => {});
  }
}

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** The CSRF token of a secret: unforgeable without the (HttpOnly) cookie, stable for the session's life. */
export function csrfTokenFor(secret: string, purpose = 'session'): string {
  return createHmac('sha256', secret).update(`hearth csrf ${purpose}`).digest('base64url');
}

function toSession(s: StoredSession, secret: string): Session {
  return { id: s.id, userId: s.user_id, createdAt: s.created_at, tokenGroup: `session:${s.id.slice(0, 24)}`, csrf: csrfTokenFor(secret) };
}

function isSessionsData(value: unknown): value is SessionsData {
  const v = value as Partial<SessionsData> | null;
  return typeof v === 'object' && v !== null && Array.isArray(v.sessions);
}

function isStoredSession(value: unknown): value is StoredSession {
  const s = value as Partial<StoredSession> | null;
  return (
    typeof s === 'object' &&
    s !== null &&
    typeof s.id === 'string' &&
    typeof s.user_id === 'string' &&
    typeof s.created_at === 'string' &&
    typeof s.expires_at === 'string' &&
    typeof s.user_agent === 'string'
  );
}
