// GET/POST /auth/authorize: the page Home Assistant's Companion apps (and other OAuth clients) open to sign in; it
// sends the browser back to the app's redirect URI with a one-time code and the app's state, as HA's frontend does.
import { verifyClientId, verifyRedirectUri } from '../../auth/indieauth.js';
import { PasswordCheckBusy } from '../../auth/passwords.js';
import type { User } from '../../auth/types.js';
import type { Reply, Request } from '../../http/http.js';
import { queryValue } from '../../http/query.js';
import type { HttpServer } from '../../http/server.js';
import { busy, refuse } from '../answers.js';
import { loggedIn, preLoginCsrf, preLoginCsrfValid, sameText, type WebEnv } from '../context.js';
import { crossSiteProblem, field, readForm, sendPage, sendPageWithFormTarget, WEB_HEADERS } from '../http-util.js';
import { messagePage } from '../pages/auth-pages.js';
import { type AuthorizeRequest, authorizePage } from '../pages/authorize-page.js';
import { throttled } from './auth-routes.js';

const ROUTE = { headers: WEB_HEADERS };
const MAX_STATE = 2048;

export function registerAuthorizeRoutes(server: HttpServer, env: WebEnv): void {
  server.resource(
    '/auth/authorize',
    { get: (req, reply) => show(env, req, reply), post: (req, reply) => authorize(env, req, reply) },
    ROUTE,
  );
}

function query(req: Request, key: string): string {
  try {
    return queryValue(req.query, key) ?? '';
  } catch {
    return '';
  }
}

/** The request when its client may sign in and send the code where it asks; undefined otherwise. */
function validRequest(clientId: string, redirectUri: string, state: string): AuthorizeRequest | undefined {
  if (clientId.length > 2048 || redirectUri.length > 2048 || state.length > MAX_STATE) return undefined;
  if (!verifyClientId(clientId) || !verifyRedirectUri(clientId, redirectUri)) return undefined;
  return { clientId, redirectUri, state };
}

/** The CSP source the form's redirect goes to: the origin of a web client, the scheme of an app's callback. */
function formTarget(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
}

async function invalid(env: WebEnv, reply: Reply): Promise<void> {
  const assets = await env.assets.bundle();
  sendPage(
    reply,
    400,
    messagePage({
      hubName: env.ctx.config.hub.name,
      assets,
      title: 'Cannot sign in',
      message: 'The app asked to sign in with a client id or redirect address this hub does not accept.',
    }),
  );
}

async function show(env: WebEnv, req: Request, reply: Reply): Promise<void> {
  const request = validRequest(query(req, 'client_id'), query(req, 'redirect_uri'), query(req, 'state'));
  if (request === undefined) return invalid(env, reply);
  const who = await loggedIn(env, req);
  const csrf = who === undefined ? preLoginCsrf(env, req, reply) : { token: who.session.csrf };
  const assets = await env.assets.bundle();
  const page = authorizePage({ hubName: env.ctx.config.hub.name, assets, csrf: csrf.token, request, signedInAs: who?.user.name });
  sendPageWithFormTarget(
    reply,
    200,
    page,
    formTarget(request.redirectUri),
    'setCookie' in csrf && csrf.setCookie !== undefined ? [csrf.setCookie] : [],
  );
}

async function authorize(env: WebEnv, req: Request, reply: Reply): Promise<void> {
  const form = await readForm(req, reply);
  const cross = crossSiteProblem(req);
  if (cross !== undefined) return refuse(env, reply, cross);
  const request = validRequest(field(form, 'client_id', 4096), field(form, 'redirect_uri', 4096), field(form, 'state', MAX_STATE + 1));
  if (request === undefined) return invalid(env, reply);
  const address = reply.remoteAddress();
  let user: User | undefined;
  if (field(form, 'use_session', 4) === '1') {
    const who = await loggedIn(env, req);
    if (who === undefined || !sameText(who.session.csrf, field(form, 'csrf', 200)))
      return refuse(env, reply, 'the form had expired; go back to the app and try again', 400);
    user = who.user;
  } else {
    if (!preLoginCsrfValid(req, field(form, 'csrf', 200)))
      return refuse(env, reply, 'the form had expired; go back to the app and try again', 400);
    if (await throttled(env, reply, address, '/auth/authorize')) return;
    const username = field(form, 'username', 200).trim();
    try {
      user = await env.ctx.auth.checkPassword(username, field(form, 'password', 2048));
    } catch (err) {
      if (err instanceof PasswordCheckBusy) return busy(env, reply);
      throw err;
    }
    if (user === undefined) {
      env.ctx.guard.recordFailure(address, '/auth/authorize');
      const assets = await env.assets.bundle();
      const csrf = preLoginCsrf(env, req, reply).token;
      const page = authorizePage({
        hubName: env.ctx.config.hub.name,
        assets,
        csrf,
        request,
        username,
        problems: ['Wrong username or password.'],
      });
      return sendPageWithFormTarget(reply, 401, page, formTarget(request.redirectUri));
    }
    env.ctx.guard.recordSuccess(address);
  }
  const code = env.ctx.auth.loginFlows.issueCode(request.clientId, user.id);
  const target = new URL(request.redirectUri);
  target.searchParams.append('code', code);
  if (request.state !== '') target.searchParams.append('state', request.state);
  env.log.info({ user: user.name, client: request.clientId }, 'app authorized: %s', request.clientId);
  reply.send(302, '', 'text/plain; charset=utf-8', [
    ['Location', target.toString()],
    ['Cache-Control', 'no-store'],
  ]);
}
