import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { DEFAULT_MAX_ENTITIES } from '../core/state-table.js';
import { packageRoot } from '../util/paths.js';
import { ConfigError, type ConfigIssue, type ConfigPath, ConfigReader } from './reader.js';
import type { HubConfig, HubSection } from './types.js';

/** Validates one top-level section, appending problems with their paths. */
export type SectionValidator = (value: JsonValue, path: ConfigPath, issues: ConfigIssue[]) => void;
export type SectionValidators = Readonly<Record<string, SectionValidator>>;

/** The bundled demo configuration, used when `serve` gets no --config. */
export const DEMO_CONFIG_PATH = join(packageRoot(), 'config', 'demo.yaml');

// Stub: a minimal loader, replaced by the full one (secrets, file:line:column, hub section rules).
export function parseConfigText(text: string, path: string | null, validators: SectionValidators): HubConfig {
  const doc = (parse(text) ?? {}) as JsonValue;
  const issues: ConfigIssue[] = [];
  const root = ConfigReader.of(doc, [], issues);
  const hub = readHub(root.child('hub') ?? new ConfigReader({}, ['hub'], issues));
  const sections: Record<string, JsonObject | readonly JsonObject[]> = {};
  for (const [key, value] of Object.entries(isJsonObject(doc) ? doc : {})) {
    if (key === 'hub') continue;
    const validator = validators[key];
    if (validator === undefined)
      issues.push({ path: [key], message: `unknown section; allowed: hub, ${Object.keys(validators).join(', ')}` });
    else validator(value, [key], issues);
    sections[key] = value as JsonObject;
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return { hub, path, sections };
}

export async function loadConfig(path: string | null, validators: SectionValidators): Promise<HubConfig> {
  const file = path ?? DEMO_CONFIG_PATH;
  const text = await readFile(file, 'utf8');
  return parseConfigText(text, path, validators);
}

function readHub(r: ConfigReader): HubSection {
  const hub: HubSection = {
    name: r.string('name', { default: 'Home' }) ?? 'Home',
    latitude: r.number('latitude', { min: -90, max: 90, default: 52.3731 }),
    longitude: r.number('longitude', { min: -180, max: 180, default: 4.8922 }),
    elevation: r.number('elevation', { integer: true, default: 0 }),
    unit_system: r.oneOf('unit_system', ['metric', 'us_customary'] as const, 'metric'),
    time_zone: r.string('time_zone', { default: 'UTC' }) ?? 'UTC',
    currency: r.string('currency', { default: 'EUR' }) ?? 'EUR',
    country: r.string('country') ?? null,
    language: r.string('language', { default: 'en' }) ?? 'en',
    port: r.number('port', { integer: true, min: 0, max: 65535, default: 8123 }),
    host: r.string('host', { default: '0.0.0.0' }) ?? '0.0.0.0',
    max_entities: r.number('max_entities', { integer: true, min: 1, max: 1_000_000, default: DEFAULT_MAX_ENTITIES }),
    external_url: r.string('external_url') ?? null,
    internal_url: r.string('internal_url') ?? null,
  };
  r.rejectUnknown();
  return hub;
}
