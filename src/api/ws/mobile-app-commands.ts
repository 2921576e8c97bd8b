// mobile_app's WebSocket commands: the local push channel the Companion apps hold open for notifications.
import { HubError } from '../../core/errors.js';
import { checkRoomForSubscription, command, userOf } from './command.js';
import type { Command } from './connection.js';
import { eventHead, idTail } from './messages.js';
import { bool, optional, required, strMaxLength } from './schema.js';

const pushChannel = command({ webhook_id: required(strMaxLength(200)), support_confirm: optional(bool) }, (conn, msg, id) => {
  const user = userOf(conn);
  const app = conn.env.ctx.mobileApp;
  const registration = app?.registration(msg.webhook_id);
  if (app === undefined || registration === undefined || registration.user_id !== user.id)
    throw new HubError('not_found', 'Webhook ID not found');
  checkRoomForSubscription(conn);
  conn.sendResult(id, 'null');
  const tail = idTail(id);
  const close = app.openPushChannel(
    registration,
    (notification) => conn.outbox.push(eventHead(JSON.stringify(notification)), tail),
    msg.support_confirm === true,
  );
  conn.addSubscription(id, { stop: close });
});

const pushConfirm = command({ webhook_id: required(strMaxLength(200)), confirm_id: required(strMaxLength(200)) }, (conn, msg, id) => {
  userOf(conn);
  const app = conn.env.ctx.mobileApp;
  if (app === undefined || !app.confirmPush(msg.webhook_id, msg.confirm_id))
    throw new HubError('not_found', 'Push notification channel not found');
  conn.sendResult(id, 'null');
});

export const MOBILE_APP_COMMANDS: readonly (readonly [string, Command])[] = [
  ['mobile_app/push_notification_channel', pushChannel],
  ['mobile_app/push_notification_confirm', pushConfirm],
];
