import { HubError } from '../core/errors.js';
import type { Reply, Request } from '../http/http.js';
import type { Html } from './html.js';

/** The request headers the web routes read (uWS's request is gone after the handler returns). */
export const WEB_HEADERS = [
  'cookie',
  'content-type',
  'origin',
  'host',
  'sec-fetch-site',
  'accept-encoding',
  'user-agent',
  'x-csrf-token',
] as const;

export const HTML_TYPE = 'text/html; charset=utf-8';

/**
 * Only this origin's scripts, styles, images and connections (the dashboard's WebSocket is same-origin);
 * no inline script or style, no framing, forms post only here.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE_HEADERS: readonly [string, string][] = [
  ['Content-Security-Policy', CONTENT_SECURITY_POLICY],
  ['X-Frame-Options', 'DENY'],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  // Pages may show a fresh token or depend on the session: never from a cache.
  ['Cache-Control', 'no-store'],
];

/** Form bodies are small; anything bigger is refused before it is read into memory. */
export const MAX_FORM_BYTES = 16 * 1024;
const MAX_COOKIES = 32;

export function sendPage(reply: Reply, status: number, page: Html, headers: readonly [string, string][] = []): void {
  reply.send(status, page.text, HTML_TYPE, [...PAGE_HEADERS, ...headers]);
}

/**
 * A page whose form's answer redirects to `target` (an app's `homeassistant:` callback, a client's origin): browsers
 * check a form's redirects against `form-action`, so the page allows that one source besides its own origin.
 */
export function sendPageWithFormTarget(
  reply: Reply,
  status: number,
  page: Html,
  target: string,
  headers: readonly [string, string][] = [],
): void {
  const csp = CONTENT_SECURITY_POLICY.replace("form-action 'self'", `form-action 'self' ${target}`);
  reply.send(status, page.text, HTML_TYPE, [['Content-Security-Policy', csp], ...PAGE_HEADERS.slice(1), ...headers]);
}

export function sendJson(reply: Reply, status: number, body: unknown, headers: readonly [string, string][] = []): void {
  reply.json(status, JSON.stringify(body), [['Cache-Control', 'no-store'], ...headers]);
}

/** 302 to a path of this site (browsers follow a 302 after a POST with a GET). */
export function redirect(reply: Reply, location: string, headers: readonly [string, string][] = []): void {
  reply.send(302, '', 'text/plain; charset=utf-8', [['Location', location], ['Cache-Control', 'no-store'], ...headers]);
}

/** Cookie values by name (the first of a repeated name wins); bounded, never throws. */
export function parseCookies(header: string): Map<string, string> {
  const out = new Map<string, string>();
  if (header === '') return out;
  for (const part of header.split(';', MAX_COOKIES)) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    const name = part.slice(0, eq).trim();
    if (name !== '' && !out.has(name)) out.set(name, part.slice(eq + 1).trim());
  }
  return out;
}

export interface CookieOptions {
  readonly maxAgeS?: number;
  readonly secure: boolean;
}

/** A Set-Cookie value: HttpOnly, SameSite=Strict, Path=/, Secure when served over TLS. */
export function cookie(name: string, value: string, options: CookieOptions): string {
  let text = `${name}=${value}; Path=/; HttpOnly; SameSite=Strict`;
  if (options.maxAgeS !== undefined) text += `; Max-Age=${options.maxAgeS}`;
  if (options.secure) text += '; Secure';
  return text;
}

export function clearCookie(name: string, secure: boolean): string {
  return cookie(name, '', { maxAgeS: 0, secure });
}

/**
 * Refuses a state-changing request that a browser says came from another site. Browsers send
 * Sec-Fetch-Site on every request; older ones only Origin, which is "null" under the hub's
 * `Referrer-Policy: no-referrer` and then says nothing. Tools (curl, tests) send neither. Either way the
 * CSRF token must match too.
 */
export function crossSiteProblem(req: Request): string | undefined {
  const site = req.header('sec-fetch-site');
  if (site !== '') return site === 'same-origin' || site === 'none' ? undefined : 'the form was sent from another site';
  const origin = req.header('origin');
  if (origin === '' || origin === 'null') return undefined;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return 'the Origin header is not a URL';
  }
  return originHost === req.header('host') ? undefined : 'the form was sent from another site';
}

/** Reads an application/x-www-form-urlencoded body (what a plain HTML form posts). */
export async function readForm(req: Request, reply: Reply): Promise<URLSearchParams> {
  const type = req.header('content-type').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    throw new HubError('invalid_format', 'Expected a form (Content-Type: application/x-www-form-urlencoded).');
  }
  const body = await reply.body(MAX_FORM_BYTES);
  return new URLSearchParams(body.toString('utf8'));
}

/** A form field as text: absent is empty, and a field is never longer than `max` characters. */
export function field(form: URLSearchParams, name: string, max = 1024): string {
  return (form.get(name) ?? '').slice(0, max);
}

/** A path on this site to go to after login: only plain absolute paths, never another host. */
export function safeNext(value: string | undefined): string {
  if (value === undefined || value.length > 200) return '/';
  if (!value.startsWith('/') || value.startsWith('//') || /[\\\s]/.test(value)) return '/';
  return value;
}
