import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { haBoolean, haString } from './ha-values.js';
import { type ConfigIssue, type ConfigPath, type ConfigReader, kindOf } from './reader.js';

/**
 * Home Assistant's `customize`, `customize_domain` and `customize_glob` (core_config.py CUSTOMIZE_CONFIG_SCHEMA):
 * attributes put over an entity's own on every state it writes (helpers/entity.py), in the order domain, glob,
 * entity, so the most specific wins.
 */
export interface CustomizeConfig {
  readonly exact: ReadonlyMap<string, JsonObject>;
  readonly domain: ReadonlyMap<string, JsonObject>;
  /** In the file's order: a later glob overrides an earlier one for the keys both set. */
  readonly glob: readonly (readonly [string, JsonObject])[];
}

/** The keys of Home Assistant's `homeassistant:` section hearth reads besides the hub settings (hub-section.ts). */
export interface CoreExtras {
  readonly customize: CustomizeConfig;
  readonly allowlist_external_dirs: readonly string[];
  readonly allowlist_external_urls: readonly string[];
  readonly media_dirs: Readonly<Record<string, string>>;
  readonly radius: number;
  readonly debug: boolean;
}

export const EMPTY_CUSTOMIZE: CustomizeConfig = { exact: new Map(), domain: new Map(), glob: [] };

const ENTITY_ID = /^(?!.+__)(?!_)[\da-z_]+(?<!_)\.(?!_)[\da-z_]+(?<!_)$/;
const DOMAIN = /^(?!.+__)(?!_)[\da-z_]+(?<!_)$/;

/** CUSTOMIZE_DICT_SCHEMA: friendly_name a string, hidden and assumed_state booleans, any other attribute as given. */
function customizeDict(value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): JsonObject | undefined {
  if (!isJsonObject(value)) {
    issues.push({ path, message: `expected a mapping of attributes (friendly_name, icon, ...), got ${kindOf(value)}` });
    return undefined;
  }
  const out: Record<string, JsonValue> = Object.create(null);
  for (const [attr, v] of Object.entries(value)) {
    if (attr === 'friendly_name') {
      const s = haString(v);
      if (s === undefined) issues.push({ path: [...path, attr], message: `expected a string, got ${kindOf(v)}` });
      else out[attr] = s;
    } else if (attr === 'hidden' || attr === 'assumed_state') {
      const b = haBoolean(v);
      if (b === undefined) issues.push({ path: [...path, attr], message: `${JSON.stringify(v)} is not allowed: expected true or false` });
      else out[attr] = b;
    } else out[attr] = v;
  }
  return { ...out };
}

function customizeMap(r: ConfigReader, key: string, keyRule: RegExp | undefined, keyText: string): Map<string, JsonObject> {
  const out = new Map<string, JsonObject>();
  const value = r.raw(key);
  if (value === undefined) return out;
  if (!isJsonObject(value)) {
    r.problem(key, `expected a mapping of ${keyText} to attributes, got ${kindOf(value)}`);
    return out;
  }
  for (const name of Object.keys(value)) {
    const path = [...r.path, key, name];
    if (keyRule !== undefined && !keyRule.test(name)) {
      r.issues.push({ path, message: `${JSON.stringify(name)} is not allowed: expected ${keyText}` });
      continue;
    }
    const dict = customizeDict(value[name], path, r.issues);
    if (dict !== undefined) out.set(name, dict);
  }
  return out;
}

/** Reads `customize`, `customize_domain` and `customize_glob` of a `homeassistant:` mapping (or a package's). */
export function readCustomize(r: ConfigReader): CustomizeConfig {
  const exact = customizeMap(r, 'customize', ENTITY_ID, 'an entity id such as light.kitchen');
  const domain = customizeMap(r, 'customize_domain', DOMAIN, 'a domain such as light');
  const glob = customizeMap(r, 'customize_glob', undefined, 'a glob such as "light.kitchen_*"');
  return { exact, domain, glob: [...glob] };
}

/** `over` on top of `base`, key by key (a package's customize over the main one, as Home Assistant's dict.update). */
export function mergeCustomize(base: CustomizeConfig, over: CustomizeConfig): CustomizeConfig {
  const glob = new Map(base.glob);
  for (const [k, v] of over.glob) glob.set(k, v);
  return { exact: new Map([...base.exact, ...over.exact]), domain: new Map([...base.domain, ...over.domain]), glob: [...glob] };
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function dirList(r: ConfigReader, key: string): string[] {
  const dirs = r.stringList(key) ?? [];
  return dirs.filter((d, i) => {
    const ok = isAbsolute(d) && isDir(d);
    if (!ok)
      r.issues.push({
        path: [...r.path, key, i],
        message: `${JSON.stringify(d)} is not allowed: expected the absolute path of an existing folder`,
      });
    return ok;
  });
}

/**
 * The rest of Home Assistant's core schema (core_config.py CORE_CONFIG_SCHEMA): read and kept (customize, allowlists,
 * media folders, radius, debug), or accepted as Home Assistant does and not needed here (auth_providers,
 * auth_mfa_modules: hearth has its own users and tokens; legacy_templates and temperature_unit, which Home Assistant
 * itself removed). `packages` is merged by the loader before the sections are read.
 */
export function readCoreExtras(r: ConfigReader): CoreExtras {
  const customize = readCustomize(r);
  const legacyDirs = r.has('whitelist_external_dirs') ? dirList(r, 'whitelist_external_dirs') : [];
  const allowlist_external_dirs = [...dirList(r, 'allowlist_external_dirs'), ...legacyDirs];
  const allowlist_external_urls = (r.stringList('allowlist_external_urls') ?? []).filter((u, i) => {
    let ok = false;
    try {
      const url = new URL(u);
      ok = url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      ok = false;
    }
    if (!ok)
      r.issues.push({
        path: [...r.path, 'allowlist_external_urls', i],
        message: `${JSON.stringify(u)} is not allowed: expected an http:// or https:// URL`,
      });
    return ok;
  });
  const media: Record<string, string> = {};
  const mediaDirs = r.child('media_dirs');
  if (mediaDirs !== undefined) {
    for (const name of Object.keys(mediaDirs.value)) {
      const dir = mediaDirs.string(name);
      if (dir === undefined) continue;
      if (!isDir(dir)) mediaDirs.problem(name, `${JSON.stringify(dir)} is not allowed: expected the path of an existing folder`);
      else if (DOMAIN.test(name)) media[name] = dir;
      else mediaDirs.problem(name, `${JSON.stringify(name)} is not allowed: expected a name in lower case, digits and _`);
    }
  }
  const radius = r.number('radius', { integer: true, min: 0, default: 100 });
  const debug = r.boolean('debug', false);
  for (const key of ['auth_providers', 'auth_mfa_modules']) {
    const v = r.raw(key);
    if (v !== undefined && !Array.isArray(v)) r.problem(key, `expected a list, got ${kindOf(v)}`);
  }
  r.raw('legacy_templates');
  r.raw('temperature_unit');
  r.raw('packages');
  return { customize, allowlist_external_dirs, allowlist_external_urls, media_dirs: media, radius, debug };
}

/** fnmatch's pattern (Home Assistant's customize_glob and entity_globs): `*`, `?` and `[...]`, the rest literal. */
export function fnmatchRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) out += '\\[';
      else {
        const body = glob.slice(i + 1, end).replace(/\\/g, '\\\\');
        out += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
        i = end;
      }
    } else out += c.replace(/[.+^${}()|\\/\]]/g, '\\$&');
  }
  return new RegExp(`^${out}$`, 's');
}

/**
 * Home Assistant's EntityValues: the customized attributes of an entity, its domain's first, then each matching glob
 * in order, then its own, each over the one before. Undefined when nothing applies.
 */
export function customizer(config: CustomizeConfig): (entityId: string) => JsonObject | undefined {
  if (config.exact.size === 0 && config.domain.size === 0 && config.glob.length === 0) return () => undefined;
  const globs = config.glob.map(([pattern, values]) => [fnmatchRegExp(pattern), values] as const);
  return (entityId) => {
    const domain = entityId.slice(0, entityId.indexOf('.'));
    let out: JsonObject | undefined = config.domain.get(domain);
    for (const [re, values] of globs) if (re.test(entityId)) out = { ...out, ...values };
    const own = config.exact.get(entityId);
    if (own !== undefined) out = { ...out, ...own };
    return out;
  };
}
