import type { FailureRecorder } from '../../auth/bans.js';
import type { Authenticator, Principal } from '../../auth/types.js';
import type { Handler, Reply, Request } from '../../http/http.js';
import { bearerToken } from '../auth-header.js';

/** Home Assistant's body for a missing or invalid token (aiohttp's HTTPUnauthorized, plain text). */
export const UNAUTHORIZED_TEXT = '401: Unauthorized';

/**
 * Valid tokens are remembered for a short while so that a busy client costs a map lookup per request
 * instead of a SHA-256, a user scan and a timestamp. Bounded, holds only tokens that proved valid, and
 * forgets a token the moment it is revoked; the time limit lets `last_used_at` keep moving.
 */
export const MAX_CACHED_TOKENS = 256;
export const CACHE_TTL_MS = 60_000;

interface CachedPrincipal {
  readonly principal: Principal;
  readonly expiresAt: number;
}

/** The part of the auth store a request check needs. */
export type TokenAuthenticator = Pick<Authenticator, 'authenticate' | 'onRevoke'> & {
  /** `auth/sign_path`'s signed URLs (`?authSig=`), accepted for GETs in place of a token. */
  verifySignedPath?(path: string, authSig: string): Principal | undefined;
};

export type AuthedHandler = (req: Request, reply: Reply, principal: Principal) => void | Promise<void>;

export interface GuardOptions {
  /** Home Assistant lets only admins write states, fire events and read the error log. */
  readonly admin?: boolean;
}

/** Checks the bearer token of REST requests. */
export class RequestAuth {
  private readonly cache = new Map<string, CachedPrincipal>();
  /**
   * The last header that hit, with its entry: a busy client sends the same one request after request, and
   * comparing the text is cheaper than hashing it (uWS hands over a fresh string each time) for the map.
   */
  private lastHeader: string | undefined;
  private lastHit: CachedPrincipal | undefined;

  constructor(
    private readonly store: TokenAuthenticator,
    private readonly now: () => number = Date.now,
    /** Told of every 401, so wrong tokens count toward an IP ban as failed logins do. */
    private readonly failures?: FailureRecorder,
  ) {
    store.onRevoke((tokenId) => {
      for (const [token, entry] of this.cache) if (entry.principal.tokenId === tokenId) this.cache.delete(token);
      if (this.lastHit?.principal.tokenId === tokenId) this.forgetLast();
    });
  }

  /** How many valid tokens are remembered (bounded by MAX_CACHED_TOKENS). */
  get cachedTokens(): number {
    return this.cache.size;
  }

  /** The principal of an `Authorization` header value, or undefined when it holds no valid bearer token. */
  principal(authorization: string): Principal | undefined {
    // Keyed by the whole header: a valid one is exactly `Bearer <token>`, so a hit needs no parsing.
    const now = this.now();
    const last = this.lastHit;
    if (last !== undefined && authorization === this.lastHeader && last.expiresAt > now) return last.principal;
    const hit = this.cache.get(authorization);
    if (hit !== undefined && hit.expiresAt > now) {
      this.lastHeader = authorization;
      this.lastHit = hit;
      return hit.principal;
    }
    if (authorization === this.lastHeader) this.forgetLast();
    const token = bearerToken(authorization);
    if (token === undefined) return undefined;
    const principal = this.store.authenticate(token);
    if (principal === undefined) {
      if (hit !== undefined) this.cache.delete(authorization);
      return undefined;
    }
    if (hit === undefined && this.cache.size >= MAX_CACHED_TOKENS) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = this.cache.keys().next();
      if (oldest.done !== true) this.cache.delete(oldest.value);
    }
    this.cache.set(authorization, { principal, expiresAt: now + CACHE_TTL_MS });
    return principal;
  }

  /** The principal of a GET whose URL carries a valid `authSig` for exactly its path and other parameters. */
  private signedPath(req: Request): Principal | undefined {
    if (req.method !== 'get' || this.store.verifySignedPath === undefined || !req.query.includes('authSig=')) return undefined;
    const params = new URLSearchParams(req.query);
    const sig = params.get('authSig');
    if (sig === null) return undefined;
    params.delete('authSig');
    const rest = params.toString();
    return this.store.verifySignedPath(rest === '' ? req.url : `${req.url}?${rest}`, sig);
  }

  private forgetLast(): void {
    this.lastHeader = undefined;
    this.lastHit = undefined;
  }

  /** Wraps a handler so that it runs only for a valid token (of an admin, when asked); others get 401. */
  guard(handler: AuthedHandler, options: GuardOptions = {}): Handler {
    const adminOnly = options.admin === true;
    return (req, reply) => {
      const principal = this.principal(req.authorization) ?? this.signedPath(req);
      if (principal === undefined || (adminOnly && !principal.user.isAdmin)) {
        this.failures?.recordFailure(reply.remoteAddress(), req.url);
        reply.text(401, UNAUTHORIZED_TEXT);
        return;
      }
      return handler(req, reply, principal);
    };
  }
}
