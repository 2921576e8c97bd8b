import type { FieldSpec } from '../core/fields.js';
import type { Domain } from './domain.js';

/**
 * Home Assistant's notify domain (homeassistant/components/notify): the legacy services `notify.<name>` of each
 * platform, `notify.notify`, and `notify.persistent_notification`. The services are the notify part's (src/notify),
 * which knows the platforms; here are their fields, as notify/services.yaml and NOTIFY_SERVICE_SCHEMA give them.
 */

export const TITLE_DEFAULT = 'Home Assistant';
export const MAX_NOTIFY_MESSAGE = 65_536;

export const NOTIFY_FIELDS: Readonly<Record<string, FieldSpec>> = {
  message: { kind: 'text', required: true, maxLength: MAX_NOTIFY_MESSAGE, description: 'Message body of the notification.' },
  title: { kind: 'text', maxLength: 1024, description: 'Title for your notification.' },
  target: { kind: 'any', description: 'Some integrations allow you to specify the targets that receive the notification.' },
  data: { kind: 'object', description: 'Some integrations provide extended functionality.' },
};

export const PERSISTENT_NOTIFICATION_FIELDS: Readonly<Record<string, FieldSpec>> = {
  message: NOTIFY_FIELDS.message as FieldSpec,
  title: NOTIFY_FIELDS.title as FieldSpec,
  data: { kind: 'object', description: 'Some integrations provide extended functionality (notification_id).' },
};

export const notifyDomain: Domain = {
  name: 'notify',
  registerServices(): void {},
};
