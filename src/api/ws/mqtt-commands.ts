import { isoFromMillis } from '../../core/clock.js';
import { HubError } from '../../core/errors.js';
import { command, requireAdmin } from './command.js';
import type { Command, Connection } from './connection.js';
import { idTail } from './messages.js';
import { nonNegativeInt, optional, required, strMaxLength } from './schema.js';

const MAX_TOPIC_LENGTH = 65535;

function checkRoom(conn: Connection): void {
  const max = conn.env.limits.maxSubscriptions;
  if (conn.subscriptionCount >= max) {
    throw new HubError('not_allowed', `A connection may hold at most ${max} subscriptions; unsubscribe from some first.`);
  }
}

/**
 * `mqtt/subscribe` (admins, as in Home Assistant): each message on the topic filter as an event
 * `{"topic","payload","qos","retain","time"}` until `unsubscribe_events` or the connection's end. The outbox
 * bounds what a slow client can hold, as for every subscription.
 */
const mqttSubscribe = command({ topic: required(strMaxLength(MAX_TOPIC_LENGTH)), qos: optional(nonNegativeInt) }, (conn, msg, id) => {
  requireAdmin(conn);
  const mqtt = conn.env.ctx.mqtt;
  if (mqtt === undefined) throw new HubError('unknown_command', 'Unknown command: MQTT is not configured (no mqtt: section).');
  checkRoom(conn);
  const tail = idTail(id);
  const qos = msg.qos ?? 0;
  const stop = mqtt.subscribe(msg.topic, (m) => {
    const event = { topic: m.topic, payload: m.payload, qos, retain: m.retain, time: isoFromMillis() };
    conn.outbox.push(Buffer.from(`{"type":"event","event":${JSON.stringify(event)},"id":`), tail);
  });
  conn.addSubscription(id, { stop });
  conn.sendResult(id, 'null');
});

export const MQTT_COMMANDS: readonly (readonly [string, Command])[] = [['mqtt/subscribe', mqttSubscribe]];
