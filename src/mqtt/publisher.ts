import { type EntitySelector, entityFilter } from '../config/entity-filter.js';
import type { Core } from '../core/core.js';
import { domainOf } from '../core/entity-id.js';
import { isHubError } from '../core/errors.js';
import type { JsonObject, JsonValue } from '../core/json.js';
import type { Logger } from '../core/log.js';
import type { State } from '../core/state.js';
import { domainByName } from '../domains/index.js';
import type { Registries } from '../registry/index.js';
import { commandCall } from './commands.js';
import type { MqttConfig } from './config.js';
import type { MqttConnection, ReceivedMessage } from './connection.js';
import { componentConfig, type EntityTopics, entityTopics, type PublishContext } from './discovery-configs.js';
import { statePayload } from './state-payload.js';
import { objectIdOf } from './topics.js';

export interface PublisherOptions {
  readonly core: Core;
  readonly registries: Registries | undefined;
  readonly connection: MqttConnection;
  readonly config: MqttConfig;
  readonly hubName: string;
  readonly hubVersion: string;
  readonly instanceId: string;
  readonly log: Logger;
  /** The owner key of the MQTT component: entities it adopted are never published again (no echo). */
  readonly owner: string;
  /** The hub's temperature unit (climate's temperature_unit); °C when not given. */
  readonly temperatureUnit?: 'C' | 'F';
}

interface Published {
  readonly domain: string;
  readonly configTopic: string;
  readonly topics: EntityTopics;
  /** The component part of the config last announced, for domains whose capabilities change (RECONFIGURED_DOMAINS). */
  announced: string | undefined;
  /** What the availability topic says now; written only when it changes. */
  available: boolean | undefined;
  /** The retained config last published on configTopic (undefined with discovery off). */
  config: string | undefined;
  /** The configs published lately (the broker's echo of an earlier one may come after a newer one was sent). */
  readonly sent: string[];
  /** When this hub last put its config back over another client's (ms): at most once a second. */
  restoredAt: number;
  /** The next putting back, when the last was less than a second ago. */
  restoreTimer: NodeJS.Timeout | undefined;
}

/** Domains whose discovery config follows their state's attributes (a template number's range, a select's options). */
const RECONFIGURED_DOMAINS: ReadonlySet<string> = new Set(['number', 'select']);

/** Another client writing over a config is answered at most this often per entity (two clients fighting). */
const RESTORE_INTERVAL_MS = 1000;

/** How many of an entity's latest configs count as this hub's own when the broker echoes them. */
const RECENT_CONFIGS = 4;

/** Device changes and Home Assistant's birth come in bursts (a Zigbee network starting): one refresh per burst. */
const REFRESH_DELAY_MS = 200;

/**
 * Publishes the selected entities with Home Assistant MQTT discovery: a retained config each (under
 * `<prefix>/<component>/<node_id>/<object_id>/config`), retained state, attributes and availability topics on every
 * change, and command topics that become service calls. A removed or excluded entity's config is emptied.
 */
export class Publisher {
  private readonly published = new Map<string, Published>();
  /** Config topic -> the entity published under it. */
  private readonly byConfigTopic = new Map<string, string>();
  private overwriteLogged = false;
  private readonly refusedLogged = new Set<string>();
  private readonly offs: (() => void)[] = [];
  private refreshTimer: NodeJS.Timeout | undefined;
  private readonly context: PublishContext;
  /**
   * Whether the hub's own device is announced (some published entity has no device of its own): only then do the
   * devices of the others name it as their via_device, as Home Assistant links only to a device it knows.
   */
  private hubDeviceAnnounced = false;

  private readonly selects: EntitySelector;

  constructor(private readonly o: PublisherOptions) {
    this.context = { temperatureUnit: o.temperatureUnit ?? 'C' };
    this.selects = entityFilter(o.config.include, o.config.exclude);
  }

  private scheduleRefresh(): void {
    if (this.refreshTimer !== undefined) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      this.refreshAll();
    }, REFRESH_DELAY_MS);
  }

  start(): void {
    const { core, connection, config, owner } = this.o;
    this.offs.push(
      core.bus.on(owner, 'state_changed', (event) => {
        const { entity_id: id, new_state: s, old_state: old } = event.data;
        if (s === null) this.unpublish(id);
        else if (old === null || !this.published.has(id)) this.consider(id);
        else if (this.reconfigured(id, s)) this.consider(id, true);
        else this.publishState(id, s);
      }),
      core.bus.on(owner, 'entity_registry_updated', (event) => {
        const d = event.data;
        if (d.action === 'update') this.consider(d.entity_id, true);
      }),
      core.bus.on(owner, 'device_registry_updated', () => this.scheduleRefresh()),
      connection.subscribe(`${config.baseTopic}/+/set`, (m) => this.onCommand(m)),
      connection.subscribe(`${config.baseTopic}/+/+/set`, (m) => this.onCommand(m)),
      // Home Assistant's birth message: it asks for the configs again (it may have lost the retained ones).
      connection.subscribe(`${config.discoveryPrefix}/status`, (m) => {
        if (m.payload.toString() === 'online') this.scheduleRefresh();
      }),
      // A broker without persistence loses retained messages when it restarts: announce everything on each connect.
      connection.onConnected(() => this.refreshAll()),
    );
    this.refreshAll();
  }

  stop(): void {
    for (const off of this.offs.splice(0)) off();
    for (const p of this.published.values()) clearTimeout(p.restoreTimer);
    clearTimeout(this.refreshTimer);
    this.refreshTimer = undefined;
  }

  /** Whether `topic` is the config of an entity published now (the component empties the others of this node). */
  isPublishedConfig(topic: string): boolean {
    return this.byConfigTopic.has(topic);
  }

  /**
   * A message on one of this hub's own config topics. When another client replaced (or emptied) the retained config
   * of an entity published now, this hub's is put back (at most once a second per entity, the last one a second
   * after the one before: two clients fighting over a topic do not flood the broker), with one warning.
   */
  onOwnConfig(topic: string, text: string): void {
    const entityId = this.byConfigTopic.get(topic);
    const p = entityId === undefined ? undefined : this.published.get(entityId);
    if (p?.config === undefined || p.sent.includes(text) || !this.o.connection.connected || p.restoreTimer !== undefined) return;
    if (!this.overwriteLogged) {
      this.overwriteLogged = true;
      this.o.log.warn(
        { topic, entity_id: entityId, payload: text.slice(0, 200) },
        "MQTT: another client overwrote this hub's discovery config; announced again (logged once)",
      );
    }
    const restore = (): void => {
      p.restoreTimer = undefined;
      p.restoredAt = Date.now();
      if (this.published.get(entityId ?? '') === p && p.config !== undefined)
        this.o.connection.publish(topic, p.config, { qos: 1, retain: true });
    };
    const wait = p.restoredAt + RESTORE_INTERVAL_MS - Date.now();
    if (wait <= 0) restore();
    else p.restoreTimer = setTimeout(restore, wait);
  }

  get count(): number {
    return this.published.size;
  }

  /**
   * Announces every selected entity with its current state. Nothing is queued while the broker is away: each connect
   * announces everything again with the latest states, which is all a subscriber needs.
   */
  private refreshAll(): void {
    if (!this.o.connection.connected) return;
    for (const id of [...this.published.keys()]) if (this.o.core.entities.get(id) === undefined) this.unpublish(id);
    const entities = [...this.o.core.entities.all()];
    this.hubDeviceAnnounced = entities.some(
      (e) => (e.deviceId === undefined || this.o.core.devices.get(e.deviceId) === undefined) && this.selected(e.id),
    );
    for (const entity of entities) this.consider(entity.id, true);
  }

  private areaAndLabels(entityId: string): { areaId: string | null; labels: readonly string[]; deviceId: string | undefined } {
    const entity = this.o.core.entities.get(entityId);
    const entry = this.o.registries?.entities.entry(entityId);
    const deviceId = entity?.deviceId;
    const device = deviceId === undefined ? undefined : this.o.core.devices.get(deviceId);
    return { areaId: entry?.area_id ?? device?.area_id ?? null, labels: entry?.labels ?? [], deviceId };
  }

  private selected(entityId: string): boolean {
    const entity = this.o.core.entities.get(entityId);
    if (entity === undefined || entity.owner === this.o.owner || domainByName(entity.domain)?.published !== true) return false;
    return this.selects(entityId, this.areaAndLabels(entityId));
  }

  /** Publishes an entity that is selected and not yet published (or again, with `again`); unpublishes one that is not. */
  private consider(entityId: string, again = false): void {
    if (!this.selected(entityId)) {
      this.unpublish(entityId);
      return;
    }
    if ((this.published.has(entityId) && !again) || !this.o.connection.connected) return;
    const state = this.o.core.states.get(entityId);
    if (state === undefined) return;
    const { config, connection } = this.o;
    const domain = domainOf(entityId);
    const topics = entityTopics(config.baseTopic, entityId);
    const configTopic = `${config.discoveryPrefix}/${domain}/${config.nodeId}/${objectIdOf(entityId)}/config`;
    const announced = RECONFIGURED_DOMAINS.has(domain)
      ? JSON.stringify(componentConfig(domain, state.attributes, topics, this.context))
      : undefined;
    const payload = config.discovery ? this.discoveryConfig(entityId, domain, state, topics) : undefined;
    const text = payload === undefined ? undefined : JSON.stringify(payload);
    const before = this.published.get(entityId);
    if (before !== undefined) {
      this.byConfigTopic.delete(before.configTopic);
      clearTimeout(before.restoreTimer);
    }
    const sent = before?.configTopic === configTopic ? before.sent : [];
    if (text !== undefined && !sent.includes(text)) {
      sent.push(text);
      if (sent.length > RECENT_CONFIGS) sent.shift();
    }
    this.published.set(entityId, {
      domain,
      configTopic,
      topics,
      available: undefined,
      announced,
      config: text,
      restoredAt: before?.restoredAt ?? 0,
      restoreTimer: undefined,
      sent,
    });
    this.byConfigTopic.set(configTopic, entityId);
    if (text !== undefined) connection.publish(configTopic, text, { qos: 1, retain: true });
    this.publishState(entityId, state);
  }

  /** Whether the component part of a published entity's config changed with this state (announced again then). */
  private reconfigured(entityId: string, s: State): boolean {
    const p = this.published.get(entityId);
    if (p?.announced === undefined || s.state === 'unavailable') return false;
    return JSON.stringify(componentConfig(p.domain, s.attributes, p.topics, this.context)) !== p.announced;
  }

  private publishState(entityId: string, s: State): void {
    const p = this.published.get(entityId);
    if (p === undefined || !this.o.connection.connected) return;
    const { connection } = this.o;
    const available = s.state !== 'unavailable';
    if (p.available !== available) {
      p.available = available;
      connection.publish(p.topics.availability, available ? 'online' : 'offline', { qos: 1, retain: true });
    }
    if (!available) return;
    connection.publish(p.topics.state, statePayload(p.domain, s), { retain: true });
    connection.publish(p.topics.attributes, s.attributesJson, { retain: true });
  }

  private unpublish(entityId: string): void {
    const p = this.published.get(entityId);
    if (p === undefined) return;
    this.published.delete(entityId);
    this.byConfigTopic.delete(p.configTopic);
    clearTimeout(p.restoreTimer);
    const { connection, config } = this.o;
    // While the broker is away nothing is queued: on connect, this node's retained configs that are no longer
    // published are emptied (MqttComponent.onDiscovery).
    if (!connection.connected) return;
    if (config.discovery) connection.publish(p.configTopic, '', { qos: 1, retain: true });
    for (const topic of [p.topics.state, p.topics.attributes, p.topics.availability]) connection.publish(topic, '', { retain: true });
  }

  private deviceBlock(deviceId: string | undefined, areaName: string | null): JsonObject {
    const { nodeId } = this.o.config;
    const hub = `hearth_${nodeId}`;
    const device = deviceId === undefined ? undefined : this.o.core.devices.get(deviceId);
    if (device === undefined) {
      this.hubDeviceAnnounced = true;
      return { identifiers: [hub], name: this.o.hubName, manufacturer: 'hearth', model: 'hearth hub', sw_version: this.o.hubVersion };
    }
    const out: Record<string, JsonValue> = {
      identifiers: [`${hub}_${device.id}`],
      name: device.name_by_user ?? device.name,
      ...(this.hubDeviceAnnounced ? { via_device: hub } : {}),
    };
    if (device.manufacturer) out.manufacturer = device.manufacturer;
    if (device.model) out.model = device.model;
    if (device.sw_version) out.sw_version = device.sw_version;
    const deviceArea = device.area_id === null ? null : (this.o.registries?.areas.entry(device.area_id)?.name ?? null);
    if (deviceArea ?? areaName) out.suggested_area = deviceArea ?? areaName;
    return out;
  }

  private discoveryConfig(entityId: string, domain: string, s: State, topics: EntityTopics): JsonObject | undefined {
    const a = s.attributes;
    const specific = componentConfig(domain, a, topics, this.context);
    if (specific === undefined) return undefined;
    const { config, hubVersion } = this.o;
    const entity = this.o.core.entities.get(entityId);
    const { areaId, labels, deviceId } = this.areaAndLabels(entityId);
    const areaName = areaId === null ? null : (this.o.registries?.areas.entry(areaId)?.name ?? null);
    const out: Record<string, JsonValue> = {
      name: typeof a.friendly_name === 'string' ? a.friendly_name : entityId,
      unique_id: `${config.nodeId}_${objectIdOf(entity?.uniqueId ?? entityId)}`,
      // default_entity_id replaced object_id (which Home Assistant no longer reads) for the entity id it creates.
      default_entity_id: entityId,
      ...specific,
      json_attributes_topic: topics.attributes,
      availability: [{ topic: `${config.baseTopic}/status` }, { topic: topics.availability }],
      availability_mode: 'all',
      payload_available: 'online',
      payload_not_available: 'offline',
      device: this.deviceBlock(deviceId, areaName),
      origin: { name: 'hearth', sw_version: hubVersion },
      // Read by other hearth hubs (Home Assistant ignores it): where the entity comes from, its area and labels.
      hearth: { hub: config.nodeId, instance: this.o.instanceId, entity_id: entityId, area: areaName, labels: [...labels] },
    };
    if (typeof a.device_class === 'string') out.device_class = a.device_class;
    if (typeof a.icon === 'string') out.icon = a.icon;
    return out;
  }

  private onCommand(m: ReceivedMessage): void {
    const rest = m.topic.slice(this.o.config.baseTopic.length + 1).split('/');
    const entityId = rest[0] ?? '';
    const what = rest.length === 3 ? (rest[1] ?? '') : '';
    const p = this.published.get(entityId);
    if (p === undefined || m.retain) return;
    const { core, log, connection } = this.o;
    const refused = (err: unknown): void => {
      const message = isHubError(err) ? err.message : String(err);
      connection.publish(`${p.topics.base}/error`, message);
      if (this.refusedLogged.has(entityId)) return;
      this.refusedLogged.add(entityId);
      log.warn({ entity_id: entityId, topic: m.topic, err: message }, 'MQTT command refused (logged once per entity)');
    };
    try {
      const call = commandCall(p.domain, what, m.payload.toString(), core.states.get(entityId)?.attributes);
      core.services.call(p.domain, call.service, { ...call.data, entity_id: entityId }, { context: core.newContext() }).catch(refused);
    } catch (err) {
      refused(err);
    }
  }
}
