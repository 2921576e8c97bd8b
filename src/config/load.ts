import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Document } from 'yaml';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { ownValue } from '../core/own-keys.js';
import { packageRoot } from '../util/paths.js';
import { ConfigFileError, type LocatedIssue, sortIssues } from './format.js';
import { readHubSection } from './hub-section.js';
import { type Anchor, type FilePosition, locate } from './positions.js';
import type { ConfigIssue, ConfigPath } from './reader.js';
import { ConfigReader } from './reader.js';
import type { HubConfig } from './types.js';
import { type SecretUse, YamlFiles } from './yaml-files.js';

export { ConfigFileError, formatIssue, type LocatedIssue } from './format.js';

/** Validates one top-level section, appending problems with their paths. */
export type SectionValidator = (value: JsonValue, path: ConfigPath, issues: ConfigIssue[]) => void;
export type SectionValidators = Readonly<Record<string, SectionValidator>>;

/** The bundled demo configuration, used when `serve` gets no --config. */
export const DEMO_CONFIG_PATH = join(packageRoot(), 'config', 'demo.yaml');

/** A bound on `*alias` expansion, so a "billion laughs" file cannot exhaust memory. */
const MAX_ALIAS_COUNT = 100;

export interface ParseOptions {
  /** The file name to show in problems; defaults to `path`, or `<config>` for text without a file. */
  readonly displayPath?: string;
}

/**
 * Parses and validates a configuration text. Throws a ConfigFileError listing every problem, each with
 * file, line and column (of the included file when it is in one); YAML syntax errors stop before
 * validation (the content would be guesswork). Tags as Home Assistant's loader: `!secret` (secrets.yaml
 * beside the file or above it), `!env_var`, `!include` and `!include_dir_*` relative to the file.
 */
export function parseConfigText(text: string, path: string | null, validators: SectionValidators, options: ParseOptions = {}): HubConfig {
  const file = options.displayPath ?? path ?? '<config>';
  const located: LocatedIssue[] = [];
  const absPath = path === null ? null : resolve(path);
  const files = new YamlFiles(absPath === null ? null : dirname(absPath), located);
  const parsed = files.parse(text, file, absPath, []);
  if (parsed === null || located.some((i) => i.message.startsWith('YAML syntax error')))
    throw new ConfigFileError(sortIssues(located, file));

  const root = toJson(parsed.doc, file, located);
  const issues: ConfigIssue[] = [];
  const config = validate(root, absPath, validators, issues);
  for (const issue of issues) {
    if (files.failed.some((p) => startsWith(issue.path, p))) continue;
    const anchor: Anchor = /^unknown (option|section)/.test(issue.message) ? 'key' : 'value';
    const at = locate(parsed.doc, parsed.source, files.sources, issue.path, anchor);
    located.push({ ...at, path: issue.path, message: redactSecrets(issue.message, at, files.secrets) });
  }
  if (located.length > 0) throw new ConfigFileError(sortIssues(located, file));
  return config;
}

/** Reads and parses a configuration file (the bundled demo for null). */
export async function loadConfig(path: string | null, validators: SectionValidators): Promise<HubConfig> {
  const file = path ?? DEMO_CONFIG_PATH;
  const text = await readFile(file, 'utf8');
  return parseConfigText(text, path === null ? null : file, validators, { displayPath: file });
}

function validate(root: JsonValue, path: string | null, validators: SectionValidators, issues: ConfigIssue[]): HubConfig {
  const doc: JsonObject = root === null ? {} : isJsonObject(root) ? root : {};
  if (root !== null && !isJsonObject(root)) issues.push({ path: [], message: 'expected a mapping of sections (hub:, virtual:, ...)' });
  // Home Assistant's name for the same section (name, latitude, time_zone, unit_system... are the same keys).
  const hubKey = doc.hub === undefined && doc.homeassistant !== undefined ? 'homeassistant' : 'hub';
  if (hubKey === 'hub' && doc.homeassistant !== undefined) {
    issues.push({
      path: ['homeassistant'],
      message: 'give the hub settings either in hub: or in homeassistant: (its Home Assistant name), not both',
    });
  }
  const hubValue = doc[hubKey];
  const hub = readHubSection(
    hubValue === undefined || hubValue === null ? new ConfigReader({}, [hubKey], issues) : ConfigReader.of(hubValue, [hubKey], issues),
  );
  const sections: Record<string, JsonObject | readonly JsonObject[]> = {};
  const firstKey = new Map<string, string>();
  const allowed = ['hub', ...Object.keys(validators).sort()].join(', ');
  for (const [key, value] of Object.entries(doc)) {
    if (key === 'hub' || key === 'homeassistant') continue;
    // `automation manual:` beside `automation ui:`: Home Assistant reads "<section> <label>" as more of <section>.
    const section = LABELLED_KEY.exec(key)?.[1] ?? key;
    // A section name is a key of the YAML: `constructor:` or `__proto__:` is an unknown section, not Object's.
    const validator = ownValue(validators, section);
    if (validator === undefined) {
      issues.push({ path: [key], message: `unknown section; allowed: ${allowed}` });
      continue;
    }
    validator(value, [key], issues);
    const earlier = firstKey.get(section);
    if (earlier === undefined) {
      firstKey.set(section, key);
      sections[section] = value as JsonObject | readonly JsonObject[];
    } else mergeSection(sections, section, value, key, earlier, issues);
  }
  return { hub, path, sections };
}

const LABELLED_KEY = /^([a-z0-9_]+) +\S.*$/;

/** More of a section under a labelled key: lists are joined, mappings merged (a name given twice is a problem). */
function mergeSection(
  sections: Record<string, JsonObject | readonly JsonObject[]>,
  section: string,
  value: JsonValue,
  key: string,
  earlier: string,
  issues: ConfigIssue[],
): void {
  const have = sections[section] as JsonValue;
  if (value === null) return;
  if (have === null || have === undefined) {
    sections[section] = value as JsonObject | readonly JsonObject[];
  } else if (Array.isArray(have) && Array.isArray(value)) {
    sections[section] = [...have, ...value] as JsonObject[];
  } else if (isJsonObject(have) && isJsonObject(value)) {
    for (const name of Object.keys(value)) {
      if (Object.hasOwn(have, name)) issues.push({ path: [key, name], message: `${name} is already defined under ${earlier}:` });
    }
    sections[section] = { ...value, ...have };
  } else {
    issues.push({
      path: [key],
      message: `expected ${Array.isArray(have) ? 'a list' : 'a mapping'}, as under ${earlier}:, to add to ${section}`,
    });
  }
}

/** A problem about a value that came from a secret names the secret, never its value. */
function redactSecrets(message: string, at: FilePosition, secrets: readonly SecretUse[]): string {
  let out = message;
  for (const { file, line, name, value } of secrets) {
    if (file !== at.file || line !== at.line) continue;
    // Only strings and structures: a short number would match digits elsewhere in the message.
    if (typeof value === 'number' || typeof value === 'boolean' || value === null) continue;
    out = out.split(JSON.stringify(value)).join(`<secret ${name}>`);
  }
  return out;
}

function startsWith(path: ConfigPath, prefix: ConfigPath): boolean {
  return prefix.length <= path.length && prefix.every((p, i) => p === path[i]);
}

/** The document (with its includes) as plain JSON; values JSON cannot hold were reported per file. */
function toJson(doc: Document, file: string, located: LocatedIssue[]): JsonValue {
  try {
    const value = (doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? null) as JsonValue;
    // yaml slices string values out of the file's text, so keeping any one of them (an entity's name, say)
    // would keep the whole text in memory for the hub's lifetime. A JSON round trip gives every string its
    // own storage; it is the identity on this value (plain JSON), unless a non-finite number was found,
    // and then the configuration is refused anyway.
    return JSON.parse(JSON.stringify(value)) as JsonValue;
  } catch (err) {
    // yaml refuses documents whose aliases expand too far ("billion laughs").
    located.push({ file, line: 1, column: 1, path: [], message: `cannot expand the document: ${(err as Error).message}` });
    return null;
  }
}
