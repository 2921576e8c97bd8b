import mqtt, { type MqttClient } from 'mqtt';
import type { Teardown } from './hub.js';
import type { TestBroker } from './mosquitto.js';

/** A plain MQTT client that keeps the latest payload of every topic it sees, and can wait for one. */
export interface Watcher {
  readonly client: MqttClient;
  /** Latest payload per topic (retained ones included). */
  readonly latest: Map<string, string>;
  /** Every message seen, in order. */
  readonly log: { topic: string; payload: string; retain: boolean }[];
  /** Resolves with the first payload on `topic` (now or later) that satisfies `pred`; rejects after `ms`. */
  waitFor(topic: string, pred?: (payload: string) => boolean, ms?: number): Promise<string>;
  publish(topic: string, payload: string, opts?: { retain?: boolean; qos?: 0 | 1 | 2 }): Promise<void>;
}

export async function watch(t: Teardown, broker: TestBroker, filters: string[]): Promise<Watcher> {
  const client = await mqtt.connectAsync(broker.url, { username: broker.username, password: broker.password, reconnectPeriod: 100 });
  const latest = new Map<string, string>();
  const log: { topic: string; payload: string; retain: boolean }[] = [];
  const waiters = new Set<() => void>();
  client.on('message', (topic, payload, packet) => {
    const text = payload.toString();
    latest.set(topic, text);
    log.push({ topic, payload: text, retain: packet.retain });
    for (const w of [...waiters]) w();
  });
  await client.subscribeAsync(filters);
  t.teardown(() => client.endAsync(true));
  return {
    client,
    latest,
    log,
    waitFor(topic, pred = () => true, ms = 10_000) {
      return new Promise((resolve, reject) => {
        const check = (): boolean => {
          const v = latest.get(topic);
          if (v === undefined || !pred(v)) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(v);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${topic}; last: ${latest.get(topic)}`));
        }, ms);
        if (!check()) waiters.add(check);
      });
    },
    async publish(topic, payload, opts = {}) {
      await client.publishAsync(topic, payload, { retain: opts.retain ?? false, qos: opts.qos ?? 0 });
    },
  };
}
