import { EMPTY_FILTER, type EntityFilterSpec } from '../config/entity-filter.js';
import type { ConfigIssue, ConfigPath } from '../config/reader.js';
import { ConfigReader } from '../config/reader.js';
import { slugify } from '../core/entity-id.js';
import type { JsonValue } from '../core/json.js';

export interface MqttConfig {
  readonly broker: string;
  readonly username?: string;
  readonly password?: string;
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
  readonly clientId: string;
  readonly keepalive: number;
  /** 5, falling back to 4 (3.1.1) when the broker refuses 5; or fixed at 4. */
  readonly protocol: 5 | 4;
  readonly discoveryPrefix: string;
  readonly baseTopic: string;
  /** This hub's id among federated hubs (the base topic's last part by default): unique ids start with it. */
  readonly nodeId: string;
  readonly discovery: boolean;
  /** Whether discovery configs of other publishers become entities here. */
  readonly adopt: boolean;
  readonly include: EntityFilterSpec;
  readonly exclude: EntityFilterSpec;
  /** Messages larger than this (bytes) are refused with one warning each. */
  readonly maxMessageBytes: number;
  /** Outgoing messages kept while the broker is away (the latest per topic). */
  readonly maxQueued: number;
}

const BROKER_URL = /^(mqtt|mqtts|ws|wss):\/\/[^\s/]+/;
const TOPIC = /^[^#+\s][^#+]*$/;

function filterOf(r: ConfigReader | undefined): EntityFilterSpec {
  if (r === undefined) return EMPTY_FILTER;
  const f: EntityFilterSpec = {
    domains: r.stringList('domains') ?? [],
    entities: r.stringList('entities') ?? [],
    entityGlobs: r.stringList('entity_globs') ?? [],
    areas: r.stringList('areas') ?? [],
    labels: r.stringList('labels') ?? [],
  };
  r.rejectUnknown();
  return f;
}

/** Reads the `mqtt:` section; problems go to `issues` with their path. `hubName` gives the default base topic. */
export function parseMqttSection(value: JsonValue, path: ConfigPath, issues: ConfigIssue[], hubName = 'hearth'): MqttConfig {
  const r = ConfigReader.of(value, path, issues);
  const broker = r.string('broker', {
    required: true,
    pattern: BROKER_URL,
    patternText: 'a URL mqtt://, mqtts://, ws:// or wss://host[:port]',
  });
  const baseTopic =
    r.string('base_topic', { default: `hearth/${slugify(hubName)}`, pattern: TOPIC, patternText: 'a topic without + or #' }) ?? '';
  const lastPart =
    baseTopic
      .split('/')
      .filter((p) => p !== '')
      .pop() ?? 'hearth';
  const protocol = r.oneOf('protocol', ['5', '3.1.1'] as const, '5');
  const config: MqttConfig = {
    broker,
    username: r.string('username'),
    password: r.string('password'),
    ca: r.string('certificate_authority') ?? r.string('ca'),
    cert: r.string('client_cert'),
    key: r.string('client_key'),
    clientId: r.string('client_id', { default: `hearth-${slugify(lastPart)}` }) ?? '',
    keepalive: r.number('keepalive', { min: 5, max: 3600, integer: true, default: 60 }),
    protocol: protocol === '3.1.1' ? 4 : 5,
    discoveryPrefix:
      r.string('discovery_prefix', { default: 'homeassistant', pattern: TOPIC, patternText: 'a topic without + or #' }) ?? '',
    baseTopic,
    nodeId: r.string('node_id', { default: slugify(lastPart), pattern: /^[a-zA-Z0-9_-]+$/, patternText: 'letters, digits, _ and -' }) ?? '',
    discovery: r.boolean('discovery', true),
    adopt: r.boolean('adopt', true),
    include: filterOf(r.child('include')),
    exclude: filterOf(r.child('exclude')),
    maxMessageBytes: r.number('max_message_bytes', { min: 1024, max: 16_777_216, integer: true, default: 262_144 }),
    maxQueued: r.number('max_queued', { min: 10, max: 100_000, integer: true, default: 5000 }),
  };
  r.inclusive('client_cert', 'client_key', 'a client certificate needs its key');
  r.rejectUnknown();
  return config;
}

export const MQTT_SECTION_VALIDATORS = {
  mqtt: (value: JsonValue, path: ConfigPath, issues: ConfigIssue[]): void => {
    parseMqttSection(value, path, issues);
  },
};
