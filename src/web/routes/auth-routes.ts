import { normalizeUsername, usernameProblem } from '../../auth/credentials.js';
import { PasswordCheckBusy, passwordProblem } from '../../auth/passwords.js';
import { SESSION_IDLE_MS } from '../../auth/sessions.js';
import type { User } from '../../auth/types.js';
import { HubError } from '../../core/errors.js';
import type { Reply, Request } from '../../http/http.js';
import { hasQueryKey, queryValue } from '../../http/query.js';
import type { HttpServer } from '../../http/server.js';
import { busy, refuse } from '../answers.js';
import {
  loggedIn,
  preLoginCsrf,
  preLoginCsrfValid,
  SESSION_COOKIE,
  sameText,
  secureCookies,
  sessionCookie,
  type WebEnv,
} from '../context.js';
import type { Html } from '../html.js';
import { clearCookie, crossSiteProblem, field, readForm, redirect, safeNext, sendPage, WEB_HEADERS } from '../http-util.js';
import { claimOwnerPage, createOwnerPage, loginPage, messagePage } from '../pages/auth-pages.js';

const ROUTE = { headers: WEB_HEADERS };
const FORM_EXPIRED = 'The form had expired (or cookies are off for this site). Please try again.';

/** GET/POST /login, POST /logout, GET/POST /onboarding. */
export function registerAuthRoutes(server: HttpServer, env: WebEnv): void {
  server.resource('/login', { get: (req, reply) => showLogin(env, req, reply), post: (req, reply) => login(env, req, reply) }, ROUTE);
  server.resource('/logout', { post: (req, reply) => logout(env, req, reply) }, ROUTE);
  server.resource(
    '/onboarding',
    { get: (req, reply) => showOnboarding(env, req, reply), post: (req, reply) => onboard(env, req, reply) },
    ROUTE,
  );
}

function queryNext(req: Request): string {
  try {
    return safeNext(queryValue(req.query, 'next'));
  } catch {
    return '/';
  }
}

async function showLogin(env: WebEnv, req: Request, reply: Reply): Promise<void> {
  if ((await loggedIn(env, req)) !== undefined) return redirect(reply, queryNext(req));
  if ((await env.onboarding.state()).kind !== 'closed') return redirect(reply, '/onboarding');
  const csrf = preLoginCsrf(env, req, reply);
  const notice = hasQueryKey(req.query, 'logged_out') ? 'You are logged out.' : undefined;
  await renderLogin(env, reply, 200, { csrf: csrf.token, next: queryNext(req), notice }, csrf.setCookie);
}

interface LoginView {
  readonly csrf: string;
  readonly next: string;
  readonly username?: string;
  readonly problems?: readonly string[];
  readonly notice?: string;
}

async function renderLogin(env: WebEnv, reply: Reply, status: number, view: LoginView, setCookie?: [string, string]): Promise<void> {
  const assets = await env.assets.bundle();
  sendPage(reply, status, loginPage({ hubName: env.ctx.config.hub.name, assets, ...view }), setCookie === undefined ? [] : [setCookie]);
}

async function login(env: WebEnv, req: Request, reply: Reply): Promise<void> {
  const form = await readForm(req, reply);
  const address = reply.remoteAddress();
  const next = safeNext(field(form, 'next', 300));
  const username = field(form, 'username', 200).trim();
  const cross = crossSiteProblem(req);
  if (cross !== undefined) return refuse(env, reply, cross);
  if (!preLoginCsrfValid(req, field(form, 'csrf', 200))) {
    const csrf = preLoginCsrf(env, req, reply);
    return renderLogin(env, reply, 400, { csrf: csrf.token, next, username, problems: [FORM_EXPIRED] }, csrf.setCookie);
  }
  const csrf = preLoginCsrf(env, req, reply).token;
  if (await throttled(env, reply, address, '/login')) return;
  const password = field(form, 'password', 2048);
  if (username === '' || password === '') {
    return renderLogin(env, reply, 400, { csrf, next, username, problems: ['Enter your username and password.'] });
  }
  let user: User | undefined;
  try {
    user = await env.ctx.auth.checkPassword(username, password);
  } catch (err) {
    if (err instanceof PasswordCheckBusy) return busy(env, reply);
    throw err;
  }
  if (user === undefined) {
    env.ctx.guard.recordFailure(address, '/login');
    return renderLogin(env, reply, 401, { csrf, next, username, problems: ['Wrong username or password.'] });
  }
  env.ctx.guard.recordSuccess(address);
  await startSession(env, reply, user, req.header('user-agent'), next);
}

async function startSession(env: WebEnv, reply: Reply, user: User, userAgent: string, next: string): Promise<void> {
  const { secret } = await (await env.sessions()).create(user.id, userAgent);
  env.log.info({ user: user.name }, 'web login');
  redirect(reply, next, [['Set-Cookie', sessionCookie(env, reply, secret, Math.floor(SESSION_IDLE_MS / 1000))]]);
}

async function logout(env: WebEnv, req: Request, reply: Reply): Promise<void> {
  const form = await readForm(req, reply);
  const who = await loggedIn(env, req);
  if (who === undefined) return redirect(reply, '/login', [['Set-Cookie', clearCookie(SESSION_COOKIE, secureCookies(env, reply))]]);
  const cross = crossSiteProblem(req);
  if (cross !== undefined) return refuse(env, reply, cross);
  if (!sameText(who.session.csrf, field(form, 'csrf', 200)))
    return refuse(env, reply, 'the form had expired; reload the page and try again', 400, '/');
  await (await env.sessions()).end(who.session.id);
  // The page's access tokens die with the session, and so do the WebSockets they opened.
  env.ctx.auth.revokeAccessTokens(who.session.tokenGroup);
  redirect(reply, '/login?logged_out', [['Set-Cookie', clearCookie(SESSION_COOKIE, secureCookies(env, reply))]]);
}

// ---- onboarding ------------------------------------------------------------------------------------

interface OnboardingView {
  readonly csrf: string;
  readonly name?: string;
  readonly username?: string;
  readonly problems?: readonly string[];
}

async function showOnboarding(env: WebEnv, req: Request, reply: Reply): Promise<void> {
  const state = await env.onboarding.state();
  if (state.kind === 'closed') return redirect(reply, (await loggedIn(env, req)) === undefined ? '/login' : '/');
  const csrf = preLoginCsrf(env, req, reply);
  // Makes sure the code exists and has been logged before anyone is asked for it.
  if (state.kind === 'claim') env.onboarding.code();
  await renderOnboarding(env, reply, 200, { csrf: csrf.token }, csrf.setCookie);
}

async function renderOnboarding(
  env: WebEnv,
  reply: Reply,
  status: number,
  view: OnboardingView,
  setCookie?: [string, string],
): Promise<void> {
  const state = await env.onboarding.state();
  if (state.kind === 'closed') return redirect(reply, '/login');
  const assets = await env.assets.bundle();
  const common = { hubName: env.ctx.config.hub.name, assets, ...view };
  const page: Html = state.kind === 'create' ? createOwnerPage(common) : claimOwnerPage({ ...common, ownerName: state.owner.name });
  sendPage(reply, status, page, setCookie === undefined ? [] : [setCookie]);
}

async function onboard(env: WebEnv, req: Request, reply: Reply): Promise<void> {
  const form = await readForm(req, reply);
  const address = reply.remoteAddress();
  const cross = crossSiteProblem(req);
  if (cross !== undefined) return refuse(env, reply, cross);
  const name = field(form, 'name', 200).trim();
  const typedUsername = field(form, 'username', 200).trim();
  const username = normalizeUsername(typedUsername);
  if (!preLoginCsrfValid(req, field(form, 'csrf', 200))) {
    const csrf = preLoginCsrf(env, req, reply);
    return renderOnboarding(env, reply, 400, { csrf: csrf.token, name, username: typedUsername, problems: [FORM_EXPIRED] }, csrf.setCookie);
  }
  const csrf = preLoginCsrf(env, req, reply).token;
  if (await throttled(env, reply, address, '/onboarding')) return;
  const password = field(form, 'password', 2048);
  const confirm = field(form, 'password_confirm', 2048);
  const view = { csrf, name, username: typedUsername };

  const done = await env.onboarding.exclusive(async (): Promise<User | 'closed' | 'shown'> => {
    const state = await env.onboarding.state();
    if (state.kind === 'closed') return 'closed';
    if (state.kind === 'claim' && !env.onboarding.checkCode(field(form, 'code', 64))) {
      env.ctx.guard.recordFailure(address, '/onboarding');
      await renderOnboarding(env, reply, 401, { ...view, problems: ['The one-time code is wrong. Copy it from the hub’s log.'] });
      return 'shown';
    }
    const problems = accountProblems(name, username, password, confirm);
    if (problems.length > 0) {
      await renderOnboarding(env, reply, 400, { ...view, problems });
      return 'shown';
    }
    try {
      const owner = state.kind === 'create' ? await env.ctx.auth.ensureOwner(name, username) : state.owner;
      if (state.kind === 'claim') await env.ctx.auth.renameUser(owner.id, name);
      await env.ctx.auth.setPassword(owner.id, username, password);
      env.onboarding.finish();
      env.log.info({ user: name, username }, 'onboarding done: the owner can log in now; onboarding is closed');
      return env.ctx.auth.getUser(owner.id) ?? owner;
    } catch (err) {
      if (err instanceof PasswordCheckBusy) {
        await busy(env, reply);
        return 'shown';
      }
      if (err instanceof HubError) {
        await renderOnboarding(env, reply, 400, { ...view, problems: [capitalize(err.message)] });
        return 'shown';
      }
      throw err;
    }
  });
  if (done === 'shown') return;
  if (done === 'closed') return redirect(reply, '/login');
  env.ctx.guard.recordSuccess(address);
  await startSession(env, reply, done, req.header('user-agent'), '/');
}

function accountProblems(name: string, username: string, password: string, confirm: string): string[] {
  const out: string[] = [];
  if (name === '' || name.length > 100) out.push('Your name must have 1 to 100 characters.');
  const u = usernameProblem(username);
  if (u !== undefined) out.push(`Username ${u}.`);
  const p = passwordProblem(password);
  if (p !== undefined) out.push(`Password ${p}.`);
  else if (password !== confirm) out.push('The two passwords differ.');
  return out;
}

// ---- shared answers ----------------------------------------------------------------------------------

/**
 * Answers 429 when the address failed too often lately. The attempt counts as a failure itself: it is
 * still someone guessing, and it brings a configured ban closer.
 */
export async function throttled(env: WebEnv, reply: Reply, address: string, url: string): Promise<boolean> {
  const waitMs = env.ctx.guard.retryAfterMs(address);
  if (waitMs <= 0) return false;
  env.ctx.guard.recordFailure(address, url);
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  const assets = await env.assets.bundle();
  sendPage(
    reply,
    429,
    messagePage({
      hubName: env.ctx.config.hub.name,
      assets,
      title: 'Too many attempts',
      message: `Too many failed attempts from your address. Wait ${seconds} second${seconds === 1 ? '' : 's'}, then try again.`,
      link: { href: url === '/login' ? '/login' : '/onboarding', label: 'Back to the form' },
    }),
    [['Retry-After', String(seconds)]],
  );
  return true;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1) + (text.endsWith('.') ? '' : '.');
}
