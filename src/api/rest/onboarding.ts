// Home Assistant's onboarding API (homeassistant/components/onboarding/views.py): how a client creates the owner
// of a new hub over HTTP and gets an authorization code for it, as HA's frontend does on first start. It shares
// the web page's onboarding (src/auth/onboarding.ts): one lock, and it closes for good once the owner has a
// password.
//
// hearth's onboarding is that one step: the location, units and integrations come from configuration.yaml and
// there are no analytics. So the later steps (core_config, analytics, integration) read as done together with the
// user step, and their POSTs answer as Home Assistant answers a finished step (docs/coming-from-home-assistant.md).

import { normalizeUsername, usernameProblem } from '../../auth/credentials.js';
import { onboardingOf } from '../../auth/onboarding.js';
import { PasswordCheckBusy, passwordProblem } from '../../auth/passwords.js';
import { HubError } from '../../core/errors.js';
import type { ApiContext } from '../../http/context.js';
import type { Reply } from '../../http/http.js';
import type { HttpServer } from '../../http/server.js';
import { type RequestAuth, UNAUTHORIZED_TEXT } from './auth-check.js';
import { throttled } from './auth-flow.js';
import { jsonObjectBody, requiredStrings } from './request-data.js';

const STEPS = ['user', 'core_config', 'analytics', 'integration'] as const;
const USER_FIELDS = ['name', 'username', 'password', 'client_id', 'language'] as const;
const ROUTE = { headers: ['content-type', 'user-agent'] };
/** Home Assistant's messages for a step posted again. */
const LATER_STEPS = [
  ['core_config', 'Core config step already done'],
  ['analytics', 'Analytics config step already done'],
  ['integration', 'Integration step already done'],
] as const;

/** Registers /api/onboarding, /api/onboarding/installation_type, /users and the later steps. */
export function registerOnboarding(server: HttpServer, ctx: ApiContext, auth: RequestAuth): void {
  const onboarding = onboardingOf(ctx.auth, ctx.log);
  const done = async (): Promise<boolean> => (await onboarding.state()).kind === 'closed';

  server.resource('/api/onboarding', {
    get: async (_req, reply) => {
      const all = await done();
      reply.json(200, JSON.stringify(STEPS.map((step) => ({ step, done: all }))));
    },
  });
  server.resource('/api/onboarding/installation_type', {
    // Home Assistant answers only while onboarding is open; hearth is none of its installation types.
    get: async (_req, reply) => {
      if (await done()) return reply.text(401, UNAUTHORIZED_TEXT);
      reply.json(200, JSON.stringify({ installation_type: 'Unknown' }));
    },
  });
  server.resource('/api/onboarding/users', { post: (_req, reply) => createOwner(ctx, reply) }, ROUTE);
  for (const [step, message] of LATER_STEPS) {
    server.resource(`/api/onboarding/${step}`, { post: auth.guard((_req, reply) => reply.message(403, message)) }, ROUTE);
  }
}

/** POST /api/onboarding/users: the owner with a password, and an authorization code for `client_id`. */
async function createOwner(ctx: ApiContext, reply: Reply): Promise<void> {
  const body = await jsonObjectBody(reply);
  if (body === undefined) return;
  const data = requiredStrings(reply, body, USER_FIELDS);
  if (data === undefined) return;
  if (throttled(ctx, reply, '/api/onboarding/users', 'attempts')) return;
  const name = data.name.trim();
  const username = normalizeUsername(data.username.trim());
  const problem =
    name === '' || name.length > 100
      ? 'name must have 1 to 100 characters'
      : (prefixed('username', usernameProblem(username)) ?? prefixed('password', passwordProblem(data.password)));
  if (problem !== undefined) return reply.message(400, `Message format incorrect: ${problem}`);

  const onboarding = onboardingOf(ctx.auth, ctx.log);
  const outcome = await onboarding.exclusive(async (): Promise<string | { status: number; message: string }> => {
    const state = await onboarding.state();
    if (state.kind === 'closed') return { status: 403, message: 'User step already done' };
    // An owner made by `hearth token create` is claimed with the one-time code from the log, on the web page only.
    if (state.kind === 'claim') {
      return {
        status: 403,
        message:
          "The owner exists without a password: set it on the hub's web page with the one-time code from its log, or with `hearth user password USERNAME`",
      };
    }
    try {
      const owner = await ctx.auth.ensureOwner(name, username);
      await ctx.auth.setPassword(owner.id, username, data.password);
      onboarding.finish();
      ctx.log.info({ user: name, username }, 'onboarding done through the API: the owner can sign in; onboarding is closed');
      return ctx.auth.loginFlows.issueCode(data.client_id, owner.id);
    } catch (err) {
      if (err instanceof PasswordCheckBusy) return { status: 429, message: 'Too many attempts at once. Try again in a moment.' };
      if (err instanceof HubError) return { status: 400, message: err.message };
      throw err;
    }
  });
  if (typeof outcome !== 'string') return reply.message(outcome.status, outcome.message);
  ctx.guard.recordSuccess(reply.remoteAddress());
  reply.json(200, JSON.stringify({ auth_code: outcome }));
}

function prefixed(field: string, problem: string | undefined): string | undefined {
  return problem === undefined ? undefined : `${field} ${problem}`;
}
