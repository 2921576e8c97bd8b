// Home Assistant's mobile_app HTTP surface: POST /api/mobile_app/registrations and the phone's webhook,
// POST /api/webhook/<id> (homeassistant/components/mobile_app/http_api.py and webhook.py).
import { MAX_EVENT_TYPE_LENGTH } from '../../core/entity-id.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../core/json.js';
import type { ApiContext, MobileAppApi, PhoneRegistration, WebhookAnswer } from '../../http/context.js';
import type { Reply } from '../../http/http.js';
import type { HttpServer } from '../../http/server.js';
import { configObject } from '../config-object.js';
import { HUB_EVENT_TYPES } from '../hub-events.js';
import { templateEngineOf } from '../templates.js';
import type { RequestAuth } from './auth-check.js';
import { readJsonBody } from './json-body.js';

/** A phone sends small messages; a batch of sensor updates is the largest. */
const MAX_WEBHOOK_BYTES = 256 * 1024;
const MAX_TEMPLATES = 32;
const BAD_REQUEST: WebhookAnswer = { status: 400, data: {} };
const OK: WebhookAnswer = { status: 200, data: {} };

export function registerMobileApp(server: HttpServer, ctx: ApiContext, auth: RequestAuth): void {
  server.resource('/api/mobile_app/registrations', {
    post: auth.guard(async (_req, reply, principal) => {
      const app = ctx.mobileApp;
      if (app === undefined) return reply.message(404, 'mobile_app is not set up');
      const body = await readJsonBody(reply);
      if (body.kind !== 'json') return reply.message(400, 'Invalid JSON.');
      const answer = app.register(principal.user.id, body.value as JsonValue);
      reply.json(answer.status, JSON.stringify(answer.body));
    }),
  });
  server.resource('/api/webhook/:webhook_id', {
    post: async (req, reply) => {
      const app = ctx.mobileApp;
      const body = await reply.body(MAX_WEBHOOK_BYTES).catch(() => undefined);
      if (app === undefined) return reply.send(200, '', 'text/plain; charset=utf-8');
      let value: JsonValue = null;
      try {
        value = body === undefined ? null : (JSON.parse(body.toString('utf8')) as JsonValue);
      } catch {
        value = null;
      }
      await answerWebhook(ctx, app, req.params[0] ?? '', value, reply);
    },
    // HA's webhook component answers other methods 405; HEAD/GET checks are how apps probe reachability.
    get: (_req, reply) => reply.send(405, '', 'text/plain; charset=utf-8'),
  });
}

async function answerWebhook(ctx: ApiContext, app: MobileAppApi, webhookId: string, body: JsonValue, reply: Reply): Promise<void> {
  const opened = app.openWebhook(webhookId, body);
  if (opened.kind === 'answer')
    return reply.send(opened.status, opened.text, opened.text === '' ? 'text/plain; charset=utf-8' : 'application/json');
  const { registration, type, data } = opened;
  let answer = app.phoneCommand(registration, type, data);
  if (answer === undefined) answer = await sharedCommand(ctx, app, registration, type, data);
  if (answer === undefined) {
    ctx.log.warn(
      { device: registration.device_name, type: type.slice(0, 64) },
      'Received invalid webhook from %s with type: %s',
      registration.device_name,
      type.slice(0, 64),
    );
    answer = BAD_REQUEST;
  }
  const sealed = app.seal(registration, answer);
  reply.send(sealed.status, sealed.text, 'application/json');
}

/** The message types that act on the hub rather than the phone: services, events, templates, the configuration. */
async function sharedCommand(
  ctx: ApiContext,
  app: MobileAppApi,
  registration: PhoneRegistration,
  type: string,
  data: JsonValue,
): Promise<WebhookAnswer | undefined> {
  const context = () => ctx.core.newContext(registration.user_id);
  switch (type) {
    case 'call_service': {
      if (!isJsonObject(data) || typeof data.domain !== 'string' || typeof data.service !== 'string') return OK;
      try {
        await ctx.core.services.call(data.domain, data.service, data.service_data ?? {}, { context: context() });
        return OK;
      } catch (err) {
        ctx.log.warn(
          { device: registration.device_name, err: (err as Error).message },
          'Error when calling service during mobile_app webhook',
        );
        return BAD_REQUEST;
      }
    }
    case 'fire_event': {
      if (!isJsonObject(data) || typeof data.event_type !== 'string') return OK;
      const eventType = data.event_type;
      if (eventType === '' || eventType.length > MAX_EVENT_TYPE_LENGTH || HUB_EVENT_TYPES.has(eventType)) return BAD_REQUEST;
      const eventData = data.event_data ?? {};
      if (!isJsonObject(eventData)) return OK;
      ctx.core.bus.fire(eventType, eventData, context(), 'REMOTE');
      return OK;
    }
    case 'render_template':
      return { status: 200, data: renderTemplates(ctx, data) };
    case 'get_config':
      return { status: 200, data: getConfig(ctx, app, registration) };
    default:
      return undefined;
  }
}

function renderTemplates(ctx: ApiContext, data: JsonValue): JsonObject {
  // Keyed by the phone's names: no prototype, so `__proto__` is a name like any other.
  const out = Object.create(null) as Record<string, JsonValue>;
  if (!isJsonObject(data)) return out;
  const engine = templateEngineOf(ctx);
  for (const [key, spec] of Object.entries(data).slice(0, MAX_TEMPLATES)) {
    if (!isJsonObject(spec) || typeof spec.template !== 'string') continue;
    const variables = isJsonObject(spec.variables) ? spec.variables : {};
    const outcome = engine.tryRender(spec.template, { name: 'mobile_app render_template', variables });
    out[key] = outcome.ok ? outcome.text : { error: outcome.error.message };
  }
  return out;
}

function getConfig(ctx: ApiContext, app: MobileAppApi, registration: PhoneRegistration): JsonObject {
  const config = configObject(ctx.config, ctx.core.runState, ctx.components());
  const out: Record<string, JsonValue> = {};
  for (const key of ['latitude', 'longitude', 'elevation', 'unit_system', 'location_name', 'time_zone', 'components', 'version'] as const) {
    const value = config[key];
    if (value !== undefined) out[key] = value;
  }
  out.theme_color = '#03A9F4';
  const deviceId = app.deviceIdOf(registration);
  if (deviceId !== undefined) out.hass_device_id = deviceId;
  out.entities = app.entitiesOf(registration);
  return out;
}
