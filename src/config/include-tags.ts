import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { type Document, isAlias, type LineCounter, type Node, Scalar, type ScalarTag, visit } from 'yaml';
import { type Position, positionAt } from './positions.js';
import { SECRETS_FILE, type SecretsSource } from './secrets.js';

/** The tags of Home Assistant's YAML loader hearth resolves besides `!secret` (util/yaml/loader.py). */
export const INCLUDE_TAGS = [
  '!include',
  '!include_dir_list',
  '!include_dir_merge_list',
  '!include_dir_named',
  '!include_dir_merge_named',
  '!env_var',
] as const;
export type IncludeTag = (typeof INCLUDE_TAGS)[number];

export function isIncludeTag(tag: string | undefined): tag is IncludeTag {
  return tag !== undefined && (INCLUDE_TAGS as readonly string[]).includes(tag);
}

/** Each tag parses to a scalar that keeps its tag; YamlFiles replaces it by what it names. */
export const includeTags: ScalarTag[] = INCLUDE_TAGS.map((tag) => ({ tag, resolve: (value: string) => value }));

/**
 * YAML 1.1's booleans, as PyYAML (Home Assistant's loader) resolves plain scalars: yes/no and on/off besides
 * true/false, in the three cases each (not y/n, which PyYAML leaves as strings). So `initial: off` is false, as in
 * Home Assistant, and `name: off` reaches a string field as "False" (ConfigReader.string, Python's str()).
 */
export const yaml11Booleans: ScalarTag[] = [true, false].map((value) => ({
  identify: (v: unknown) => v === value,
  default: true,
  tag: 'tag:yaml.org,2002:bool',
  test: value ? /^(?:[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/ : /^(?:[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/,
  resolve: () => value,
}));

/** What a tag takes, for problems about a missing or misplaced argument. */
export function tagArgument(tag: IncludeTag): string {
  if (tag === '!env_var') return 'a variable name and an optional default, e.g. "!env_var HUB_NAME Home"';
  if (tag === '!include') return 'a file name relative to this file, e.g. "!include automations.yaml"';
  return `a folder name relative to this file, e.g. "${tag} automations/"`;
}

/** The position of the tag before a node (the node's own range starts after the tag). */
export function tagPosition(text: string, lines: LineCounter, node: Node, tag: string): Position {
  const start = node.range?.[0] ?? 0;
  const at = text.lastIndexOf(tag, start);
  const offset = at >= 0 && text.slice(at + tag.length, start).trim() === '' ? at : start;
  return positionAt(lines, offset);
}

/** A scalar for content with no text of its own (an empty file, a file name as a key): placed at line 1. */
export function emptyAt(value: string | null): Scalar {
  const node = new Scalar(value);
  node.range = [0, 0, 0];
  return node;
}

export function readText(path: string): string | { readonly why: string } {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    return { why: fileError(err) };
  }
}

/**
 * The `*.yaml` files in a folder and its subfolders, as Home Assistant's `_find_files`: names starting
 * with a dot (files and folders) and secrets.yaml are left out; files in name order within each folder.
 */
export function yamlFilesUnder(dir: string): string[] | { readonly why: string } {
  const out: string[] = [];
  const walk = (d: string, depth: number): string | undefined => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch (err) {
      return fileError(err);
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      if (e.isFile() && e.name.endsWith('.yaml') && e.name !== SECRETS_FILE) out.push(join(d, e.name));
    }
    // A bound on folder depth: a symlink loop must not walk forever.
    if (depth >= 8) return undefined;
    for (const e of entries) if (!e.name.startsWith('.') && e.isDirectory()) walk(join(d, e.name), depth + 1);
    return undefined;
  };
  const why = walk(dir, 0);
  return why === undefined ? out : { why };
}

function fileError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'not found';
  if (code === 'ENOTDIR') return 'is not a folder';
  if (code === 'EISDIR') return 'is a folder, not a file';
  return `cannot be read (${code ?? String(err)})`;
}

/** secrets.yaml in the file's own folder or the nearest one above it, up to the configuration's (Home Assistant's lookup). */
export function secretsSourceFor(configDir: string | null, absPath: string | null, file: string): SecretsSource | null {
  if (absPath === null || configDir === null) return null;
  let dir = dirname(absPath);
  let shownDir = dirname(file);
  while (dir !== configDir && (dir + sep).startsWith(configDir + sep)) {
    if (existsSync(join(dir, SECRETS_FILE))) return { path: join(dir, SECRETS_FILE), displayPath: join(shownDir, SECRETS_FILE) };
    dir = dirname(dir);
    shownDir = dirname(shownDir);
  }
  const configShown = relative(dirname(absPath), configDir);
  return { path: join(configDir, SECRETS_FILE), displayPath: join(dirname(file), configShown, SECRETS_FILE) };
}

/** Anchors are per file in YAML: an included file's get a unique prefix so they cannot meet the includer's. */
export function renameAnchors(doc: Document, prefix: string): void {
  visit(doc, (_k, node) => {
    if (isAlias(node)) node.source = prefix + node.source;
    else if (node !== null && typeof node === 'object' && 'anchor' in node && typeof node.anchor === 'string')
      node.anchor = prefix + node.anchor;
  });
}
