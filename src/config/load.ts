import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Document } from 'yaml';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { packageRoot } from '../util/paths.js';
import { ConfigFileError, type LocatedIssue, type SectionProblem, sortIssues } from './format.js';
import { readHubSection } from './hub-section.js';
import { type Anchor, type FilePosition, locate } from './positions.js';
import type { ConfigIssue, ConfigPath } from './reader.js';
import { ConfigReader } from './reader.js';
import type { HubConfig, HubSection } from './types.js';
import { type SecretUse, YamlFiles } from './yaml-files.js';

export { ConfigFileError, formatIssue, type LocatedIssue, type SectionProblem } from './format.js';

/**
 * Reads one top-level section: appends its problems (with their paths) and returns what it read, the typed
 * configuration the part that owns the section is created with. `hub` is the `hub:` section (the loader reads it
 * first; a caller checking one section alone may leave it out).
 */
export type SectionValidator = (value: JsonValue, path: ConfigPath, issues: ConfigIssue[], hub?: HubSection) => unknown;
export type SectionValidators = Readonly<Record<string, SectionValidator>>;

/** The bundled demo configuration, used when `serve` gets no --config. */
export const DEMO_CONFIG_PATH = join(packageRoot(), 'config', 'demo.yaml');

/** A bound on `*alias` expansion, so a "billion laughs" file cannot exhaust memory. */
const MAX_ALIAS_COUNT = 100;

export interface ParseOptions {
  /** The file name to show in problems; defaults to `path`, or `<config>` for text without a file. */
  readonly displayPath?: string;
  /**
   * Sections whose problems stop a lenient read (readConfigText) as those of `hub:` do: parts nothing can run
   * without, or that could run wider open than meant (`http:`).
   */
  readonly required?: readonly string[];
}

/**
 * Parses and validates a configuration text. Throws a ConfigFileError listing every problem, each with
 * file, line and column (of the included file when it is in one); YAML syntax errors stop before
 * validation (the content would be guesswork). Tags as Home Assistant's loader: `!secret` (secrets.yaml
 * beside the file or above it), `!env_var`, `!include` and `!include_dir_*` relative to the file.
 */
export function parseConfigText(text: string, path: string | null, validators: SectionValidators, options: ParseOptions = {}): HubConfig {
  const config = readConfig(text, path, validators, options);
  if (config.problems.length > 0) throw new ConfigFileError(config.problems);
  return config;
}

/**
 * As parseConfigText, but only problems nothing can start with throw: YAML syntax, the document's shape,
 * `hub:` and the `required` sections. Every other problem comes back in `problems`, naming its section,
 * so the hub starts each part whose configuration is sound and reports the others.
 */
export function readConfigText(text: string, path: string | null, validators: SectionValidators, options: ParseOptions = {}): HubConfig {
  const config = readConfig(text, path, validators, options);
  const required = new Set(options.required ?? []);
  if (config.problems.some((p) => p.section === null || required.has(p.section))) throw new ConfigFileError(config.problems);
  return config;
}

/** Reads and parses a configuration file (the bundled demo for null); every problem throws. */
export async function loadConfig(path: string | null, validators: SectionValidators): Promise<HubConfig> {
  const file = path ?? DEMO_CONFIG_PATH;
  const text = await readFile(file, 'utf8');
  return parseConfigText(text, path === null ? null : file, validators, { displayPath: file });
}

/** Reads a configuration file as readConfigText does: problems a part can be left out for come back in `problems`. */
export async function readConfigFile(path: string | null, validators: SectionValidators, required?: readonly string[]): Promise<HubConfig> {
  const file = path ?? DEMO_CONFIG_PATH;
  const text = await readFile(file, 'utf8');
  return readConfigText(text, path === null ? null : file, validators, { displayPath: file, required });
}

function readConfig(text: string, path: string | null, validators: SectionValidators, options: ParseOptions): HubConfig {
  const file = options.displayPath ?? path ?? '<config>';
  const located: LocatedIssue[] = [];
  const absPath = path === null ? null : resolve(path);
  const files = new YamlFiles(absPath === null ? null : dirname(absPath), located);
  const parsed = files.parse(text, file, absPath, []);
  if (parsed === null || located.some((i) => i.message.startsWith('YAML syntax error')))
    throw new ConfigFileError(sortIssues(located, file));

  const root = toJson(parsed.doc, file, located);
  const issues: SectionIssue[] = [];
  const { origins, ...config } = validate(root, absPath, validators, issues);
  const problems = located.map((issue): SectionProblem => {
    const section = sectionOf(issue.path, validators);
    const sectionPath = section === null ? undefined : origins.get(section)?.toSection(section, issue.path);
    return sectionPath === undefined ? { ...issue, section } : { ...issue, section, sectionPath };
  });
  for (const issue of issues) {
    if (files.failed.some((p) => startsWith(issue.path, p))) continue;
    const anchor: Anchor = /^unknown (option|section)/.test(issue.message) ? 'key' : 'value';
    const at = locate(parsed.doc, parsed.source, files.sources, issue.path, anchor);
    const problem = {
      ...at,
      path: issue.path,
      message: redactSecrets(issue.message, at, files.secrets),
      section: sectionOf(issue.path, validators),
    };
    problems.push(issue.sectionPath === undefined ? problem : { ...problem, sectionPath: issue.sectionPath });
  }
  return { ...config, problems: sortIssues(problems, file) };
}

/** The section a problem is in: `automation` for `automation manual:`; null for the document itself and `hub:`. */
function sectionOf(path: ConfigPath, validators: SectionValidators): string | null {
  const key = path[0];
  if (typeof key !== 'string' || key === 'hub' || key === 'homeassistant') return null;
  const section = LABELLED_KEY.exec(key)?.[1] ?? key;
  return Object.hasOwn(validators, section) ? section : key;
}

/** A validator's problem, with its path in the file and, when it is about the merged section's value, there. */
interface SectionIssue extends ConfigIssue {
  readonly sectionPath?: ConfigPath;
}

/**
 * Where each item of a section merged from labelled keys came from, so a problem the section's validator finds
 * at `automation[5]` is shown at `automation ui[2]`, in the file that holds it.
 */
class Origins {
  private readonly keys: string[] = [];
  private readonly items: (readonly [string, number])[] = [];
  private readonly names = new Map<string, string>();

  /** The key that started the section. */
  get first(): string {
    return this.keys[0] ?? '';
  }

  /** Records what `key` adds to the section (its whole value when it starts it). */
  add(key: string, value: JsonValue): void {
    this.keys.push(key);
    if (Array.isArray(value)) for (let i = 0; i < value.length; i++) this.items.push([key, i]);
    else if (isJsonObject(value)) for (const name of Object.keys(value)) if (!this.names.has(name)) this.names.set(name, key);
  }

  /** The path in the merged section of a path in the file; undefined when the merged section does not hold it. */
  toSection(section: string, path: ConfigPath): ConfigPath | undefined {
    const [key, item, ...rest] = path;
    if (typeof key !== 'string' || !this.keys.includes(key)) return undefined;
    if (item === undefined) return [section];
    if (typeof item === 'number') {
      const i = this.items.findIndex(([k, n]) => k === key && n === item);
      return i < 0 ? undefined : [section, i, ...rest];
    }
    const owner = this.names.get(item);
    return owner === undefined || owner === key ? [section, item, ...rest] : undefined;
  }

  /** The path in the file of a path in the merged section. */
  toFile(path: ConfigPath): ConfigPath {
    const [, item, ...rest] = path;
    const fromList = typeof item === 'number' ? this.items[item] : undefined;
    if (fromList !== undefined) return [fromList[0], fromList[1], ...rest];
    const fromMap = typeof item === 'string' ? this.names.get(item) : undefined;
    if (fromMap !== undefined) return [fromMap, ...path.slice(1)];
    return [this.keys[0] ?? String(path[0]), ...path.slice(1)];
  }
}

function validate(
  root: JsonValue,
  path: string | null,
  validators: SectionValidators,
  issues: SectionIssue[],
): Omit<HubConfig, 'problems'> & { origins: ReadonlyMap<string, Origins> } {
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
  const origins = new Map<string, Origins>();
  const allowed = ['hub', ...Object.keys(validators).sort()].join(', ');
  for (const [key, value] of Object.entries(doc)) {
    if (key === 'hub' || key === 'homeassistant') continue;
    // `automation manual:` beside `automation ui:`: Home Assistant reads "<section> <label>" as more of <section>.
    const section = LABELLED_KEY.exec(key)?.[1] ?? key;
    // A section name is a key of the YAML: `constructor:` or `__proto__:` is an unknown section, not Object's.
    if (!Object.hasOwn(validators, section)) {
      issues.push({ path: [key], message: `unknown section; allowed: ${allowed}` });
      continue;
    }
    const from = origins.get(section);
    if (from === undefined) {
      const o = new Origins();
      o.add(key, value);
      origins.set(section, o);
      sections[section] = value as JsonObject | readonly JsonObject[];
    } else mergeSection(sections, section, value, key, from, issues);
  }
  // Each section is read once, whole: a name given under two labelled keys is one section's concern.
  const parsed = new Map<string, unknown>();
  for (const [section, value] of Object.entries(sections)) {
    const validator = validators[section] as SectionValidator;
    const found: ConfigIssue[] = [];
    parsed.set(section, validator(value as JsonValue, [section], found, hub));
    const o = origins.get(section) as Origins;
    for (const issue of found) issues.push({ ...issue, path: o.toFile(issue.path), sectionPath: issue.path });
  }
  return { hub, path, sections, parsed, origins };
}

const LABELLED_KEY = /^([a-z0-9_]+) +\S.*$/;

/** More of a section under a labelled key: lists are joined, mappings merged (a name given twice is a problem). */
function mergeSection(
  sections: Record<string, JsonObject | readonly JsonObject[]>,
  section: string,
  value: JsonValue,
  key: string,
  origins: Origins,
  issues: ConfigIssue[],
): void {
  const have = sections[section] as JsonValue;
  const earlier = origins.first;
  if (value === null) return;
  if (have === null || have === undefined) {
    sections[section] = value as JsonObject | readonly JsonObject[];
    origins.add(key, value);
  } else if (Array.isArray(have) && Array.isArray(value)) {
    sections[section] = [...have, ...value] as JsonObject[];
    origins.add(key, value);
  } else if (isJsonObject(have) && isJsonObject(value)) {
    for (const name of Object.keys(value)) {
      if (Object.hasOwn(have, name)) issues.push({ path: [key, name], message: `${name} is already defined under ${earlier}:` });
    }
    sections[section] = { ...value, ...have };
    origins.add(key, value);
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
