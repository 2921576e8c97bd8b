// The `homekit:` section, as Home Assistant's HomeKit Bridge reads it (a list of bridges or one mapping; its
// `filter:` with HA's entityfilter keys, plus hearth's areas and labels), and which entities it selects.
import { EMPTY_FILTER, type EntityFilterSpec, parseFlatFilter, strings } from '../config/entity-filter.js';
import type { ConfigIssue, ConfigPath } from '../config/reader.js';
import { isJsonObject, type JsonValue } from '../core/json.js';

export interface HomekitConfig {
  readonly name: string;
  /** The HAP server's TCP port (Home Assistant's default 21063; 0 picks a free one). */
  readonly port: number;
  /** Addresses or interfaces to serve and announce on (all by default). */
  readonly bind?: readonly string[];
  /** HA's entityfilter keys plus areas and labels (src/config/entity-filter.ts). */
  readonly filter: { readonly include: EntityFilterSpec; readonly exclude: EntityFilterSpec };
  /** Per-entity names shown in Apple Home. */
  readonly names: ReadonlyMap<string, string>;
  /** False in tests: serve HAP without announcing over mDNS. */
  readonly advertise: boolean;
}

const KEYS = new Set(['name', 'port', 'bind', 'ip_address', 'filter', 'entity_config', 'advertise', 'mode', 'advertise_ip', 'devices']);

export function parseHomekit(value: JsonValue, path: ConfigPath, issues: ConfigIssue[]): HomekitConfig {
  // Home Assistant's section is a list of bridges; hearth runs one (the first).
  const first = Array.isArray(value) ? value[0] : value;
  const at = Array.isArray(value) ? [...path, 0] : path;
  if (Array.isArray(value) && value.length > 1)
    issues.push({ path: [...path, 1], message: 'hearth runs one HomeKit bridge: put every entity in the first' });
  const v = first === null || first === undefined ? {} : first;
  if (!isJsonObject(v)) {
    issues.push({ path: at, message: 'expected a mapping (name, port, filter, entity_config)' });
    return defaults();
  }
  for (const key of Object.keys(v))
    if (!KEYS.has(key)) issues.push({ path: [...at, key], message: `unknown key; allowed: ${[...KEYS].join(', ')}` });
  const name = v.name ?? 'hearth Bridge';
  if (typeof name !== 'string' || name.length < 1 || name.length > 64)
    issues.push({ path: [...at, 'name'], message: 'expected a name of 1 to 64 characters' });
  const port = v.port ?? 21063;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535)
    issues.push({ path: [...at, 'port'], message: 'expected a port number from 0 to 65535' });
  const filter = parseFlatFilter(v.filter, [...at, 'filter'], issues);
  const names = new Map<string, string>();
  const entityConfig = v.entity_config ?? {};
  if (isJsonObject(entityConfig)) {
    for (const [entityId, cfg] of Object.entries(entityConfig))
      if (isJsonObject(cfg) && typeof cfg.name === 'string') names.set(entityId, cfg.name.slice(0, 64));
  } else issues.push({ path: [...at, 'entity_config'], message: 'expected a mapping of entity ids to {name: ...}' });
  const bind = v.bind ?? v.ip_address;
  return {
    name: typeof name === 'string' ? name.slice(0, 64) : 'hearth Bridge',
    port: typeof port === 'number' ? port : 21063,
    bind: bind === undefined ? undefined : strings(bind, [...at, 'bind'], issues),
    filter,
    names,
    advertise: v.advertise !== false,
  };
}

function defaults(): HomekitConfig {
  return {
    name: 'hearth Bridge',
    port: 21063,
    filter: { include: EMPTY_FILTER, exclude: EMPTY_FILTER },
    names: new Map(),
    advertise: true,
  };
}
