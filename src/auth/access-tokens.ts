import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a page's access token is valid (Home Assistant's ACCESS_TOKEN_EXPIRATION). */
export const ACCESS_TOKEN_TTL_MS = 30 * 60 * 1000;
/** Bounds: a page asks for a new token every ~25 minutes and on reconnects, so these are never reached in use. */
const MAX_PER_GROUP = 8;
const MAX_TOKENS = 4096;

interface Issued {
  readonly hash: Buffer;
  readonly userId: string;
  readonly groupId: string;
  readonly expiresAt: number;
}

export interface IssuedToken {
  readonly token: string;
  readonly expiresInS: number;
}

export interface AccessTokenOwner {
  readonly userId: string;
  /** What revoking closes: every token of a group at once (a web session's tokens). */
  readonly groupId: string;
}

/**
 * Short-lived access tokens for web pages, in memory only: a restart ends them, and the page asks its
 * session for a new one. Same shape as long-lived tokens (`<id>.<secret>`, SHA-256 of the secret kept),
 * so every API that takes a bearer token takes these.
 */
export class AccessTokens {
  private readonly byId = new Map<string, Issued>();

  constructor(private readonly now: () => number = Date.now) {}

  get size(): number {
    return this.byId.size;
  }

  issue(userId: string, groupId: string, ttlMs = ACCESS_TOKEN_TTL_MS): IssuedToken {
    this.prune(groupId);
    const id = randomBytes(12).toString('base64url');
    const secret = randomBytes(32).toString('base64url');
    this.byId.set(id, { hash: sha256(secret), userId, groupId, expiresAt: this.now() + ttlMs });
    return { token: `${id}.${secret}`, expiresInS: Math.floor(ttlMs / 1000) };
  }

  /** The owner of a valid, unexpired token; undefined otherwise. */
  check(id: string, secret: string): AccessTokenOwner | undefined {
    const issued = this.byId.get(id);
    if (issued === undefined) return undefined;
    if (issued.expiresAt <= this.now()) {
      this.byId.delete(id);
      return undefined;
    }
    const given = sha256(secret);
    if (!timingSafeEqual(given, issued.hash)) return undefined;
    return { userId: issued.userId, groupId: issued.groupId };
  }

  /** The groups (web sessions) holding a token of this user. */
  groupsOf(userId: string): Set<string> {
    const out = new Set<string>();
    for (const issued of this.byId.values()) if (issued.userId === userId) out.add(issued.groupId);
    return out;
  }

  /** Forgets every token of a group; true when there was one. */
  revokeGroup(groupId: string): boolean {
    let any = false;
    for (const [id, issued] of this.byId) {
      if (issued.groupId === groupId) {
        this.byId.delete(id);
        any = true;
      }
    }
    return any;
  }

  /** Drops expired tokens, the group's oldest beyond its bound, and the oldest overall beyond the total bound. */
  private prune(groupId: string): void {
    const now = this.now();
    let inGroup = 0;
    for (const [id, issued] of this.byId) {
      if (issued.expiresAt <= now) this.byId.delete(id);
      else if (issued.groupId === groupId) inGroup++;
    }
    if (inGroup >= MAX_PER_GROUP) {
      // Maps iterate in insertion order, so the first of the group found is its oldest.
      for (const [id, issued] of this.byId) {
        if (issued.groupId !== groupId) continue;
        this.byId.delete(id);
        if (--inGroup < MAX_PER_GROUP) break;
      }
    }
    while (this.byId.size >= MAX_TOKENS) {
      const oldest = this.byId.keys().next();
      if (oldest.done === true) break;
      this.byId.delete(oldest.value);
    }
  }
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
