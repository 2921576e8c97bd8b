// The `homekit:` section, as Home Assistant's HomeKit Bridge reads it (a list of bridges or one mapping; its
// `filter:` with HA's entityfilter keys, plus hearth's areas and labels), and which entities it selects.
import type { ConfigIssue, ConfigPath } from '../config/reader.js';
import { isJsonObject, type JsonValue } from '../core/json.js';

export interface HomekitFilter {
  readonly includeDomains: readonly string[];
  readonly includeEntities: readonly string[];
  readonly includeGlobs: readonly string[];
  readonly includeAreas: readonly string[];
  readonly includeLabels: readonly string[];
  readonly excludeDomains: readonly string[];
  readonly excludeEntities: readonly string[];
  readonly excludeGlobs: readonly string[];
}

export interface HomekitConfig {
  readonly name: string;
  /** The HAP server's TCP port (Home Assistant's default 21063; 0 picks a free one). */
  readonly port: number;
  /** Addresses or interfaces to serve and announce on (all by default). */
  readonly bind?: readonly string[];
  readonly filter: HomekitFilter;
  /** Per-entity names shown in Apple Home. */
  readonly names: ReadonlyMap<string, string>;
  /** False in tests: serve HAP without announcing over mDNS. */
  readonly advertise: boolean;
}

const KEYS = new Set(['name', 'port', 'bind', 'ip_address', 'filter', 'entity_config', 'advertise', 'mode', 'advertise_ip', 'devices']);
const FILTER_KEYS = [
  'include_domains',
  'include_entities',
  'include_entity_globs',
  'include_areas',
  'include_labels',
  'exclude_domains',
  'exclude_entities',
  'exclude_entity_globs',
] as const;

function strings(value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  issues.push({ path, message: 'expected a list of strings' });
  return [];
}

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
  const filterValue = v.filter ?? {};
  const filter: Record<string, string[]> = {};
  if (!isJsonObject(filterValue)) issues.push({ path: [...at, 'filter'], message: `expected a mapping with ${FILTER_KEYS.join(', ')}` });
  else {
    for (const key of Object.keys(filterValue)) {
      if (!(FILTER_KEYS as readonly string[]).includes(key))
        issues.push({ path: [...at, 'filter', key], message: `unknown key; allowed: ${FILTER_KEYS.join(', ')}` });
    }
    for (const key of FILTER_KEYS) filter[key] = strings(filterValue[key], [...at, 'filter', key], issues);
  }
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
    filter: {
      includeDomains: filter.include_domains ?? [],
      includeEntities: filter.include_entities ?? [],
      includeGlobs: filter.include_entity_globs ?? [],
      includeAreas: filter.include_areas ?? [],
      includeLabels: filter.include_labels ?? [],
      excludeDomains: filter.exclude_domains ?? [],
      excludeEntities: filter.exclude_entities ?? [],
      excludeGlobs: filter.exclude_entity_globs ?? [],
    },
    names,
    advertise: v.advertise !== false,
  };
}

function defaults(): HomekitConfig {
  const none: string[] = [];
  return {
    name: 'hearth Bridge',
    port: 21063,
    filter: {
      includeDomains: none,
      includeEntities: none,
      includeGlobs: none,
      includeAreas: none,
      includeLabels: none,
      excludeDomains: none,
      excludeEntities: none,
      excludeGlobs: none,
    },
    names: new Map(),
    advertise: true,
  };
}

function glob(patterns: readonly string[], id: string): boolean {
  return patterns.some((p) =>
    new RegExp(
      `^${p
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.')}$`,
    ).test(id),
  );
}

/**
 * Home Assistant's entityfilter: with no include, everything not excluded; with includes, an entity listed (or in
 * an included domain, glob, area or label) unless it is itself excluded. An explicitly included entity wins over
 * an excluded domain, as in HA.
 */
export function selects(f: HomekitFilter, entityId: string, areaId: string | null, labels: readonly string[]): boolean {
  const domain = entityId.slice(0, entityId.indexOf('.'));
  if (f.includeEntities.includes(entityId)) return true;
  if (f.excludeEntities.includes(entityId) || glob(f.excludeGlobs, entityId)) return false;
  const hasInclude =
    f.includeDomains.length + f.includeEntities.length + f.includeGlobs.length + f.includeAreas.length + f.includeLabels.length > 0;
  const included =
    f.includeDomains.includes(domain) ||
    glob(f.includeGlobs, entityId) ||
    (areaId !== null && f.includeAreas.includes(areaId)) ||
    labels.some((l) => f.includeLabels.includes(l));
  if (hasInclude) return included;
  return !f.excludeDomains.includes(domain);
}
