import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { type Document, isAlias, isScalar, LineCounter, type Node, parseDocument, visit } from 'yaml';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { packageRoot } from '../util/paths.js';
import { ConfigFileError, type LocatedIssue, sortIssues } from './format.js';
import { readHubSection } from './hub-section.js';
import { type Anchor, locate, pathFromAncestors, positionAt } from './positions.js';
import type { ConfigIssue, ConfigPath } from './reader.js';
import { ConfigReader } from './reader.js';
import { SECRETS_FILE, type SecretNodes, type SecretsSource, secretTag, substituteSecrets } from './secrets.js';
import type { HubConfig } from './types.js';

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
 * file, line and column; YAML syntax errors stop before validation (the content would be guesswork).
 * `!secret` values come from secrets.yaml beside `path`.
 */
export function parseConfigText(text: string, path: string | null, validators: SectionValidators, options: ParseOptions = {}): HubConfig {
  const file = options.displayPath ?? path ?? '<config>';
  const lines = new LineCounter();
  const doc = parseDocument(text, {
    lineCounter: lines,
    prettyErrors: false,
    customTags: [secretTag],
    merge: true,
    uniqueKeys: true,
  });
  const located: LocatedIssue[] = [];
  for (const e of doc.errors) located.push({ file, ...positionAt(lines, e.pos[0]), path: [], message: `YAML syntax error: ${e.message}` });
  if (located.length > 0) throw new ConfigFileError(located);

  for (const w of doc.warnings) {
    // A misplaced !secret (on a list or mapping) is reported by substituteSecrets, with its path.
    if (w.message.startsWith('Unresolved tag: !secret')) continue;
    located.push({ file, ...positionAt(lines, w.pos[0]), path: [], message: warningText(w.message) });
  }
  const source: SecretsSource | null =
    path === null ? null : { path: join(dirname(resolve(path)), SECRETS_FILE), displayPath: join(dirname(file), SECRETS_FILE) };
  const secrets = substituteSecrets(doc, text, lines, file, source, located);
  checkKeys(doc, lines, file, located);

  const root = toJson(doc, lines, file, located);
  const issues: ConfigIssue[] = [];
  const config = validate(root, path === null ? null : resolve(path), validators, issues);
  for (const issue of issues) {
    if (secrets.failed.some((p) => startsWith(issue.path, p))) continue;
    located.push(locateIssue(doc, lines, file, issue, secrets.replaced));
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
  const hubValue = doc.hub;
  const hub = readHubSection(
    hubValue === undefined || hubValue === null ? new ConfigReader({}, ['hub'], issues) : ConfigReader.of(hubValue, ['hub'], issues),
  );
  const sections: Record<string, JsonObject | readonly JsonObject[]> = {};
  const allowed = ['hub', ...Object.keys(validators).sort()].join(', ');
  for (const [key, value] of Object.entries(doc)) {
    if (key === 'hub') continue;
    const validator = validators[key];
    if (validator === undefined) {
      issues.push({ path: [key], message: `unknown section; allowed: ${allowed}` });
      continue;
    }
    validator(value, [key], issues);
    sections[key] = value as JsonObject | readonly JsonObject[];
  }
  return { hub, path, sections };
}

function locateIssue(doc: Document, lines: LineCounter, file: string, issue: ConfigIssue, secretNodes: SecretNodes): LocatedIssue {
  const anchor: Anchor = /^unknown (option|section)/.test(issue.message) ? 'key' : 'value';
  const at = locate(doc, lines, issue.path, anchor);
  return { file, ...at, path: issue.path, message: redactSecrets(issue.message, at, lines, secretNodes) };
}

/** A problem about a value that came from a secret names the secret, never its value. */
function redactSecrets(message: string, at: { line: number; column: number }, lines: LineCounter, secretNodes: SecretNodes): string {
  let out = message;
  for (const [node, { name, value }] of secretNodes) {
    const start = node.range?.[0];
    if (start === undefined) continue;
    const pos = positionAt(lines, start);
    if (pos.line !== at.line) continue;
    // Only strings and structures: a short number would match digits elsewhere in the message.
    if (typeof value === 'number' || typeof value === 'boolean' || value === null) continue;
    out = out.split(JSON.stringify(value)).join(`<secret ${name}>`);
  }
  return out;
}

function startsWith(path: ConfigPath, prefix: ConfigPath): boolean {
  return prefix.length <= path.length && prefix.every((p, i) => p === path[i]);
}

function warningText(message: string): string {
  const tag = /^Unresolved tag: (\S+)/.exec(message)?.[1];
  return tag === undefined ? message : `unsupported tag ${tag}; the only tag hearth supports is !secret`;
}

/** Mapping keys must be plain scalars: a list or mapping as a key has no meaning in a configuration. */
function checkKeys(doc: Document, lines: LineCounter, file: string, located: LocatedIssue[]): void {
  visit(doc, {
    Pair(_key, pair, ancestors) {
      const key = pair.key as Node | null;
      if (key !== null && !isScalar(key) && !isAlias(key)) {
        located.push({
          file,
          ...positionAt(lines, key.range?.[0] ?? 0),
          path: pathFromAncestors(ancestors, pair),
          message: 'a key must be a plain name, not a list or mapping',
        });
      }
    },
  });
}

/** The document as plain JSON, with problems for values JSON cannot hold (.inf, .nan). */
function toJson(doc: Document, lines: LineCounter, file: string, located: LocatedIssue[]): JsonValue {
  const problemsBefore = located.length;
  visit(doc, {
    Scalar(_key, node, ancestors) {
      if (typeof node.value === 'number' && !Number.isFinite(node.value)) {
        located.push({
          file,
          ...positionAt(lines, node.range?.[0] ?? 0),
          path: pathFromAncestors(ancestors, node),
          message: `${String(node.source ?? node.value)} is not allowed: expected a finite number`,
        });
      }
    },
  });
  try {
    const value = (doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? null) as JsonValue;
    // yaml slices string values out of the file's text, so keeping any one of them (an entity's name, say)
    // would keep the whole text in memory for the hub's lifetime. A JSON round trip gives every string its
    // own storage; it is the identity on this value (plain JSON), unless a non-finite number was found,
    // and then the configuration is refused anyway.
    return located.length === problemsBefore ? (JSON.parse(JSON.stringify(value)) as JsonValue) : value;
  } catch (err) {
    // yaml refuses documents whose aliases expand too far ("billion laughs").
    located.push({ file, line: 1, column: 1, path: [], message: `cannot expand the document: ${(err as Error).message}` });
    return null;
  }
}
