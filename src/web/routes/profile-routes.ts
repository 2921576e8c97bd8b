import type { Reply, Request } from '../../http/http.js';
import { hasQueryKey } from '../../http/query.js';
import type { HttpServer } from '../../http/server.js';
import { refuse } from '../answers.js';
import { type LoggedIn, loggedIn, sameText, type WebEnv, zigbeeConfigured } from '../context.js';
import { crossSiteProblem, field, readForm, redirect, sendPage, WEB_HEADERS } from '../http-util.js';
import { type ProfilePage, profilePage } from '../pages/profile-page.js';

const ROUTE = { headers: WEB_HEADERS };
const MAX_TOKEN_NAME = 100;
const FORM_EXPIRED = 'the form had expired; reload the page and try again';

/** GET /profile, POST /profile/tokens (create), POST /profile/tokens/revoke. */
export function registerProfileRoutes(server: HttpServer, env: WebEnv): void {
  server.resource(
    '/profile',
    {
      get: async (req, reply) => {
        const who = await loggedIn(env, req);
        if (who === undefined) return redirect(reply, '/login?next=/profile');
        const notice = hasQueryKey(req.query, 'revoked')
          ? 'Token revoked.'
          : hasQueryKey(req.query, 'signed_out')
            ? 'App signed out.'
            : undefined;
        await render(env, reply, 200, who, { notice });
      },
    },
    ROUTE,
  );
  server.resource('/profile/tokens', { post: (req, reply) => createToken(env, req, reply) }, ROUTE);
  server.resource('/profile/tokens/revoke', { post: (req, reply) => revokeToken(env, req, reply) }, ROUTE);
  server.resource('/profile/apps/sign-out', { post: (req, reply) => signOutApp(env, req, reply) }, ROUTE);
}

type Extra = Partial<Pick<ProfilePage, 'created' | 'problems' | 'notice' | 'tokenName'>>;

async function render(env: WebEnv, reply: Reply, status: number, who: LoggedIn, extra: Extra = {}): Promise<void> {
  const { auth } = env.ctx;
  const [assets, username] = await Promise.all([env.assets.bundle(), auth.usernameOf(who.user.id)]);
  sendPage(
    reply,
    status,
    profilePage({
      hubName: env.ctx.config.hub.name,
      assets,
      csrf: who.session.csrf,
      user: who.user,
      username,
      tokens: auth.listTokens(who.user.id),
      apps: auth.refreshTokens.list(who.user.id),
      zigbee: zigbeeConfigured(env),
      ...extra,
    }),
  );
}

/** The logged-in user of a form post with a valid CSRF token; otherwise answers and returns undefined. */
async function formUser(env: WebEnv, req: Request, reply: Reply, form: URLSearchParams): Promise<LoggedIn | undefined> {
  const who = await loggedIn(env, req);
  if (who === undefined) {
    redirect(reply, '/login?next=/profile');
    return undefined;
  }
  const cross = crossSiteProblem(req);
  if (cross !== undefined) {
    await refuse(env, reply, cross, 403, '/profile');
    return undefined;
  }
  if (!sameText(who.session.csrf, field(form, 'csrf', 200))) {
    await refuse(env, reply, FORM_EXPIRED, 400, '/profile');
    return undefined;
  }
  return who;
}

async function createToken(env: WebEnv, req: Request, reply: Reply): Promise<void> {
  const form = await readForm(req, reply);
  const who = await formUser(env, req, reply, form);
  if (who === undefined) return;
  const name = field(form, 'name', 500).trim();
  const { auth } = env.ctx;
  let problem: string | undefined;
  if (name === '' || name.length > MAX_TOKEN_NAME) problem = `A token name needs 1 to ${MAX_TOKEN_NAME} characters.`;
  else if (auth.listTokens(who.user.id).some((t) => t.name === name))
    problem = `You already have a token named “${name}”; choose another name.`;
  if (problem !== undefined) return render(env, reply, 400, who, { problems: [problem], tokenName: name.slice(0, MAX_TOKEN_NAME) });
  const token = await auth.createToken(who.user.id, name);
  env.log.info({ user: who.user.name, token: name }, 'long-lived access token created on the profile page');
  await render(env, reply, 201, who, { created: { name, token } });
}

async function revokeToken(env: WebEnv, req: Request, reply: Reply): Promise<void> {
  const form = await readForm(req, reply);
  const who = await formUser(env, req, reply, form);
  if (who === undefined) return;
  const id = field(form, 'token_id', 100);
  const token = env.ctx.auth.listTokens(who.user.id).find((t) => t.id === id);
  if (token === undefined) return render(env, reply, 404, who, { problems: ['That token does not exist (any more).'] });
  await env.ctx.auth.revokeToken(token.id);
  env.log.info({ user: who.user.name, token: token.name }, 'long-lived access token revoked on the profile page');
  redirect(reply, '/profile?revoked');
}

/** Ends an app's sign-in (its refresh token): its access tokens stop working and its WebSockets close. */
async function signOutApp(env: WebEnv, req: Request, reply: Reply): Promise<void> {
  const form = await readForm(req, reply);
  const who = await formUser(env, req, reply, form);
  if (who === undefined) return;
  const app = env.ctx.auth.refreshTokens.get(field(form, 'app_id', 100));
  if (app === undefined || app.userId !== who.user.id)
    return render(env, reply, 404, who, { problems: ['That app is not signed in (any more).'] });
  await env.ctx.auth.refreshTokens.remove(app.id);
  env.log.info({ user: who.user.name, client: app.clientId }, 'app signed out on the profile page');
  redirect(reply, '/profile?signed_out');
}
