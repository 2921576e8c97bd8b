import type { Core } from '../core/core.js';
import { MAX_NOTIFICATION_ID, MAX_NOTIFICATION_MESSAGE, MAX_NOTIFICATION_TITLE } from '../core/notifications.js';
import { DOMAIN_OWNER, type Domain } from './domain.js';

/**
 * persistent_notification.create, dismiss and dismiss_all, as Home Assistant has them: the notifications themselves
 * are the core's (`core.notifications`); the WebSocket's `persistent_notification/get` and `/subscribe` read them.
 * A message and title given as templates in an automation arrive rendered, as in Home Assistant.
 */
export const persistentNotificationDomain: Domain = {
  name: 'persistent_notification',
  registerServices(core: Core): void {
    const { notifications } = core;
    core.services.register(DOMAIN_OWNER, {
      domain: 'persistent_notification',
      service: 'create',
      name: 'Create',
      description: 'Shows a notification on the notifications panel.',
      schema: {
        fields: {
          message: { kind: 'text', required: true, maxLength: MAX_NOTIFICATION_MESSAGE, description: 'Message body of the notification.' },
          title: { kind: 'text', maxLength: MAX_NOTIFICATION_TITLE, description: 'Optional title of the notification.' },
          notification_id: {
            kind: 'text',
            maxLength: MAX_NOTIFICATION_ID,
            description: 'ID of the notification. This new notification will overwrite an existing notification with the same ID.',
          },
        },
      },
      handler: (call) => {
        const { message, title, notification_id: id } = call.data;
        notifications.create(String(message), title === undefined ? null : String(title), id === undefined ? undefined : String(id));
      },
    });
    core.services.register(DOMAIN_OWNER, {
      domain: 'persistent_notification',
      service: 'dismiss',
      name: 'Dismiss',
      description: 'Deletes a notification from the notifications panel.',
      schema: {
        fields: {
          notification_id: {
            kind: 'text',
            required: true,
            maxLength: MAX_NOTIFICATION_ID,
            description: 'ID of the notification to be deleted.',
          },
        },
      },
      handler: (call) => {
        notifications.dismiss(String(call.data.notification_id));
      },
    });
    core.services.register(DOMAIN_OWNER, {
      domain: 'persistent_notification',
      service: 'dismiss_all',
      name: 'Dismiss all',
      description: 'Deletes all notifications from the notifications panel.',
      schema: { fields: {} },
      handler: () => notifications.dismissAll(),
    });
  },
};
