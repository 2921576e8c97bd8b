// Home Assistant's sign-in API for apps (homeassistant/components/auth: login_flow.py and __init__.py's TokenView
// and RevokeTokenView): GET /auth/providers, the login flow, and the OAuth2 token endpoint.
import { verifyClientId, verifyRedirectUri } from '../../auth/indieauth.js';
import { PasswordCheckBusy } from '../../auth/passwords.js';
import { ACCESS_TOKEN_EXPIRATION_S } from '../../auth/refresh-tokens.js';
import type { ApiContext } from '../../http/context.js';
import type { Reply, Request } from '../../http/http.js';
import type { HttpServer } from '../../http/server.js';
import { readFormBody } from './form-body.js';
import { jsonObjectBody, MAX_FIELD, requiredString } from './request-data.js';

const PROVIDER_TYPE = 'homeassistant';
/** Home Assistant's name for its username-and-password provider. */
const PROVIDER_NAME = 'Home Assistant Local';
const HANDLER = [PROVIDER_TYPE, null] as const;
const DATA_SCHEMA = [
  { type: 'string', name: 'username', required: true },
  { type: 'string', name: 'password', required: true },
];
const ROUTE = { headers: ['content-type', 'user-agent'] };

/** Registers /auth/providers, /auth/login_flow, /auth/login_flow/<id>, /auth/token and /auth/revoke. */
export function registerAuthFlow(server: HttpServer, ctx: ApiContext): void {
  server.resource('/auth/providers', {
    get: (_req, reply) =>
      reply.json(
        200,
        JSON.stringify({ providers: [{ name: PROVIDER_NAME, id: null, type: PROVIDER_TYPE }], preselect_remember_me: false }),
      ),
  });
  server.resource('/auth/login_flow', { post: (_req, reply) => startFlow(ctx, reply) }, ROUTE);
  server.resource(
    '/auth/login_flow/:flow_id',
    { post: (req, reply) => stepFlow(ctx, req, reply), del: (req, reply) => abortFlow(ctx, req, reply) },
    ROUTE,
  );
  server.resource('/auth/token', { post: (req, reply) => token(ctx, req, reply) }, ROUTE);
  server.resource('/auth/revoke', { post: (req, reply) => revoke(ctx, req, reply) }, ROUTE);
}

function formJson(flowId: string, errors: Record<string, string>): string {
  return JSON.stringify({
    type: 'form',
    flow_id: flowId,
    handler: HANDLER,
    step_id: 'init',
    data_schema: DATA_SCHEMA,
    errors,
    description_placeholders: null,
    last_step: null,
    preview: null,
  });
}

async function startFlow(ctx: ApiContext, reply: Reply): Promise<void> {
  const data = await jsonObjectBody(reply);
  if (data === undefined) return;
  const clientId = requiredString(reply, data, 'client_id');
  if (clientId === undefined) return;
  if (data.handler === undefined) return reply.message(400, "Message format incorrect: required key not provided @ data['handler']");
  const redirectUri = requiredString(reply, data, 'redirect_uri');
  if (redirectUri === undefined) return;
  if (!verifyClientId(clientId) || !verifyRedirectUri(clientId, redirectUri)) {
    return reply.message(400, 'invalid client id or redirect uri');
  }
  if (!isOurHandler(data.handler)) return reply.message(404, 'Invalid handler specified');
  const flow = ctx.auth.loginFlows.start(clientId, redirectUri, reply.remoteAddress());
  reply.json(200, formJson(flow.flowId, {}));
}

function isOurHandler(handler: unknown): boolean {
  if (handler === PROVIDER_TYPE) return true;
  return Array.isArray(handler) && handler.length === 2 && handler[0] === PROVIDER_TYPE && handler[1] === null;
}

async function stepFlow(ctx: ApiContext, req: Request, reply: Reply): Promise<void> {
  const flowId = req.params[0] ?? '';
  const data = await jsonObjectBody(reply);
  if (data === undefined) return;
  const clientId = requiredString(reply, data, 'client_id');
  if (clientId === undefined) return;
  if (!verifyClientId(clientId)) return reply.message(400, 'Invalid client id');
  const flows = ctx.auth.loginFlows;
  const flow = flows.get(flowId);
  if (flow === undefined) return reply.message(404, 'Invalid flow specified');
  const address = reply.remoteAddress();
  if (flow.address !== address) return reply.message(400, 'IP address changed');
  const { username, password } = data;
  const extra = Object.keys(data).some((k) => k !== 'client_id' && k !== 'username' && k !== 'password');
  if (typeof username !== 'string' || typeof password !== 'string' || extra || username.length > MAX_FIELD || password.length > MAX_FIELD) {
    return reply.message(400, 'User input malformed');
  }
  if (throttled(ctx, reply, req.url, 'login attempts')) return;
  let user: Awaited<ReturnType<typeof ctx.auth.checkPassword>>;
  try {
    user = await ctx.auth.checkPassword(username.trim(), password);
  } catch (err) {
    if (err instanceof PasswordCheckBusy)
      return reply.message(429, 'Too many login attempts at once. Try again in a moment.', [['Retry-After', '1']]);
    throw err;
  }
  if (user === undefined) {
    ctx.guard.recordFailure(address, req.url);
    return reply.json(200, formJson(flowId, { base: 'invalid_auth' }));
  }
  ctx.guard.recordSuccess(address);
  flows.finish(flowId);
  ctx.log.info({ user: user.name, client: clientId }, 'app signed in: %s', clientId);
  reply.json(
    200,
    JSON.stringify({
      version: 1,
      minor_version: 1,
      type: 'create_entry',
      flow_id: flowId,
      handler: HANDLER,
      title: PROVIDER_NAME,
      description: null,
      description_placeholders: null,
      options: {},
      result: flows.issueCode(clientId, user.id),
    }),
  );
}

/**
 * Answers 429 with Retry-After while the address has failed too often lately (the login guard's throttle), and counts
 * the attempt as another failure, as the login page does. `what` names the attempts in the message.
 */
export function throttled(ctx: ApiContext, reply: Reply, url: string, what: string): boolean {
  const address = reply.remoteAddress();
  const waitMs = ctx.guard.retryAfterMs(address);
  if (waitMs <= 0) return false;
  ctx.guard.recordFailure(address, url);
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  reply.message(429, `Too many failed ${what} from your address. Wait ${seconds} seconds, then try again.`, [
    ['Retry-After', String(seconds)],
  ]);
  return true;
}

function abortFlow(ctx: ApiContext, req: Request, reply: Reply) {
  if (!ctx.auth.loginFlows.finish(req.params[0] ?? '')) return reply.message(404, 'Invalid flow specified');
  reply.message(200, 'Flow aborted');
}

/** OAuth2's error body, as Home Assistant answers it; every error counts toward the address's ban (log_invalid_auth). */
function tokenError(ctx: ApiContext, req: Request, reply: Reply, status: number, error: string, description?: string): void {
  ctx.guard.recordFailure(reply.remoteAddress(), req.url);
  reply.json(status, JSON.stringify(description === undefined ? { error } : { error, error_description: description }), [
    ['Cache-Control', 'no-store'],
  ]);
}

async function token(ctx: ApiContext, req: Request, reply: Reply): Promise<void> {
  const form = await readFormBody(req, reply);
  // IndieAuth 6.3.5: the revocation endpoint is the token endpoint with action=revoke.
  if (form.get('action') === 'revoke') return revokeToken(ctx, form.get('token'), reply);
  const grantType = form.get('grant_type');
  if (grantType === 'authorization_code') return authorizationCode(ctx, req, reply, form);
  if (grantType === 'refresh_token') return refreshToken(ctx, req, reply, form);
  tokenError(ctx, req, reply, 400, 'unsupported_grant_type');
}

async function authorizationCode(ctx: ApiContext, req: Request, reply: Reply, form: Map<string, string>): Promise<void> {
  const clientId = form.get('client_id');
  if (clientId === undefined || !verifyClientId(clientId)) return tokenError(ctx, req, reply, 400, 'invalid_request', 'Invalid client id');
  const code = form.get('code');
  if (code === undefined) return tokenError(ctx, req, reply, 400, 'invalid_request', 'Invalid code');
  const userId = ctx.auth.loginFlows.redeemCode(clientId, code);
  const user = userId === undefined ? undefined : ctx.auth.getUser(userId);
  if (user === undefined) return tokenError(ctx, req, reply, 400, 'invalid_request', 'Invalid code');
  const { token: refresh, info } = await ctx.auth.refreshTokens.create(user.id, { clientId });
  const access = ctx.auth.refreshTokens.accessToken(info.id, reply.remoteAddress());
  reply.json(
    200,
    JSON.stringify({
      access_token: access,
      token_type: 'Bearer',
      refresh_token: refresh,
      expires_in: ACCESS_TOKEN_EXPIRATION_S,
      ha_auth_provider: PROVIDER_TYPE,
    }),
    [['Cache-Control', 'no-store']],
  );
}

function refreshToken(ctx: ApiContext, req: Request, reply: Reply, form: Map<string, string>) {
  const clientId = form.get('client_id') ?? null;
  if (clientId !== null && !verifyClientId(clientId)) return tokenError(ctx, req, reply, 400, 'invalid_request', 'Invalid client id');
  const given = form.get('refresh_token');
  if (given === undefined) return tokenError(ctx, req, reply, 400, 'invalid_request');
  const refresh = ctx.auth.refreshTokens.find(given);
  if (refresh === undefined || ctx.auth.getUser(refresh.userId) === undefined) return tokenError(ctx, req, reply, 400, 'invalid_grant');
  if (refresh.clientId !== clientId) return tokenError(ctx, req, reply, 400, 'invalid_request');
  const access = ctx.auth.refreshTokens.accessToken(refresh.id, reply.remoteAddress());
  reply.json(
    200,
    JSON.stringify({ access_token: access, token_type: 'Bearer', expires_in: ACCESS_TOKEN_EXPIRATION_S, ha_auth_provider: PROVIDER_TYPE }),
    [['Cache-Control', 'no-store']],
  );
}

async function revoke(ctx: ApiContext, req: Request, reply: Reply): Promise<void> {
  const form = await readFormBody(req, reply);
  await revokeToken(ctx, form.get('token'), reply);
}

/** RFC 7009 2.2: 200 whether or not the token was valid, so the answer tells nothing. */
async function revokeToken(ctx: ApiContext, given: string | undefined, reply: Reply): Promise<void> {
  const refresh = given === undefined ? undefined : ctx.auth.refreshTokens.find(given);
  if (refresh !== undefined) await ctx.auth.refreshTokens.remove(refresh.id);
  reply.send(200, '', 'text/plain; charset=utf-8');
}
