import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Document } from 'yaml';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { packageRoot } from '../util/paths.js';
import { type CoreExtras, mergeCustomize, readCustomize } from './core-section.js';
import { ConfigFileError, type LocatedIssue, type SectionProblem, sortIssues } from './format.js';
import { readHubSection } from './hub-section.js';
import { closestName, haDomains, ignoredBecause } from './known-sections.js';
import { Origins } from './origins.js';
import { mergePackages, type PackageOrigins } from './packages.js';
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
  /** The YAML of texts read before, kept as JSON (serve's, src/cli/config-cache.ts): a text found there is not parsed again. */
  readonly parsedBefore?: ParsedBefore;
}

/**
 * The plain JSON a configuration text's YAML came to, kept from one start to the next. Only a text whose YAML says
 * all (no `!secret`, `!include*` or `!env_var`: nothing read besides it) and has no problem is kept.
 */
export interface ParsedBefore {
  /** The JSON `text` parsed to before, or undefined. */
  get(text: string): JsonValue | undefined;
  /** Keeps `json`, what `text` parsed to (JSON.stringify of it). */
  keep(text: string, json: string): void;
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
export async function readConfigFile(
  path: string | null,
  validators: SectionValidators,
  required?: readonly string[],
  parsedBefore?: ParsedBefore,
): Promise<HubConfig> {
  const file = path ?? DEMO_CONFIG_PATH;
  const text = await readFile(file, 'utf8');
  return readConfigText(text, path === null ? null : file, validators, { displayPath: file, required, parsedBefore });
}

function readConfig(text: string, path: string | null, validators: SectionValidators, options: ParseOptions): HubConfig {
  const absPath = path === null ? null : resolve(path);
  const before = options.parsedBefore?.get(text);
  // A problem or warning needs the YAML document to say where it is: then the text is read as if new.
  if (before !== undefined) {
    const issues: SectionIssue[] = [];
    const warned: ConfigIssue[] = [];
    const { origins: _, ...config } = validate(before, absPath, validators, issues, warned);
    if (issues.length === 0 && warned.length === 0) return { ...config, problems: [], warnings: [] };
  }
  const file = options.displayPath ?? path ?? '<config>';
  const located: LocatedIssue[] = [];
  const files = new YamlFiles(absPath === null ? null : dirname(absPath), located);
  const parsed = files.parse(text, file, absPath, []);
  if (parsed === null || located.some((i) => i.message.startsWith('YAML syntax error')))
    throw new ConfigFileError(sortIssues(located, file));

  const json = toJson(parsed.doc, file, located);
  const root = json === null ? null : (JSON.parse(json) as JsonValue);
  const issues: SectionIssue[] = [];
  const warned: ConfigIssue[] = [];
  const { origins, ...config } = validate(root, absPath, validators, issues, warned);
  // The hub section's and the packages' warnings came with the problems.
  for (const w of issues.filter((i) => i.warning)) warned.push({ path: w.path, message: w.message });
  const failures = issues.filter((i) => !i.warning);
  const problems = located.map((issue): SectionProblem => {
    const section = sectionOf(issue.path, validators);
    const sectionPath = section === null ? undefined : origins.get(section)?.toSection(section, issue.path);
    return sectionPath === undefined ? { ...issue, section } : { ...issue, section, sectionPath };
  });
  for (const issue of failures) {
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
  const warnings = warned.map((w) => ({ ...locate(parsed.doc, parsed.source, files.sources, w.path, 'key'), ...w }));
  // A folder missing under an ignored section is not worth a second line.
  const ignoredKeys = new Set(warned.filter((w) => w.path.length === 1).map((w) => w.path[0]));
  const fileWarnings = files.warnings.filter((w) => !ignoredKeys.has(w.path[0] as string));
  if (json !== null && problems.length === 0 && warnings.length === 0 && fileWarnings.length === 0 && !files.outside)
    options.parsedBefore?.keep(text, json);
  return { ...config, problems: sortIssues(problems, file), warnings: sortIssues([...fileWarnings, ...warnings], file) };
}

/** The section a problem is in: `automation` for `automation manual:`; null for the document itself and `hub:`. */
function sectionOf(path: ConfigPath, validators: SectionValidators): string | null {
  const inHub = path[0] === 'homeassistant' || path[0] === 'hub';
  // Home Assistant's keys beside the hub settings (customize, allowlists, a package as a whole): the entries with
  // problems are left out and the hub starts, as Home Assistant skips a bad package.
  if (inHub && typeof path[1] === 'string' && CORE_EXTRA_KEYS.has(path[1]) && !(path[1] === 'packages' && path.length > 3))
    return 'core_config';
  // A package's section is that section's (`homeassistant: packages: lights: light:` is `light`).
  const key = inHub && path[1] === 'packages' && path.length > 3 ? path[3] : path[0];
  if (typeof key !== 'string' || key === 'hub' || key === 'homeassistant') return null;
  const section = LABELLED_KEY.exec(key)?.[1] ?? key;
  return Object.hasOwn(validators, section) ? section : key;
}

/** A validator's problem, with its path in the file and, when it is about the merged section's value, there. */
interface SectionIssue extends ConfigIssue {
  readonly sectionPath?: ConfigPath;
}

function validate(
  root: JsonValue,
  path: string | null,
  validators: SectionValidators,
  issues: SectionIssue[],
  warnings: ConfigIssue[],
): Omit<HubConfig, 'problems'> & { origins: ReadonlyMap<string, Origins> } {
  const given: JsonObject = root === null ? {} : isJsonObject(root) ? root : {};
  if (root !== null && !isJsonObject(root)) issues.push({ path: [], message: 'expected a mapping of sections (hub:, virtual:, ...)' });
  // Home Assistant's name for the same section (name, latitude, time_zone, unit_system... are the same keys).
  const hubKey = given.hub === undefined && given.homeassistant !== undefined ? 'homeassistant' : 'hub';
  if (hubKey === 'hub' && given.homeassistant !== undefined) {
    issues.push({
      path: ['homeassistant'],
      message: 'give the hub settings either in hub: or in homeassistant: (its Home Assistant name), not both',
    });
  }
  const hubValue = given[hubKey];
  const hubReader =
    hubValue === undefined || hubValue === null ? new ConfigReader({}, [hubKey], issues) : ConfigReader.of(hubValue, [hubKey], issues);
  const read = readHubSection(hubReader);
  // Packages (`homeassistant: packages:`) merged into the sections first, with Home Assistant's rules.
  const merged = mergePackages(given, hubReader.value.packages, [hubKey, 'packages'], issues);
  const doc = merged.config;
  const core = withPackageCustomize(read.core, hubReader.value.packages, [hubKey, 'packages'], warnings);
  const hub = withHttpPort(read.hub, doc.http, warnings);
  const sections: Record<string, JsonObject | readonly JsonObject[]> = {};
  const origins = new Map<string, Origins>();
  const configDir = path === null ? null : dirname(path);
  const ignored = new Set<string>();
  for (const [key, value] of Object.entries(doc)) {
    if (key === 'hub' || key === 'homeassistant') continue;
    // `automation manual:` beside `automation ui:`: Home Assistant reads "<section> <label>" as more of <section>.
    const section = LABELLED_KEY.exec(key)?.[1] ?? key;
    // A section name is a key of the YAML: `constructor:` or `__proto__:` is an unknown section, not Object's.
    if (!Object.hasOwn(validators, section)) {
      const why = ignoredBecause(configDir, section);
      if (why !== undefined) {
        // One warning per section, however many labelled keys or packages give it.
        if (!ignored.has(section))
          warnings.push({ path: Object.hasOwn(given, key) ? [key] : packagePlace(merged.origins.get(key), key), message: why });
        ignored.add(section);
      } else issues.push({ path: [key], message: unknownSection(section, validators) });
      continue;
    }
    const from = origins.get(section);
    if (from === undefined) {
      const o = new Origins();
      o.add(key, value, merged.origins.get(key));
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
    for (const issue of found) {
      if (issue.warning) warnings.push({ path: o.toFile(issue.path), message: issue.message });
      else issues.push({ ...issue, path: o.toFile(issue.path), sectionPath: issue.path });
    }
  }
  return { hub, core, path, sections, parsed, origins };
}

/** Where a section that only packages give is, for its warning: the first package's. */
function packagePlace(from: PackageOrigins | undefined, key: string): ConfigPath {
  const [first] = [...(from?.names.values() ?? []), ...(from?.items.values() ?? [])];
  return first === undefined ? [key] : first.slice(0, 4);
}

/** An unknown section's problem: the closest known name, and the sections hearth reads. */
function unknownSection(section: string, validators: SectionValidators): string {
  const ours = Object.keys(validators).sort();
  const near = closestName(section, ['hub', 'homeassistant', ...ours]) ?? closestName(section, haDomains());
  const hint = near === undefined ? '' : ` Did you mean ${near}?`;
  return `unknown section; allowed: ${['hub', ...ours].join(', ')}, or a Home Assistant integration's (accepted and ignored with a warning).${hint}`;
}

const LABELLED_KEY = /^([a-z0-9_]+) +\S.*$/;

const CORE_EXTRA_KEYS: ReadonlySet<string> = new Set([
  'customize',
  'customize_domain',
  'customize_glob',
  'packages',
  'allowlist_external_dirs',
  'whitelist_external_dirs',
  'allowlist_external_urls',
  'media_dirs',
  'auth_providers',
  'auth_mfa_modules',
]);

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

/** A package's `homeassistant: customize...` over the main one's (core_config.py, as Home Assistant merges them). */
function withPackageCustomize(core: CoreExtras, packages: JsonValue | undefined, at: ConfigPath, issues: ConfigIssue[]): CoreExtras {
  if (!isJsonObject(packages)) return core;
  let customize = core.customize;
  for (const [name, pack] of Object.entries(packages)) {
    const own = isJsonObject(pack) ? pack.homeassistant : undefined;
    if (own === undefined || own === null) continue;
    const found: ConfigIssue[] = [];
    const r = ConfigReader.of(own, [...at, name, 'homeassistant'], found);
    const c = readCustomize(r);
    r.rejectUnknown();
    // Home Assistant warns and skips a package whose customize is invalid.
    if (found.length > 0)
      for (const f of found) issues.push({ path: f.path, message: `Package ${name} contains invalid customize: ${f.message}` });
    else customize = mergeCustomize(customize, c);
  }
  return { ...core, customize };
}

/** `http: server_port` and `server_host`, Home Assistant's place for them; `hub: port` and `host` stay as aliases. */
function withHttpPort(hub: HubSection, http: JsonValue | undefined, warnings: ConfigIssue[]): HubSection {
  if (!isJsonObject(http)) return hub;
  const r = new ConfigReader(http, ['http'], []);
  const port = r.number('server_port', { integer: true, min: 1, max: 65535 });
  const hostValue = r.raw('server_host');
  // Home Assistant takes a list of addresses; hearth listens on one (the first).
  const host = Array.isArray(hostValue) ? hostValue[0] : hostValue;
  if (Array.isArray(hostValue) && hostValue.length > 1)
    warnings.push({
      path: ['http', 'server_host'],
      message: `hearth listens on one address, the first: ${String(host)} (0.0.0.0 or :: for all)`,
    });
  return {
    ...hub,
    ...(port === undefined ? {} : { port }),
    ...(typeof host === 'string' && host !== '' ? { host } : {}),
  };
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
/** The document as JSON text, or null (a problem) when it cannot be expanded. */
function toJson(doc: Document, file: string, located: LocatedIssue[]): string | null {
  try {
    const value = (doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? null) as JsonValue;
    // yaml slices string values out of the file's text, so keeping any one of them (an entity's name, say)
    // would keep the whole text in memory for the hub's lifetime. A JSON round trip gives every string its
    // own storage; it is the identity on this value (plain JSON), unless a non-finite number was found,
    // and then the configuration is refused anyway.
    return JSON.stringify(value);
  } catch (err) {
    // yaml refuses documents whose aliases expand too far ("billion laughs").
    located.push({ file, line: 1, column: 1, path: [], message: `cannot expand the document: ${(err as Error).message}` });
    return null;
  }
}
