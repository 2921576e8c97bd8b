import { readFile } from 'node:fs/promises';
import type { Logger } from '../core/log.js';
import { Backoff } from '../util/backoff.js';
import type { MqttConfig } from './config.js';
import { Outbox, type OutgoingMessage } from './outbox.js';
import { topicMatches } from './topics.js';

/** The part of mqtt.js's client this module uses (mqtt.js is loaded with a dynamic import, only when configured). */
interface Client {
  connected: boolean;
  options: { reconnectPeriod?: number; protocolVersion?: number };
  on(event: 'connect', fn: () => void): void;
  on(event: 'close' | 'offline', fn: () => void): void;
  on(event: 'error', fn: (err: Error & { code?: number | string }) => void): void;
  on(event: 'message', fn: (topic: string, payload: Buffer, packet: { retain: boolean }) => void): void;
  subscribe(filter: string | string[], opts: { qos: 0 | 1 | 2 }, cb?: (err?: Error | null) => void): void;
  unsubscribe(filter: string, cb?: (err?: Error) => void): void;
  publish(topic: string, payload: string | Buffer, opts: { qos: 0 | 1 | 2; retain: boolean }, cb?: (err?: Error) => void): void;
  end(force: boolean, opts: object, cb: () => void): void;
}

/**
 * A variable, so TypeScript does not read mqtt.js's declarations (they pull in browser worker types that the build's
 * full library check refuses) and esbuild leaves the package in node_modules, loaded only with an `mqtt:` section.
 */
const MQTT_PACKAGE = 'mqtt';

/** The part of mqtt.js's module this uses (its CommonJS build: `connect` named or on the default export). */
interface MqttModule {
  connect?: (url: string, options: Record<string, unknown>) => unknown;
  default?: { connect?: (url: string, options: Record<string, unknown>) => unknown };
}

export interface ReceivedMessage {
  readonly topic: string;
  readonly payload: Buffer;
  readonly retain: boolean;
}

export type MessageHandler = (message: ReceivedMessage) => void;

export interface ConnectionOptions {
  readonly config: MqttConfig;
  readonly log: Logger;
  /** First reconnect delay; doubles per failure up to maxReconnectMs (tests shorten it). */
  readonly minReconnectMs?: number;
  readonly maxReconnectMs?: number;
}

/**
 * One broker connection: birth and last will on `<base>/status`, reconnects with backoff, re-subscribes after each
 * connect, and a bounded outbox while the broker is away. Nothing here is awaited by the hub: start() returns once
 * the client exists, connected or not.
 */
export class MqttConnection {
  private client: Client | undefined;
  private readonly handlers = new Map<string, Set<MessageHandler>>();
  /** The filters among `handlers` with + or #. */
  private readonly wildcards = new Set<string>();
  /** Exact topics with subscribers that want the last message replayed, and how many; their last message. */
  private readonly replayed = new Map<string, number>();
  private readonly last = new Map<string, ReceivedMessage>();
  private readonly outbox: Outbox;
  private readonly backoff: Backoff;
  private downLogged = false;
  private stopped = false;
  private readonly connectListeners = new Set<() => void>();
  private readonly disconnectListeners = new Set<() => void>();
  private wasConnected = false;
  private pendingSubscribes = 0;
  private readonly settleWaiters: (() => void)[] = [];
  readonly statusTopic: string;

  constructor(private readonly options: ConnectionOptions) {
    this.backoff = new Backoff({ initialMs: options.minReconnectMs ?? 1000, maxMs: options.maxReconnectMs ?? 60_000 });
    this.statusTopic = `${options.config.baseTopic}/status`;
    this.outbox = new Outbox(options.config.maxQueued, () =>
      options.log.warn(
        { max_queued: options.config.maxQueued },
        'MQTT broker unreachable and the outgoing queue is full: dropping the oldest messages',
      ),
    );
  }

  get connected(): boolean {
    return this.client?.connected === true;
  }

  async start(): Promise<void> {
    const { config } = this.options;
    const mod = (await import(MQTT_PACKAGE)) as MqttModule;
    const connect = mod.connect ?? mod.default?.connect;
    if (connect === undefined) throw new Error('the mqtt package has no connect(): is mqtt 5 installed?');
    const tls = {
      ...(config.ca ? { ca: await readFile(config.ca) } : {}),
      ...(config.cert ? { cert: await readFile(config.cert) } : {}),
      ...(config.key ? { key: await readFile(config.key) } : {}),
    };
    const client = connect(config.broker, {
      clientId: config.clientId,
      username: config.username,
      password: config.password,
      keepalive: config.keepalive,
      protocolVersion: config.protocol,
      reconnectPeriod: this.backoff.nextDelay,
      connectTimeout: 10_000,
      resubscribe: false,
      // A refused CONNACK (protocol 5 unknown to the broker, a bad password) would otherwise end the retries for good.
      reconnectOnConnackError: true,
      queueQoSZero: false,
      // mqtt-packet would otherwise keep a ready-made Buffer for every 16-bit number (65,536 of them, some 6 MB of
      // heap for the life of the process) to save a two-byte allocation per packet.
      writeCache: false,
      will: { topic: this.statusTopic, payload: Buffer.from('offline'), qos: 1, retain: true },
      ...tls,
    }) as unknown as Client;
    this.client = client;
    client.on('connect', () => this.onConnect());
    client.on('close', () => this.onClose());
    client.on('error', (err) => this.onError(err));
    client.on('message', (topic, payload, packet) => this.dispatch({ topic, payload, retain: packet.retain }));
  }

  /** Called after each connect (birth, subscriptions and the outbox are done first). */
  onConnected(fn: () => void): () => void {
    this.connectListeners.add(fn);
    return () => this.connectListeners.delete(fn);
  }

  /** Called when a connection ends (the broker went away, a network error), not when the hub stops. */
  onDisconnected(fn: () => void): () => void {
    this.disconnectListeners.add(fn);
    return () => this.disconnectListeners.delete(fn);
  }

  private onConnect(): void {
    const client = this.client;
    if (client === undefined) return;
    const { log, config } = this.options;
    log.info(
      { broker: config.broker, protocol: client.options.protocolVersion },
      this.downLogged ? 'MQTT broker reachable again' : 'MQTT connected',
    );
    this.downLogged = false;
    this.wasConnected = true;
    this.backoff.succeed();
    client.options.reconnectPeriod = this.backoff.nextDelay;
    client.publish(this.statusTopic, 'online', { qos: 1, retain: true });
    const filters = [...this.handlers.keys()];
    if (filters.length > 0) this.sendSubscribe(filters);
    for (const m of this.outbox.drain()) client.publish(m.topic, m.payload, { qos: m.qos, retain: m.retain });
    for (const fn of this.connectListeners) fn();
    this.flushSettled();
  }

  private onClose(): void {
    const client = this.client;
    if (client === undefined || this.stopped) return;
    if (this.wasConnected) {
      this.wasConnected = false;
      for (const fn of this.disconnectListeners) fn();
    }
    if (!this.downLogged) {
      this.downLogged = true;
      this.options.log.warn({ broker: this.options.config.broker }, 'MQTT broker unreachable; retrying with backoff');
    }
    // mqtt.js arms its reconnect timer before this listener runs: the next failure waits twice as long.
    this.backoff.fail();
    client.options.reconnectPeriod = this.backoff.nextDelay;
  }

  private onError(err: Error & { code?: number | string }): void {
    const client = this.client;
    // 132 (MQTT 5 "unsupported protocol version") or 1 (3.1.1's): fall back to 3.1.1 on the next attempt.
    if (client !== undefined && client.options.protocolVersion === 5 && (err.code === 132 || err.code === 1)) {
      this.options.log.warn({}, 'MQTT broker refuses protocol 5; using 3.1.1');
      client.options.protocolVersion = 4;
      return;
    }
    if (!this.downLogged) {
      this.downLogged = true;
      this.options.log.warn({ broker: this.options.config.broker, err: err.message }, 'MQTT connection failed; retrying with backoff');
    }
  }

  private dispatch(message: ReceivedMessage): void {
    if (message.payload.length > this.options.config.maxMessageBytes) {
      this.options.log.warn(
        { topic: message.topic, bytes: message.payload.length, max_message_bytes: this.options.config.maxMessageBytes },
        'MQTT message too large; ignored',
      );
      return;
    }
    if (this.replayed.has(message.topic)) this.last.set(message.topic, message);
    // Exact topics by lookup, and only the wildcard filters by matching: a thousand adopted entities are some four
    // thousand exact subscriptions, which a message must not walk.
    const exact = this.handlers.get(message.topic);
    if (exact !== undefined) for (const fn of [...exact]) this.run(fn, message);
    for (const filter of this.wildcards) {
      if (filter === message.topic || !topicMatches(filter, message.topic)) continue;
      for (const fn of [...(this.handlers.get(filter) ?? [])]) this.run(fn, message);
    }
  }

  private run(fn: MessageHandler, message: ReceivedMessage): void {
    try {
      fn(message);
    } catch (err) {
      this.options.log.error({ err, topic: message.topic }, 'MQTT message handler failed');
    }
  }

  /** Subscribes `fn` to a topic filter (wildcards allowed); returns the unsubscribe. */
  subscribe(filter: string, fn: MessageHandler, options: { replayLast?: boolean } = {}): () => void {
    let set = this.handlers.get(filter);
    if (set === undefined) {
      set = new Set();
      this.handlers.set(filter, set);
      if (filter.includes('+') || filter.includes('#')) this.wildcards.add(filter);
      if (this.client?.connected) this.sendSubscribe([filter]);
    } else if (options.replayLast) {
      // The broker sends a retained message only on a new SUBSCRIBE; a second subscriber of the same topic (another
      // entity of one device, every entity of another hub on its status topic) gets the last one from here.
      const last = this.last.get(filter);
      if (last !== undefined) queueMicrotask(() => set?.has(fn) && this.run(fn, last));
    }
    if (options.replayLast && !this.wildcards.has(filter)) this.replayed.set(filter, (this.replayed.get(filter) ?? 0) + 1);
    set.add(fn);
    return () => {
      const s = this.handlers.get(filter);
      if (s === undefined || !s.delete(fn)) return;
      if (options.replayLast) {
        const n = (this.replayed.get(filter) ?? 1) - 1;
        if (n > 0) this.replayed.set(filter, n);
        else {
          this.replayed.delete(filter);
          this.last.delete(filter);
        }
      }
      if (s.size > 0) return;
      this.handlers.delete(filter);
      this.wildcards.delete(filter);
      if (this.client?.connected) this.client.unsubscribe(filter);
    };
  }

  private sendSubscribe(filters: string[]): void {
    const client = this.client;
    if (client === undefined) return;
    this.pendingSubscribes++;
    client.subscribe(filters, { qos: 0 }, () => {
      this.pendingSubscribes--;
      this.flushSettled();
    });
  }

  /** Resolves once connected with every subscription acknowledged (tests wait on it before publishing). */
  settled(): Promise<void> {
    return new Promise((resolve) => {
      const check = (): void => {
        if (this.connected && this.pendingSubscribes === 0) resolve();
        else this.settleWaiters.push(check);
      };
      check();
    });
  }

  private flushSettled(): void {
    if (this.pendingSubscribes === 0) for (const fn of this.settleWaiters.splice(0)) fn();
  }

  /** Publishes now, or keeps the latest message per topic until the broker is back. */
  publish(topic: string, payload: string | Buffer, opts: { qos?: 0 | 1 | 2; retain?: boolean } = {}): void {
    const message: OutgoingMessage = { topic, payload, qos: opts.qos ?? 0, retain: opts.retain ?? false };
    const client = this.client;
    if (client?.connected && this.outbox.size === 0) client.publish(topic, payload, { qos: message.qos, retain: message.retain });
    else this.outbox.put(message);
  }

  /** Says `offline` (as the will would) and disconnects. */
  async stop(): Promise<void> {
    this.stopped = true;
    const client = this.client;
    this.client = undefined;
    if (client === undefined) return;
    if (client.connected) {
      await new Promise<void>((resolve) => client.publish(this.statusTopic, 'offline', { qos: 1, retain: true }, () => resolve()));
    }
    await new Promise<void>((resolve) => client.end(!client.connected, {}, () => resolve()));
  }
}
