import type { Component } from '../core/component.js';
import type { Core } from '../core/core.js';
import { HubError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { isTemplate } from '../core/template-text.js';
import type { Registries } from '../registry/index.js';
import { Adopter } from './adopt.js';
import type { MqttConfig } from './config.js';
import { type MessageHandler, MqttConnection, type ReceivedMessage } from './connection.js';
import { Publisher } from './publisher.js';
import { fallbackRenderer, type TemplateRenderer } from './template.js';
import { isValidFilter, isValidTopic } from './topics.js';

export const MQTT_OWNER = 'mqtt';

export interface MqttComponentOptions {
  readonly core: Core;
  readonly registries?: Registries;
  readonly config: MqttConfig;
  readonly hubName: string;
  readonly hubVersion: string;
  /** Tells this hub's configs from another's that was given the same node id by mistake (stable across restarts). */
  readonly instanceId: string;
  readonly log: Logger;
  /** The template engine; the built-in fallback handles `{{ value }}` and `{{ value_json.key }}` only. */
  readonly render?: TemplateRenderer;
  /** First reconnect delay in ms (tests shorten it). */
  readonly minReconnectMs?: number;
  /** The hub's temperature unit, for published thermostats (°C when not given). */
  readonly temperatureUnit?: 'C' | 'F';
}

/**
 * MQTT: one broker connection, the publisher (this hub's entities with Home Assistant discovery) and the adopter
 * (other publishers' discovery, other hearth hubs included), `mqtt.publish`, and subscriptions for the `mqtt`
 * trigger and the WebSocket API. Optional: a broker that is down never holds up the hub.
 */
export class MqttComponent implements Component {
  readonly name = 'mqtt';
  readonly optional = true;
  readonly owner = MQTT_OWNER;
  private connection: MqttConnection | undefined;
  private publisher: Publisher | undefined;
  private adopter: Adopter | undefined;
  private readonly offs: (() => void)[] = [];
  private clashLogged = false;
  readonly render: TemplateRenderer;

  constructor(private readonly o: MqttComponentOptions) {
    this.render = o.render ?? fallbackRenderer;
  }

  get connected(): boolean {
    return this.connection?.connected === true;
  }

  /** Entities published and configs adopted, for tests and diagnostics. */
  get counts(): { published: number; adopted: number } {
    return { published: this.publisher?.count ?? 0, adopted: this.adopter?.count ?? 0 };
  }

  async start(): Promise<void> {
    const { core, config, log } = this.o;
    const connection = new MqttConnection({ config, log, minReconnectMs: this.o.minReconnectMs });
    this.connection = connection;
    this.adopter = new Adopter({ core, connection, config, render: this.render, log, owner: MQTT_OWNER, registries: this.o.registries });
    this.publisher = new Publisher({
      core,
      registries: this.o.registries,
      connection,
      config,
      hubName: this.o.hubName,
      hubVersion: this.o.hubVersion,
      instanceId: this.o.instanceId,
      log,
      owner: MQTT_OWNER,
      temperatureUnit: this.o.temperatureUnit,
    });
    const onConfig = (m: ReceivedMessage) => this.onDiscovery(m);
    this.offs.push(
      connection.subscribe(`${config.discoveryPrefix}/+/+/config`, onConfig),
      connection.subscribe(`${config.discoveryPrefix}/+/+/+/config`, onConfig),
    );
    this.registerServices();
    this.publisher.start();
    await connection.start();
  }

  async stop(): Promise<void> {
    for (const off of this.offs.splice(0)) off();
    this.publisher?.stop();
    this.adopter?.stop();
    this.o.core.services.removeOwner(MQTT_OWNER);
    this.o.core.bus.removeOwner(MQTT_OWNER);
    await this.connection?.stop();
    this.connection = undefined;
  }

  /** Resolves once connected with every subscription acknowledged. */
  settled(): Promise<void> {
    return this.connection?.settled() ?? Promise.resolve();
  }

  /** Subscribes to a topic filter (the `mqtt` trigger, WebSocket `mqtt/subscribe`); returns the unsubscribe. */
  subscribe(filter: string, fn: MessageHandler): () => void {
    if (!isValidFilter(filter)) throw new HubError('invalid_format', `topic ${JSON.stringify(filter)} is not a valid MQTT topic filter`);
    if (this.connection === undefined) throw new HubError('not_found', 'MQTT is not running');
    return this.connection.subscribe(filter, fn);
  }

  /** Publishes a message (mqtt.publish); queued while the broker is away. */
  publish(topic: string, payload: string, qos: 0 | 1 | 2 = 0, retain = false): void {
    if (!isValidTopic(topic))
      throw new HubError('invalid_format', `topic ${JSON.stringify(topic)} is not allowed: expected a topic without + or #`);
    if (this.connection === undefined) throw new HubError('not_found', 'MQTT is not running');
    this.connection.publish(topic, payload, { qos, retain });
  }

  private onDiscovery(m: ReceivedMessage): void {
    const { config } = this.o;
    const parts = m.topic.slice(config.discoveryPrefix.length + 1).split('/');
    const component = parts[0] ?? '';
    const nodeId = parts.length === 4 ? parts[1] : undefined;
    if (nodeId === config.nodeId) {
      if (m.payload.length > 0 && this.fromAnotherHub(m.payload.toString())) return;
      if (!config.discovery) return;
      // One of this hub's own configs: a retained one for an entity no longer published (removed or excluded
      // while the hub was down) is emptied, so Home Assistant and other hubs drop it; one another client wrote
      // over an entity published now is put back.
      if (this.publisher?.isPublishedConfig(m.topic)) this.publisher.onOwnConfig(m.topic, m.payload.toString());
      else if (m.payload.length > 0) this.connection?.publish(m.topic, '', { qos: 1, retain: true });
      return;
    }
    if (config.adopt) this.adopter?.handleConfig(m.topic, component, m.payload.toString());
  }

  /** A config under this hub's node id published by another hearth hub (same node id): left alone, logged once. */
  private fromAnotherHub(text: string): boolean {
    let instance: unknown;
    try {
      const parsed = JSON.parse(text) as { hearth?: { instance?: unknown } };
      instance = parsed.hearth?.instance;
    } catch {
      return false;
    }
    if (typeof instance !== 'string' || instance === this.o.instanceId) return false;
    if (!this.clashLogged) {
      this.clashLogged = true;
      this.o.log.error(
        { node_id: this.o.config.nodeId },
        'MQTT: another hearth hub publishes under this node id; give each hub its own node_id (or hub name) in mqtt:',
      );
    }
    return true;
  }

  private registerServices(): void {
    const { core } = this.o;
    core.services.register(MQTT_OWNER, {
      domain: 'mqtt',
      service: 'publish',
      name: 'Publish',
      description: 'Publishes a message to an MQTT topic.',
      schema: {
        fields: {
          topic: { kind: 'text', required: true, description: 'Topic to publish to.' },
          payload: { kind: 'any', description: 'The payload to publish.' },
          qos: { kind: 'number', integer: true, min: 0, max: 2, default: 0, description: 'Quality of Service to use.' },
          retain: { kind: 'boolean', default: false, description: 'If the message should have the retain flag set.' },
        },
      },
      handler: (call) => {
        const d = call.data;
        const topic = typeof d.topic === 'string' ? d.topic : '';
        const raw = d.payload;
        const text = raw === undefined || raw === null ? '' : typeof raw === 'string' ? raw : JSON.stringify(raw);
        const payload = isTemplate(text) ? this.render(text, {}) : text;
        const qos = Number(d.qos ?? 0) as 0 | 1 | 2;
        this.publish(topic, payload, qos, d.retain === true);
      },
    });
  }
}
