import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { LoginGuard } from '../auth/bans.js';
import type { Onboarding } from '../auth/onboarding.js';
import { csrfTokenFor, type Session, type SessionStore } from '../auth/sessions.js';
import type { User } from '../auth/types.js';
import type { Logger } from '../core/log.js';
import type { ApiContext } from '../http/context.js';
import type { Reply, Request } from '../http/http.js';
import type { Assets } from './assets.js';
import { cookie, parseCookies } from './http-util.js';

/** What the web pages need of the hub: the API context plus the login guard (bans, throttling). */
export type WebContext = ApiContext & { readonly guard: LoginGuard };

export const SESSION_COOKIE = 'hearth_session';
/** Carries the CSRF secret of the forms shown before login (login, onboarding). */
export const FORM_COOKIE = 'hearth_form';
const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;

/** Everything the web routes share. */
export interface WebEnv {
  readonly ctx: WebContext;
  readonly sessions: () => Promise<SessionStore>;
  readonly assets: Assets;
  readonly onboarding: Onboarding;
  /** The hub serves TLS itself: every cookie is Secure (behind a proxy, see secureCookies). */
  readonly secure: boolean;
  readonly log: Logger;
}

/** Whether the hub runs a Zigbee network: its driver registers the zigbee services (the web layer knows no driver). */
export function zigbeeConfigured(env: WebEnv): boolean {
  return env.ctx.core.services.has('zigbee', 'permit_join');
}

export interface LoggedIn {
  readonly session: Session;
  readonly user: User;
}

/** The session and user of a request's cookie, if it has a live one. */
export async function loggedIn(env: WebEnv, req: Request): Promise<LoggedIn | undefined> {
  const secret = parseCookies(req.header('cookie')).get(SESSION_COOKIE);
  if (secret === undefined || !COOKIE_VALUE.test(secret)) return undefined;
  const session = (await env.sessions()).get(secret);
  if (session === undefined) return undefined;
  const user = env.ctx.auth.getUser(session.userId);
  return user === undefined || user.isActive === false ? undefined : { session, user };
}

/** Whether this answer's cookies are Secure: the hub serves TLS, or a trusted proxy took HTTPS from the client. */
export function secureCookies(env: WebEnv, reply: Reply): boolean {
  return env.secure || reply.forwardedHttps();
}

export function sessionCookie(env: WebEnv, reply: Reply, secret: string, maxAgeS: number): string {
  return cookie(SESSION_COOKIE, secret, { maxAgeS, secure: secureCookies(env, reply) });
}

/**
 * The CSRF token for a form shown before login, from the form cookie (made now if the browser has none;
 * then `setCookie` must go out with the page).
 */
export function preLoginCsrf(env: WebEnv, req: Request, reply: Reply): { readonly token: string; readonly setCookie?: [string, string] } {
  const existing = parseCookies(req.header('cookie')).get(FORM_COOKIE);
  if (existing !== undefined && COOKIE_VALUE.test(existing)) return { token: csrfTokenFor(existing, 'form') };
  const secret = randomBytes(32).toString('base64url');
  return {
    token: csrfTokenFor(secret, 'form'),
    setCookie: ['Set-Cookie', cookie(FORM_COOKIE, secret, { secure: secureCookies(env, reply) })],
  };
}

/** Whether a pre-login form's token matches the browser's form cookie. */
export function preLoginCsrfValid(req: Request, given: string): boolean {
  const secret = parseCookies(req.header('cookie')).get(FORM_COOKIE);
  if (secret === undefined || !COOKIE_VALUE.test(secret)) return false;
  return sameText(csrfTokenFor(secret, 'form'), given);
}

export function sameText(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
