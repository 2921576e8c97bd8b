// Home Assistant's mobile_app for its Companion apps: registration, the webhook, the phone's device, sensors and
// tracker, and notifications over the local push channel. On by default, as HA's default_config loads it.
import { randomUUID } from 'node:crypto';
import type { ConfigIssue, ConfigPath } from '../config/reader.js';
import type { Component } from '../core/component.js';
import type { Core } from '../core/core.js';
import { stringFieldProblem } from '../core/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import type { Logger } from '../core/log.js';
import type { Integration, IntegrationContext } from '../integration/integration.js';
import { newSecret } from './crypto.js';
import { PhoneEntities } from './phone-entities.js';
import { PushChannels } from './push.js';

export { notifyServiceOf } from './push.js';

import {
  type CommandAnswer,
  enableEncryption,
  registerSensor,
  updateLocation,
  updateRegistration,
  updateSensorStates,
} from './phone-commands.js';
import { type Registration, Registrations } from './registrations.js';
import { openMessage, sealAnswer } from './webhook-payload.js';
import type { ZoneArea, ZoneSource } from './zones.js';

export type { CommandAnswer } from './phone-commands.js';

/** A webhook call once read: answered already (unknown, deleted, unreadable), or a message of a phone. */
export type OpenedWebhook =
  | { readonly kind: 'answer'; readonly status: number; readonly text: string }
  | { readonly kind: 'message'; readonly registration: Registration; readonly type: string; readonly data: JsonValue };

const REQUIRED_FIELDS = ['app_id', 'app_name', 'app_version', 'device_name', 'manufacturer', 'model', 'os_name'] as const;
const MAX_FIELD = 255;

export class MobileApp implements Component {
  readonly name = 'mobile_app';
  readonly registrations: Registrations;
  private readonly phones = new Map<string, PhoneEntities>();
  readonly push: PushChannels;

  constructor(
    private readonly core: Core,
    readonly owner: string,
    dataDir: string,
    private readonly log: Logger,
    private readonly home: { readonly latitude: number; readonly longitude: number },
  ) {
    this.registrations = new Registrations(dataDir, log);
    this.push = new PushChannels(core, owner, log);
  }

  async start(): Promise<void> {
    await this.registrations.load();
    for (const r of this.registrations.all()) this.addPhone(r);
  }

  async stop(): Promise<void> {
    this.push.closeAll();
    await this.registrations.close();
  }

  private readonly zones: ZoneSource = {
    zones: () => zoneAreas(this.core, this.home),
  };

  private addPhone(r: Registration): void {
    try {
      const phone = new PhoneEntities(this.core, this.owner, r, this.zones);
      phone.start();
      this.phones.set(r.webhook_id, phone);
      this.push.addService(r);
    } catch (err) {
      this.log.error({ err, device: r.device_name }, 'could not add the phone %s', r.device_name);
    }
  }

  /** POST /api/mobile_app/registrations: Home Assistant's 201 answer, or 400 naming the field. */
  register(userId: string, body: JsonValue): { readonly status: number; readonly body: JsonObject } {
    if (!isJsonObject(body)) return { status: 400, body: { message: 'Message format incorrect: expected a dictionary' } };
    for (const key of REQUIRED_FIELDS) {
      const problem = stringFieldProblem(body, key, MAX_FIELD);
      if (problem !== undefined) return { status: 400, body: { message: `Message format incorrect: ${problem}` } };
    }
    const str = (key: string): string => String(body[key]);
    const encryption = body.supports_encryption === true;
    const registration = this.registrations.add({
      user_id: userId,
      app_data: isJsonObject(body.app_data) ? body.app_data : {},
      app_id: str('app_id'),
      app_name: str('app_name'),
      app_version: str('app_version'),
      device_name: str('device_name'),
      manufacturer: str('manufacturer'),
      model: str('model'),
      device_id: typeof body.device_id === 'string' && body.device_id !== '' ? body.device_id.slice(0, MAX_FIELD) : randomUUID(),
      os_name: str('os_name'),
      os_version: typeof body.os_version === 'string' ? body.os_version.slice(0, MAX_FIELD) : null,
      supports_encryption: encryption,
      secret: encryption ? newSecret() : null,
      key_scheme: null,
      sensors: [],
      location: null,
    });
    this.addPhone(registration);
    this.log.info({ device: registration.device_name, app: registration.app_name }, 'phone registered: %s', registration.device_name);
    return {
      status: 201,
      body: { cloudhook_url: null, remote_ui_url: null, secret: registration.secret, webhook_id: registration.webhook_id },
    };
  }

  /**
   * Reads POST /api/webhook/<id>. Unknown webhooks get 200 and nothing (Home Assistant's webhook component tells
   * nobody which ids exist); deleted ones 410, so the app registers again; an unreadable message 200 `{}`.
   */
  openWebhook(webhookId: string, body: JsonValue): OpenedWebhook {
    const registration = this.registrations.get(webhookId);
    if (registration === undefined) return { kind: 'answer', status: this.registrations.wasDeleted(webhookId) ? 410 : 200, text: '' };
    const opened = openMessage(registration, body, this.log, (scheme) => {
      registration.key_scheme = scheme;
      this.registrations.save();
    });
    if (opened.kind === 'ignored') {
      this.log.warn(
        { device: registration.device_name, why: opened.why },
        'Received invalid webhook payload from %s: %s',
        registration.device_name,
        opened.why,
      );
      return { kind: 'answer', status: 200, text: '{}' };
    }
    return { kind: 'message', registration, type: opened.type, data: opened.data };
  }

  /** The answer to a message about the phone's own data, or undefined for another type (the API answers those). */
  phoneCommand(registration: Registration, type: string, data: JsonValue): CommandAnswer | undefined {
    const phone = this.phones.get(registration.webhook_id);
    if (phone === undefined) return undefined;
    let answer: CommandAnswer;
    if (type === 'register_sensor') answer = registerSensor(registration, phone, data);
    else if (type === 'update_sensor_states') answer = updateSensorStates(registration, phone, data);
    else if (type === 'update_location') answer = updateLocation(registration, phone, data);
    else if (type === 'update_registration') answer = updateRegistration(registration, data);
    else if (type === 'enable_encryption') answer = enableEncryption(registration);
    else if (type === 'get_zones') answer = { status: 200, data: zoneStates(this.core) };
    else return undefined;
    this.registrations.save();
    return answer;
  }

  /** The answer as the phone reads it: sealed with its key when it encrypts. */
  seal(registration: Registration, answer: CommandAnswer): { readonly status: number; readonly text: string } {
    return { status: answer.status, text: answer.plain === true ? JSON.stringify(answer.data) : sealAnswer(registration, answer.data) };
  }

  /** `get_config`'s `entities`: each of the phone's sensors by unique id, with whether it is disabled. */
  entitiesOf(registration: Registration): JsonObject {
    // Keyed by the phone's unique ids: no prototype, so `__proto__` is an id like any other.
    const out = Object.create(null) as Record<string, JsonValue>;
    for (const s of registration.sensors) out[s.unique_id] = { disabled: s.disabled };
    return out;
  }

  /** The phone's device registry id (get_config's `hass_device_id`). */
  deviceIdOf(registration: Registration): string | undefined {
    return this.phones.get(registration.webhook_id)?.deviceId;
  }

  registration(webhookId: string): Registration | undefined {
    return this.registrations.get(webhookId);
  }

  openPushChannel(registration: Registration, send: (notification: JsonObject) => void, confirms: boolean): () => void {
    return this.push.open(registration, send, confirms);
  }

  confirmPush(webhookId: string, confirmId: string): boolean {
    return this.push.confirm(webhookId, confirmId);
  }

  /** Deletes a registration with its device and entities (Home Assistant's config entry removal). */
  unregister(webhookId: string): boolean {
    const phone = this.phones.get(webhookId);
    const registration = this.registrations.get(webhookId);
    if (registration === undefined) return false;
    phone?.remove();
    this.phones.delete(webhookId);
    this.push.removeService(registration);
    return this.registrations.remove(webhookId);
  }
}

/** The zones to place phones in: the zone entities' states, or the hub's home with HA's default 100 m radius. */
function zoneAreas(core: Core, home: { readonly latitude: number; readonly longitude: number }): ZoneArea[] {
  const out: ZoneArea[] = [];
  for (const entityId of core.states.entityIds()) {
    if (!entityId.startsWith('zone.')) continue;
    const state = core.states.get(entityId);
    if (state === undefined) continue;
    const a = state.attributes;
    if (typeof a.latitude !== 'number' || typeof a.longitude !== 'number') continue;
    out.push({
      state: state.entity_id === 'zone.home' ? 'home' : typeof a.friendly_name === 'string' ? a.friendly_name : state.entity_id.slice(5),
      latitude: a.latitude,
      longitude: a.longitude,
      radius: typeof a.radius === 'number' ? a.radius : 100,
      passive: a.passive === true,
    });
  }
  if (!out.some((z) => z.state === 'home'))
    out.push({ state: 'home', latitude: home.latitude, longitude: home.longitude, radius: 100, passive: false });
  return out;
}

/** get_zones: every zone's state object. */
function zoneStates(core: Core): JsonValue {
  const out: JsonValue[] = [];
  for (const entityId of core.states.entityIds()) {
    if (!entityId.startsWith('zone.')) continue;
    const state = core.states.get(entityId);
    if (state !== undefined) out.push(JSON.parse(JSON.stringify(state)) as JsonValue);
  }
  return out;
}

/** `mobile_app:` takes no options (Home Assistant's takes none either); it is on without it. */
function parseMobileApp(value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): null {
  if (value !== undefined && value !== null && !(isJsonObject(value) && Object.keys(value).length === 0)) {
    issues.push({ path, message: 'takes no options: write `mobile_app:` alone (or leave it out: it is always on)' });
  }
  return null;
}

export const mobileAppIntegration: Integration<{ mobile_app: typeof parseMobileApp }, MobileApp> = {
  name: 'mobile_app',
  sections: { mobile_app: parseMobileApp },
  stage: 'core',
  create(ctx: IntegrationContext) {
    return new MobileApp(ctx.core, ctx.owner, ctx.dataDir, ctx.log, { latitude: ctx.hub.latitude, longitude: ctx.hub.longitude });
  },
};
