// Notifications to phones over the local push channel (WebSocket `mobile_app/push_notification_channel`), through
// a `notify.mobile_app_<device>` service per phone, as Home Assistant's mobile_app notify platform.
import { randomUUID } from 'node:crypto';
import type { Core } from '../core/core.js';
import { slugify } from '../core/entity-id.js';
import { HubError } from '../core/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import type { Logger } from '../core/log.js';
import type { Registration } from './registrations.js';

/** Notifications sent but not yet confirmed by a phone that confirms, per channel. */
const MAX_UNCONFIRMED = 100;

interface Channel {
  readonly send: (notification: JsonObject) => void;
  readonly confirms: boolean;
  readonly unconfirmed: Set<string>;
}

/** The notify service name of a phone (Home Assistant's `notify.mobile_app_<device name>`). */
export function notifyServiceOf(deviceName: string): string {
  return `mobile_app_${slugify(deviceName) || 'phone'}`;
}

export class PushChannels {
  private readonly channels = new Map<string, Channel>();

  constructor(
    private readonly core: Core,
    private readonly owner: string,
    private readonly log: Logger,
  ) {}

  /** Opens a phone's channel (closing an older one of the same phone); returns the close. */
  open(registration: Registration, send: (notification: JsonObject) => void, confirms: boolean): () => void {
    const channel: Channel = { send, confirms, unconfirmed: new Set() };
    this.channels.set(registration.webhook_id, channel);
    return () => {
      if (this.channels.get(registration.webhook_id) === channel) this.channels.delete(registration.webhook_id);
    };
  }

  confirm(webhookId: string, confirmId: string): boolean {
    return this.channels.get(webhookId)?.unconfirmed.delete(confirmId) === true;
  }

  closeAll(): void {
    this.channels.clear();
  }

  /** Registers `notify.mobile_app_<device>`: message, title, data, as Home Assistant's notify services take them. */
  addService(registration: Registration): void {
    const service = notifyServiceOf(registration.device_name);
    this.core.services.register(this.owner, {
      domain: 'notify',
      service,
      name: `Send a notification via ${service}`,
      description: `Sends a notification message using the ${service} integration.`,
      schema: {
        fields: {
          message: { kind: 'text', required: true, maxLength: 4096, description: 'Message body of the notification.' },
          title: { kind: 'text', maxLength: 255, description: 'Title for your notification.' },
          target: { kind: 'any', description: 'Some integrations allow you to specify the targets that receive the notification.' },
          data: { kind: 'object', description: 'Some integrations provide extended functionality.' },
        },
      },
      handler: (call) => this.send(registration, call.data as JsonObject),
    });
  }

  removeService(registration: Registration): void {
    this.core.services.remove('notify', notifyServiceOf(registration.device_name));
  }

  private send(registration: Registration, data: JsonObject): void {
    const channel = this.channels.get(registration.webhook_id);
    if (channel === undefined) {
      throw new HubError('hub_error', `Device ${registration.device_name} is not connected to local push notifications`);
    }
    const notification: Record<string, JsonValue> = {
      message: typeof data.message === 'string' ? data.message : String(data.message ?? ''),
    };
    if (typeof data.title === 'string') notification.title = data.title;
    if (isJsonObject(data.data)) notification.data = data.data;
    if (channel.confirms) {
      const id = randomUUID().replace(/-/g, '');
      if (channel.unconfirmed.size >= MAX_UNCONFIRMED) channel.unconfirmed.clear();
      channel.unconfirmed.add(id);
      notification.hass_confirm_id = id;
    }
    channel.send(notification);
    this.log.debug({ device: registration.device_name }, 'notification sent to %s', registration.device_name);
  }
}
