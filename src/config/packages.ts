import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { isHaDomain } from './known-sections.js';
import type { ConfigIssue, ConfigPath } from './reader.js';

/**
 * Sections whose packages are joined as lists (Home Assistant: an integration with a PLATFORM_SCHEMA, or whose config
 * platform says PACKAGE_MERGE_HINT = "list", or whose schema is a list); every other Home Assistant section's are merged
 * as mappings. A section of hearth's own (`virtual:`) is joined as a list when either side already is one.
 */
const LIST_SECTIONS: ReadonlySet<string> = new Set([
  'automation',
  'template',
  'scene',
  'air_quality',
  'alarm_control_panel',
  'binary_sensor',
  'calendar',
  'camera',
  'climate',
  'cover',
  'device_tracker',
  'fan',
  'geo_location',
  'humidifier',
  'image_processing',
  'light',
  'lock',
  'media_player',
  'notify',
  'remote',
  'sensor',
  'siren',
  'stt',
  'switch',
  'tts',
  'vacuum',
  'water_heater',
  'weather',
  'zone',
  'person',
  'rest',
  'command_line',
  'modbus',
  'panel_custom',
]);

/** Where merged content came from: per top-level key, each mapping name's and each list item's place in the file. */
export interface PackageOrigins {
  readonly names: Map<string, ConfigPath>;
  readonly items: Map<number, ConfigPath>;
}

const PACKAGE_NAME = /^[a-zA-Z0-9_\- ]+$/;
const DOMAIN_KEY = /^([a-z0-9_]+)(?: +\S.*)?$/;

/** A mapping for keys from the file: without a prototype, so `__proto__:` is a key like any other. */
function dict(from?: JsonObject): Record<string, JsonValue> {
  return Object.assign(Object.create(null) as Record<string, JsonValue>, from);
}

/** Python's falsy: None, false, 0, "", [], {} (cv.remove_falsy). */
function truthy(v: JsonValue): boolean {
  if (v === null || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (isJsonObject(v)) return Object.keys(v).length > 0;
  return true;
}

function ensureList(v: JsonValue | undefined): readonly JsonValue[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}

/** Home Assistant's _recursive_merge: mappings merged, lists joined, a key both give is the duplicate returned. */
function recursiveMerge(conf: Record<string, JsonValue>, pack: JsonObject): string | undefined {
  let duplicate: string | undefined;
  for (const [key, value] of Object.entries(pack)) {
    if (isJsonObject(value)) {
      if (Object.keys(value).length === 0) continue;
      const have = dict(Object.hasOwn(conf, key) && isJsonObject(conf[key]) ? (conf[key] as JsonObject) : undefined);
      duplicate = recursiveMerge(have, value);
      conf[key] = have;
    } else if (Array.isArray(value)) {
      conf[key] = [...ensureList(Object.hasOwn(conf, key) ? conf[key] : undefined), ...value].filter(truthy);
    } else {
      if (Object.hasOwn(conf, key) && conf[key] !== null) return key;
      conf[key] = value;
    }
  }
  return duplicate;
}

/**
 * Home Assistant's merge_packages_config (config.py): each package's sections merged into the configuration's, the
 * list sections joined (falsy items dropped), the others merged key by key; a section given in the main file and in a
 * package under the same key is a problem naming the package and the key, and that section of that package is left
 * out. `homeassistant:` in a package is read by the caller (its customize). Returns the merged configuration and,
 * per key, where its merged names and items came from.
 */
export function mergePackages(
  config: JsonObject,
  packages: JsonValue | undefined,
  at: ConfigPath,
  issues: ConfigIssue[],
): { config: JsonObject; origins: Map<string, PackageOrigins> } {
  const out = dict(config);
  const origins = new Map<string, PackageOrigins>();
  if (packages === undefined || packages === null) return { config: out, origins };
  if (!isJsonObject(packages)) {
    issues.push({ path: at, message: 'expected a mapping of package names to their configuration (e.g. !include_dir_named packages)' });
    return { config: out, origins };
  }
  const originOf = (key: string): PackageOrigins => {
    let o = origins.get(key);
    if (o === undefined) {
      o = { names: new Map(), items: new Map() };
      origins.set(key, o);
    }
    return o;
  };
  for (const [name, packValue] of Object.entries(packages)) {
    const packPath = [...at, name];
    if (!PACKAGE_NAME.test(name)) {
      issues.push({
        path: packPath,
        message: `${JSON.stringify(name)} is not allowed: expected a package name of letters, digits, _, - and spaces`,
      });
      continue;
    }
    if (packValue !== null && !isJsonObject(packValue)) {
      issues.push({
        path: packPath,
        message: `Setup of package '${name}' failed: expected a mapping of sections, got a ${Array.isArray(packValue) ? 'list' : typeof packValue}`,
      });
      continue;
    }
    const fail = (comp: string, message: string) =>
      issues.push({ path: [...packPath, comp], message: `Setup of package '${name}' failed: ${message}` });
    for (const [comp, compValue] of Object.entries(packValue ?? {})) {
      if (comp === 'homeassistant') continue;
      const domain = DOMAIN_KEY.exec(comp)?.[1];
      if (domain === undefined) {
        fail(comp, `Invalid domain '${comp}'`);
        continue;
      }
      const compPath = [...packPath, comp];
      const have = Object.hasOwn(out, comp) ? out[comp] : undefined;
      const asList = LIST_SECTIONS.has(domain) || (!isHaDomain(domain) && (Array.isArray(compValue) || Array.isArray(have)));
      if (asList) {
        const before = ensureList(have).filter(truthy);
        const added = Array.isArray(compValue) ? compValue : [compValue];
        const o = originOf(comp);
        // A mapping in the main file becomes the first item of the list (cv.ensure_list).
        if (have !== undefined && !Array.isArray(have) && truthy(have)) o.items.set(0, [comp]);
        let n = before.length;
        added.forEach((item, i) => {
          if (!truthy(item)) return;
          o.items.set(n++, Array.isArray(compValue) ? [...compPath, i] : compPath);
        });
        out[comp] = [...before, ...added.filter(truthy)];
        continue;
      }
      const pack = compValue ?? {};
      if (!isJsonObject(pack)) {
        fail(comp, `integration '${comp}' cannot be merged, expected a dict`);
        continue;
      }
      if (have !== undefined && have !== null && !isJsonObject(have)) {
        fail(comp, `integration '${comp}' cannot be merged, dict expected in main config`);
        continue;
      }
      const merged = dict((have ?? undefined) as JsonObject | undefined);
      const duplicate = recursiveMerge(merged, pack);
      if (duplicate !== undefined) {
        fail(comp, `integration '${comp}' has duplicate key '${duplicate}'`);
        continue;
      }
      const o = originOf(comp);
      for (const key of Object.keys(pack)) if (!Object.hasOwn((have ?? {}) as JsonObject, key)) o.names.set(key, compPath);
      out[comp] = merged;
    }
  }
  return { config: out, origins };
}
