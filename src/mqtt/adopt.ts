import type { Core } from '../core/core.js';
import type { DeviceIdentifier } from '../core/devices.js';
import type { Entity } from '../core/entities.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import type { Logger } from '../core/log.js';
import { domainByName } from '../domains/index.js';
import type { Registries } from '../registry/index.js';
import { expandDiscovery } from './abbreviations.js';
import { adoptedParts } from './adopt-components.js';
import { availabilityOf, displayName, entityIdFor } from './adopt-naming.js';
import type { TopicHandler } from './adopt-types.js';
import { optStr } from './adopt-values.js';
import type { MqttConfig } from './config.js';
import type { MqttConnection } from './connection.js';
import { splitDeviceConfig } from './device-discovery.js';
import { checkDiscovery } from './discovery-check.js';
import { isBudgetError, payloadVariables, scopedRenderer, type TemplateRenderer } from './template.js';

export interface AdopterOptions {
  readonly core: Core;
  readonly connection: MqttConnection;
  readonly config: MqttConfig;
  readonly render: TemplateRenderer;
  readonly log: Logger;
  readonly owner: string;
  /** For the area another hearth hub gives an entity (created here when missing). */
  readonly registries?: Registries;
}

interface Adopted {
  readonly payload: string;
  readonly entity?: Entity;
  readonly deviceId?: string;
  readonly offs: (() => void)[];
}

/** Component names told about once each (they come from the broker: a bound, past which they are not told). */
const MAX_WARNED_COMPONENTS = 64;

/** Topics that several adopted entities share get the last message when one more subscribes (see MqttConnection). */
const REPLAY = { replayLast: true } as const;

/**
 * Turns Home Assistant MQTT discovery from other publishers (zigbee2mqtt, Tasmota, ESPHome, other hearth hubs) into
 * entities and devices here, with their availability, value templates and commands published back. The configs of
 * this hub itself are skipped, so nothing adopted is ever published again.
 */
export class Adopter {
  private readonly adopted = new Map<string, Adopted>();
  private readonly warnedComponents = new Set<string>();
  /** Each adopted entity's reaction to the broker connection ending (unavailable, as Home Assistant's MQTT entities). */
  private readonly onBrokerLost = new Set<() => void>();
  private readonly offConnection: () => void;

  constructor(private readonly o: AdopterOptions) {
    this.offConnection = o.connection.onDisconnected(() => {
      for (const fn of this.onBrokerLost) fn();
    });
  }

  get count(): number {
    return this.adopted.size;
  }

  /** A message on `<prefix>/<component>/[<node_id>/]<object_id>/config`; returns false when it is this hub's own. */
  handleConfig(topic: string, component: string, text: string): void {
    const { log, config } = this.o;
    if (component === 'device') {
      this.handleDevice(topic, text);
      return;
    }
    const existing = this.adopted.get(topic);
    if (existing?.payload === text) return;
    if (text === '') {
      this.remove(topic);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!isJsonObject(parsed)) {
      log.warn({ topic, payload: text.slice(0, 200) }, 'MQTT discovery payload is not a JSON object; ignored');
      return;
    }
    const c = expandDiscovery(parsed);
    if (isJsonObject(c.hearth) && c.hearth.hub === config.nodeId) return;
    if (component !== 'device_automation' && domainByName(component)?.adopted !== true) {
      // Bounded: component names come from the broker.
      if (!this.warnedComponents.has(component) && this.warnedComponents.size < MAX_WARNED_COMPONENTS) {
        this.warnedComponents.add(component);
        log.info({ component }, 'MQTT discovery: this component is not adopted by hearth; its configs are ignored');
      }
      return;
    }
    this.remove(topic);
    try {
      this.adopted.set(topic, component === 'device_automation' ? this.adoptTrigger(c, text) : this.adoptEntity(topic, component, c, text));
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      // The line names the field and what is allowed (discovery-check.ts), with the topic: values, not format.
      log.warn({ topic, err: message }, 'MQTT discovery config on %s refused: %s', topic, message);
    }
  }

  stop(): void {
    this.offConnection();
    for (const topic of [...this.adopted.keys()]) this.remove(topic);
  }

  /** Device-based discovery: each component is adopted as `<topic>#<key>`; those no longer listed are removed. */
  private handleDevice(topic: string, text: string): void {
    const previous = [...this.adopted.keys()].filter((k) => k.startsWith(`${topic}#`));
    const split = text === '' ? [] : splitDeviceConfig(text);
    if (split === undefined) {
      this.o.log.warn({ topic, payload: text.slice(0, 200) }, 'MQTT discovery payload is not a JSON object; ignored');
      return;
    }
    const kept = new Set<string>();
    for (const c of split) {
      if (c.platform === undefined) continue;
      kept.add(`${topic}#${c.key}`);
      this.handleConfig(`${topic}#${c.key}`, c.platform, c.text);
    }
    for (const k of previous) if (!kept.has(k)) this.remove(k);
  }

  private remove(topic: string): void {
    const a = this.adopted.get(topic);
    if (a === undefined) return;
    this.adopted.delete(topic);
    for (const off of a.offs) off();
    if (a.entity) this.o.core.entities.remove(a.entity.id);
    if (a.deviceId && ![...this.adopted.values()].some((x) => x.deviceId === a.deviceId)) this.o.core.devices.remove(a.deviceId);
  }

  private registerDevice(c: Record<string, JsonValue>): string | undefined {
    const d = c.device;
    if (!isJsonObject(d)) return undefined;
    const raw = d.identifiers;
    const ids = (Array.isArray(raw) ? (raw as JsonValue[]) : [raw]).filter((x): x is string => typeof x === 'string' && x !== '');
    if (ids.length === 0) return undefined;
    const s = (v: JsonValue | undefined) => (typeof v === 'string' ? v : undefined);
    const via = s(d.via_device);
    const entry = this.o.core.devices.register({
      identifiers: ids.map((id): DeviceIdentifier => ['mqtt', id]),
      name: s(d.name) ?? s(c.name) ?? ids[0] ?? 'MQTT device',
      owner: this.o.owner,
      manufacturer: s(d.manufacturer),
      model: s(d.model),
      sw_version: s(d.sw_version),
      hw_version: s(d.hw_version),
      serial_number: s(d.serial_number),
      via_device: via ? ['mqtt', via] : undefined,
      suggested_area: s(d.suggested_area),
    });
    return entry.id;
  }

  private adoptEntity(topic: string, component: string, c: Record<string, JsonValue>, text: string): Adopted {
    const { core, connection, log } = this.o;
    checkDiscovery(component, c);
    const qos = c.qos === 1 || c.qos === 2 ? c.qos : 0;
    const retain = c.retain === true;
    const name = displayName(c);
    const entityId = entityIdFor(core, component, c, name);
    // The entity's templates are one source of the hub's template budget, suspended (with one warning) when they
    // run out of time, until a new config adopts the entity again with a new renderer.
    const render = scopedRenderer(this.o.render, entityId, (message) => log.warn({ entity_id: entityId, topic }, message));
    // Messages of an entity with templates are handled when the budget has room, in order.
    const gate = hasTemplates(c) ? render.gate : (job: () => void) => job();
    // An optimistic command's assumed state is applied as a message would be, once the entity exists.
    let assume: (r: ReturnType<TopicHandler>) => void = () => undefined;
    const parts = adoptedParts(component, {
      config: c,
      render,
      publish: (t, payload) => connection.publish(t, payload, { qos, retain }),
      assume: (r) => assume(r),
    });
    if (parts === undefined) throw new Error(`component ${component} is not adopted`);
    if (parts.topics.length === 0 && optStr(c.command_topic) === undefined) throw new Error('no state_topic or command_topic');
    const deviceId = this.registerDevice(c);
    const uniqueId = optStr(c.unique_id);
    const fixed = { ...parts.fixed, ...(typeof c.icon === 'string' ? { icon: c.icon } : {}) };
    const entity = core.entities.add({
      entityId,
      owner: this.o.owner,
      platform: parts.platform,
      name,
      fixed,
      uniqueId: uniqueId ? `mqtt_${uniqueId}` : undefined,
      deviceId,
      restore: parts.restore ?? false,
      data: parts.data,
      ...(c.entity_category === 'config' || c.entity_category === 'diagnostic' ? { entityCategory: c.entity_category } : {}),
      ...(c.enabled_by_default === false ? { enabledByDefault: false } : {}),
    });
    const offs: (() => void)[] = [render.close];
    const availability = availabilityOf(c);
    const known = new Map<string, boolean>();
    let state: string | null | undefined;
    let attributes: JsonObject = {};
    let jsonAttributes: JsonObject = {};
    let warned = false;
    const apply = (): void => {
      if (!connection.connected) {
        entity.markUnavailable();
        return;
      }
      const available =
        availability.length === 0 ||
        (c.availability_mode === 'any' ? [...known.values()].some((v) => v) : availability.every((a) => known.get(a.topic) === true));
      if (!available) entity.markUnavailable();
      else if (state !== undefined) entity.report(state, { ...jsonAttributes, ...attributes });
      else entity.report(parts.ownState?.() ?? null, jsonAttributes);
    };
    const take = (r: ReturnType<TopicHandler>): void => {
      if (r.state !== undefined) state = r.state;
      if (r.attributes !== undefined) attributes = { ...attributes, ...r.attributes };
      apply();
    };
    assume = take;
    const guard = (t: string, fn: () => void) => {
      try {
        fn();
      } catch (err) {
        // The template budget's errors: the renderer warned once for the entity already.
        if (isBudgetError(err)) {
          log.debug(
            { entity_id: entity.id, topic: t, err: err instanceof Error ? err.message : String(err) },
            'MQTT template not rendered',
          );
          return;
        }
        if (warned) return;
        warned = true;
        log.warn(
          { entity_id: entity.id, topic: t, err: err instanceof Error ? err.message : String(err) },
          'MQTT payload not understood (logged once per entity)',
        );
      }
    };
    for (const a of availability) {
      offs.push(
        connection.subscribe(
          a.topic,
          (m) =>
            gate(() =>
              guard(a.topic, () => {
                const raw = m.payload.toString();
                const v = a.template ? render(a.template, payloadVariables(raw)).trim() : raw;
                if (v === a.on) known.set(a.topic, true);
                else if (v === a.off || raw === '') known.set(a.topic, false);
                apply();
              }),
            ),
          REPLAY,
        ),
      );
    }
    for (const [t, parse] of parts.topics) {
      offs.push(
        connection.subscribe(
          t,
          (m) =>
            gate(() =>
              guard(t, () => {
                if (m.payload.length === 0) return;
                take(parse(m.payload.toString()));
              }),
            ),
          REPLAY,
        ),
      );
    }
    const attrTopic = optStr(c.json_attributes_topic);
    if (attrTopic) {
      offs.push(
        connection.subscribe(
          attrTopic,
          (m) =>
            guard(attrTopic, () => {
              const v = m.payload.length === 0 ? {} : (JSON.parse(m.payload.toString()) as JsonValue);
              if (isJsonObject(v)) jsonAttributes = v;
              apply();
            }),
          REPLAY,
        ),
      );
    }
    // Until the broker answers again, availability is not known: the retained messages come back with the subscriptions.
    const lost = (): void => {
      known.clear();
      apply();
    };
    this.onBrokerLost.add(lost);
    offs.push(() => this.onBrokerLost.delete(lost), connection.onConnected(apply));
    apply();
    if (isJsonObject(c.hearth)) this.applyArea(entity.id, optStr(c.hearth.area));
    log.debug({ topic, entity_id: entity.id }, 'MQTT entity adopted');
    return { payload: text, entity, deviceId, offs };
  }

  /** Another hearth hub's area for one of its entities, unless the user gave the entity an area here. */
  private applyArea(entityId: string, area: string | undefined): void {
    const registries = this.o.registries;
    const entry = registries?.entities.entry(entityId);
    if (registries === undefined || entry === undefined || area === undefined || entry.area_id !== null) return;
    try {
      const found = registries.areas.find(area);
      const areaId = found ?? String(registries.areas.create({ name: area }).area_id);
      registries.entities.update(entityId, { area_id: areaId });
    } catch (err) {
      this.o.log.warn(
        { entity_id: entityId, area, err: err instanceof Error ? err.message : String(err) },
        'MQTT: the area of an adopted entity could not be set',
      );
    }
  }

  /** A device trigger (`device_automation`): each matching message fires `mqtt_device_trigger`. */
  private adoptTrigger(c: Record<string, JsonValue>, text: string): Adopted {
    const { core, connection, log } = this.o;
    const topic = optStr(c.topic);
    if (topic === undefined || c.automation_type !== 'trigger')
      throw new Error('a device trigger needs automation_type trigger and a topic');
    const deviceId = this.registerDevice(c);
    const template = optStr(c.value_template);
    const wanted = optStr(c.payload);
    const name = `MQTT device trigger on ${topic}`;
    const render = scopedRenderer(this.o.render, name, (message) => log.warn({ topic }, message));
    let warned = false;
    const handle = (raw: string): void => {
      let value = raw;
      if (template !== undefined) {
        try {
          value = render(template, payloadVariables(raw)).trim();
        } catch (err) {
          // Once per trigger (the budget's own errors it warned about already).
          const level = isBudgetError(err) || warned ? 'debug' : 'warn';
          if (!isBudgetError(err)) warned = true;
          log[level]({ topic, err: err instanceof Error ? err.message : String(err) }, 'MQTT device trigger: value_template failed');
          return;
        }
      }
      if (wanted !== undefined && value !== wanted) return;
      core.bus.fire(
        'mqtt_device_trigger',
        { device_id: deviceId ?? null, type: optStr(c.type) ?? null, subtype: optStr(c.subtype) ?? null, payload: value, topic },
        core.newContext(),
      );
    };
    const off = connection.subscribe(topic, (m) => {
      const raw = m.payload.toString();
      if (template === undefined) handle(raw);
      else render.gate(() => handle(raw));
    });
    return { payload: text, deviceId, offs: [off, render.close] };
  }
}

/** Whether a discovery config has a template (value, state, availability, command...): its messages go through the budget's gate. */
function hasTemplates(c: Record<string, JsonValue>): boolean {
  for (const [key, value] of Object.entries(c))
    if ((key.endsWith('_template') || key === 'availability') && value !== undefined) return true;
  return false;
}
