import { checkRoomForSubscription, command, userOf } from './command.js';
import type { Command } from './connection.js';
import { eventHead, idTail } from './messages.js';

/** `persistent_notification/get`: every notification, oldest first (Home Assistant's list of them). */
const getNotifications = command({}, (conn, _msg, id) => {
  userOf(conn);
  conn.sendResult(id, JSON.stringify(conn.env.ctx.core.notifications.all()));
});

/**
 * `persistent_notification/subscribe`: the result, then an event `{"type":"current","notifications":{...}}` with
 * every notification keyed by id, then one for each change (`added`, `removed`, `updated`) with the ones changed,
 * until `unsubscribe_events` or the connection's end. The outbox bounds what a slow client can hold.
 */
const subscribeNotifications = command({}, (conn, _msg, id) => {
  userOf(conn);
  checkRoomForSubscription(conn);
  conn.sendResult(id, 'null');
  const tail = idTail(id);
  const stop = conn.env.ctx.core.notifications.subscribe((type, notifications) => {
    conn.outbox.push(eventHead(JSON.stringify({ type, notifications })), tail);
  });
  conn.addSubscription(id, { stop });
});

export const NOTIFICATION_COMMANDS: readonly (readonly [string, Command])[] = [
  ['persistent_notification/get', getNotifications],
  ['persistent_notification/subscribe', subscribeNotifications],
];
