import { contextJson } from '../../core/context.js';
import { MAX_EVENT_TYPE_LENGTH } from '../../core/entity-id.js';
import { HubError } from '../../core/errors.js';
import type { JsonObject } from '../../core/json.js';
import { configObject } from '../config-object.js';
import { HUB_EVENT_TYPES } from '../hub-events.js';
import { AUTH_COMMANDS } from './auth-commands.js';
import { AUTOMATION_COMMANDS } from './automation-commands.js';
import { checkRoomForSubscription, command, requireAdmin, userOf } from './command.js';
import type { Command } from './connection.js';
import { HELPER_COMMANDS } from './helper-commands.js';
import { HISTORY_COMMANDS } from './history-commands.js';
import { pongMessage } from './messages.js';
import { MOBILE_APP_COMMANDS } from './mobile-app-commands.js';
import { MQTT_COMMANDS } from './mqtt-commands.js';
import { NOTIFICATION_COMMANDS } from './notification-commands.js';
import { PRESENCE_COMMANDS } from './presence-commands.js';
import { REGISTRY_COMMANDS } from './registry-commands.js';
import { bool, entityIds, intMap, nonNegativeInt, object, optional, positiveInt, required, str, strMaxLength } from './schema.js';
import { STATISTICS_COMMANDS } from './statistics-commands.js';
import { EntitiesSubscription, subscribeEvents } from './subscriptions.js';
import { TEMPLATE_COMMANDS } from './template-commands.js';
import { TRACE_COMMANDS } from './trace-commands.js';
import { USER_COMMANDS } from './user-commands.js';
import { ZIGBEE_COMMANDS } from './zigbee-commands.js';
import { ZIGBEE_DEVICE_COMMANDS } from './zigbee-device-commands.js';

/** Event types a non-admin user may subscribe to (HA auth/permissions/events.py, 2024.4+). */
const SUBSCRIBE_ALLOWLIST: ReadonlySet<string> = new Set([
  'state_changed',
  'component_loaded',
  'core_config_updated',
  'service_registered',
  'service_removed',
  'area_registry_updated',
  'device_registry_updated',
  'entity_registry_updated',
  'floor_registry_updated',
  'label_registry_updated',
  'category_registry_updated',
  'repairs_issue_registry_updated',
  'lovelace_updated',
  'panels_updated',
  'themes_updated',
  'shopping_list_updated',
]);

const MAX_SUBSCRIBE_EVENT_TYPE_LENGTH = 255;
const MAX_TOKEN_NAME_LENGTH = 100;

const ping = command({}, (conn, _msg, id) => {
  conn.send(pongMessage(id));
});

const supportedFeatures = command({ features: required(intMap) }, (conn, msg, id) => {
  const coalesce = msg.features.coalesce_messages;
  conn.outbox.coalesce = typeof coalesce === 'number' && coalesce !== 0;
  conn.sendResult(id, 'null');
});

const getStates = command({}, (conn, _msg, id) => {
  conn.sendResult(id, conn.env.ctx.core.states.statesJson());
});

const getConfig = command({}, (conn, _msg, id) => {
  const { ctx } = conn.env;
  conn.sendResult(id, JSON.stringify(configObject(ctx.config, ctx.core.runState, ctx.components())));
});

const getServices = command({}, (conn, _msg, id) => {
  conn.sendResult(id, conn.env.ctx.core.services.catalogueJson());
});

const callService = command(
  {
    domain: required(str),
    service: required(str),
    target: optional(object),
    service_data: optional(object),
    return_response: optional(bool),
  },
  async (conn, msg, id) => {
    const user = userOf(conn);
    const result = await conn.env.ctx.core.services.call(msg.domain, msg.service, msg.service_data, {
      target: msg.target,
      returnResponse: msg.return_response === true,
      userId: user.id,
    });
    let response: string;
    try {
      response = JSON.stringify(result.response ?? null);
    } catch {
      throw new HubError('internal', 'Invalid JSON in response');
    }
    // The interface always carries `response` (null unless requested); HA adds it only on request.
    conn.sendResult(id, `{"context":${contextJson(result.context)},"response":${response}}`);
  },
);

const subscribeEventsCommand = command({ event_type: optional(strMaxLength(MAX_SUBSCRIBE_EVENT_TYPE_LENGTH)) }, (conn, msg, id) => {
  const user = userOf(conn);
  const eventType = msg.event_type ?? '*';
  if (!user.isAdmin && !SUBSCRIBE_ALLOWLIST.has(eventType)) throw new HubError('unauthorized', 'Unauthorized');
  checkRoomForSubscription(conn);
  const { env } = conn;
  conn.addSubscription(id, subscribeEvents(env.ctx.core.bus, conn.owner, eventType, id, conn.outbox, env.events));
  // The interface's reply has no `result` key (Home Assistant sends `"result": null`).
  conn.sendBareResult(id);
});

const unsubscribeEvents = command({ subscription: required(nonNegativeInt) }, (conn, msg, id) => {
  if (!conn.removeSubscription(msg.subscription)) throw new HubError('not_found', 'Subscription not found.');
  conn.sendResult(id, 'null');
});

const subscribeEntities = command({ entity_ids: optional(entityIds(16384)) }, (conn, msg, id) => {
  userOf(conn);
  checkRoomForSubscription(conn);
  const { env } = conn;
  const core = env.ctx.core;
  const filter = msg.entity_ids === undefined ? undefined : new Set(msg.entity_ids);
  // Listening starts before the snapshot is taken, as in HA, so no change falls between them.
  const sub = new EntitiesSubscription(core.bus, conn.owner, id, filter, conn.outbox, env.entities);
  conn.addSubscription(id, sub);
  conn.sendResult(id, 'null');
  sub.sendSnapshot(core.states, env.snapshots);
});

const fireEvent = command({ event_type: required(str), event_data: optional(object) }, (conn, msg, id) => {
  const user = requireAdmin(conn);
  const type = msg.event_type;
  if (type.length > MAX_EVENT_TYPE_LENGTH) {
    throw new HubError('hub_error', `Value ${type} for property event_type has a max length of ${MAX_EVENT_TYPE_LENGTH} characters`);
  }
  if (type === '' || type === '*') throw new HubError('invalid_format', `Cannot fire an event of type '${type}'.`);
  if (HUB_EVENT_TYPES.has(type)) throw new HubError('not_allowed', `Events of type ${type} are fired by the hub only.`);
  const core = conn.env.ctx.core;
  const context = core.newContext(user.id);
  core.bus.fire(type, msg.event_data ?? {}, context, 'REMOTE');
  conn.sendResult(id, `{"context":${contextJson(context)}}`);
});

const currentUser = command({}, (conn, _msg, id) => {
  const user = userOf(conn);
  const body: JsonObject = {
    id: user.id,
    name: user.name,
    is_owner: user.isOwner,
    is_admin: user.isAdmin,
    // A user with a password signs in through Home Assistant's provider; hearth has no MFA.
    credentials: user.username === undefined ? [] : [{ auth_provider_type: 'homeassistant', auth_provider_id: null }],
    mfa_modules: [],
  };
  conn.sendResult(id, JSON.stringify(body));
});

const longLivedAccessToken = command(
  { lifespan: required(positiveInt), client_name: required(str), client_icon: optional(str) },
  async (conn, msg, id) => {
    const user = userOf(conn);
    const name = msg.client_name.trim();
    if (name === '' || name.length > MAX_TOKEN_NAME_LENGTH) {
      throw new HubError(
        'invalid_format',
        `client_name must have 1 to ${MAX_TOKEN_NAME_LENGTH} characters @ data['client_name']. Got ${JSON.stringify(msg.client_name)}`,
      );
    }
    const auth = conn.env.ctx.auth;
    if (auth.listTokens(user.id).some((t) => t.name === name)) throw new HubError('hub_error', `${name} already exists`);
    // hearth's tokens do not expire; `lifespan` is accepted for compatibility and not used.
    const token = await auth.createToken(user.id, name);
    conn.sendResult(id, JSON.stringify(token));
  },
);

/** Every command the WebSocket API knows, by `type`. */
export const COMMANDS: ReadonlyMap<string, Command> = new Map([
  ['ping', ping],
  ['supported_features', supportedFeatures],
  ['get_states', getStates],
  ['get_config', getConfig],
  ['get_services', getServices],
  ['call_service', callService],
  ['subscribe_events', subscribeEventsCommand],
  ['unsubscribe_events', unsubscribeEvents],
  ['subscribe_entities', subscribeEntities],
  ['fire_event', fireEvent],
  ['auth/current_user', currentUser],
  ['auth/long_lived_access_token', longLivedAccessToken],
  ...AUTH_COMMANDS,
  ...MOBILE_APP_COMMANDS,
  ...REGISTRY_COMMANDS,
  ...HISTORY_COMMANDS,
  ...STATISTICS_COMMANDS,
  ...TEMPLATE_COMMANDS,
  ...MQTT_COMMANDS,
  ...HELPER_COMMANDS,
  ...TRACE_COMMANDS,
  ...AUTOMATION_COMMANDS,
  ...NOTIFICATION_COMMANDS,
  ...PRESENCE_COMMANDS,
  ...USER_COMMANDS,
  ...ZIGBEE_COMMANDS,
  ...ZIGBEE_DEVICE_COMMANDS,
]);
