import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import {
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  Pair,
  parseDocument,
  type Scalar,
  visit,
  YAMLMap,
  YAMLSeq,
} from 'yaml';
import { ownValue } from '../core/own-keys.js';
import type { LocatedIssue } from './format.js';
import {
  emptyAt,
  INCLUDE_TAGS,
  type IncludeTag,
  includeTags,
  isIncludeTag,
  readText,
  renameAnchors,
  secretsSourceFor,
  tagArgument,
  tagPosition,
  yaml11Booleans,
  yamlFilesUnder,
} from './include-tags.js';
import { pathFromAncestors, positionAt, type SourceFile } from './positions.js';
import type { ConfigPath } from './reader.js';
import { secretTag, substituteSecrets } from './secrets.js';
import { checkKeys, checkNumbers } from './yaml-checks.js';

export type { SourceFile };

/** A value that came from a secret, so a problem on its line names the secret, never the value. */
export interface SecretUse {
  readonly file: string;
  readonly line: number;
  readonly name: string;
  readonly value: unknown;
}

export interface Parsed {
  readonly doc: Document;
  readonly source: SourceFile;
}

/** Nested includes deeper than this are refused (a chain of files including each other is a mistake). */
const MAX_INCLUDE_DEPTH = 16;

/**
 * The files of one configuration, loaded the way Home Assistant's YAML loader does (util/yaml/loader.py):
 * `!include`, the four `!include_dir_*` forms, `!env_var` and `!secret`. Included content is grafted into
 * the including document as yaml nodes, so one document holds the whole configuration; `sources` marks
 * each node where another file's content begins, so a problem's path is placed in the file it is in.
 */
export class YamlFiles {
  readonly sources = new Map<Node, SourceFile>();
  readonly secrets: SecretUse[] = [];
  /** Paths whose value could not be read (a missing secret or include): validators' problems there are noise. */
  readonly failed: ConfigPath[] = [];
  /** Read as Home Assistant reads them, and worth saying (a folder an `!include_dir_*` names that is not there). */
  readonly warnings: LocatedIssue[] = [];
  /** Whether a value came from outside the texts: a secret, an included file or folder, a variable (or failed to). */
  outside = false;
  private anchorSeq = 0;
  /** Where the tag being resolved is, for a warning about it. */
  private lastTag: Omit<LocatedIssue, 'message'> = { file: '', line: 1, column: 1, path: [] };

  constructor(
    /** The configuration's directory (absolute), where secrets.yaml is looked for last; null for text without a file. */
    private readonly configDir: string | null,
    private readonly located: LocatedIssue[],
  ) {}

  /**
   * Parses one file's text and resolves its tags. `at` is where its content sits in the whole configuration.
   * Returns null after a syntax error (the content would be guesswork).
   */
  parse(text: string, file: string, absPath: string | null, at: ConfigPath, chain: readonly string[] = []): Parsed | null {
    const lines = new LineCounter();
    const doc = parseDocument(text, {
      lineCounter: lines,
      prettyErrors: false,
      // YAML 1.1's booleans before the core schema's (whose true/false they include).
      customTags: (tags) => [
        ...yaml11Booleans,
        ...tags.filter((t) => typeof t === 'string' || t.tag !== 'tag:yaml.org,2002:bool'),
        secretTag,
        ...includeTags,
      ],
      merge: true,
      uniqueKeys: true,
    });
    const source: SourceFile = { file, lines };
    const problem = (offset: number, path: ConfigPath, message: string) =>
      this.located.push({ file, ...positionAt(lines, offset), path, message });
    for (const e of doc.errors) problem(e.pos[0], [], `YAML syntax error: ${e.message}`);
    if (doc.errors.length > 0) {
      this.failed.push(at);
      return null;
    }
    for (const w of doc.warnings) {
      // Tags hearth resolves itself are reported (when misused) below, with their paths.
      const tag = /^Unresolved tag: (\S+)/.exec(w.message)?.[1];
      if (tag === '!secret' || isIncludeTag(tag)) continue;
      problem(
        w.pos[0],
        [],
        tag === undefined
          ? w.message
          : `unsupported tag ${tag}; hearth supports !secret, !env_var and ${INCLUDE_TAGS.filter((t) => t !== '!env_var').join(', ')}`,
      );
    }
    if (chain.length > 0) renameAnchors(doc, `f${++this.anchorSeq}_`);
    const secretsSource = secretsSourceFor(this.configDir, absPath, file);
    const issuesBefore = this.located.length;
    const secrets = substituteSecrets(doc, text, lines, file, secretsSource, this.located);
    // Its problems' paths are within this file; the configuration's path goes before them.
    for (let i = issuesBefore; i < this.located.length; i++) {
      const issue = this.located[i] as LocatedIssue;
      if (issue.file === file && at.length > 0) this.located[i] = { ...issue, path: [...at, ...issue.path] };
    }
    for (const p of secrets.failed) {
      this.failed.push([...at, ...p]);
      this.outside = true;
    }
    for (const [node, use] of secrets.replaced) {
      this.outside = true;
      this.secrets.push({ file, line: positionAt(lines, node.range?.[0] ?? 0).line, name: use.name, value: use.value });
    }
    checkKeys(doc, source, at, this.located);
    checkNumbers(doc, source, at, this.located);
    this.resolveTags(doc, text, source, absPath, at, chain);
    return { doc, source };
  }

  /** The node where a file's content begins, marked as that file's. */
  private mark<T extends Node>(node: T, source: SourceFile): T {
    this.sources.set(node, source);
    return node;
  }

  private resolveTags(
    doc: Document,
    text: string,
    source: SourceFile,
    absPath: string | null,
    at: ConfigPath,
    chain: readonly string[],
  ): void {
    const misplaced = (node: Node, ancestors: readonly unknown[]) => {
      const tag = node.tag;
      if (!isIncludeTag(tag)) return;
      const path = [...at, ...pathFromAncestors(ancestors, node)];
      this.failed.push(path);
      this.located.push({
        file: source.file,
        ...tagPosition(text, source.lines, node, tag),
        path,
        message: `${tag} takes ${tagArgument(tag)}, not a list or mapping`,
      });
    };
    visit(doc, {
      Map: (_k, node, ancestors) => misplaced(node, ancestors),
      Seq: (_k, node, ancestors) => misplaced(node, ancestors),
      Scalar: (_k, node, ancestors) => {
        const tag = node.tag;
        if (!isIncludeTag(tag)) return undefined;
        this.outside = true;
        const path = [...at, ...pathFromAncestors(ancestors, node)];
        const place = { file: source.file, ...tagPosition(text, source.lines, node, tag), path };
        this.lastTag = place;
        const fail = (message: string) => {
          this.failed.push(path);
          this.located.push({ ...place, message });
          node.tag = undefined;
          return undefined;
        };
        const arg = node.value === null || node.value === undefined ? '' : String(node.value).trim();
        if (arg === '') return fail(`${tag} needs ${tagArgument(tag)}`);
        if (tag === '!env_var') return this.envVar(node, arg, fail);
        if (absPath === null)
          return fail(`${tag} ${arg}: included files are read beside the configuration file, and this configuration has no file`);
        if (chain.length >= MAX_INCLUDE_DEPTH) return fail(`${tag} ${arg}: includes nest deeper than ${MAX_INCLUDE_DEPTH} files`);
        const target = resolve(dirname(absPath), arg);
        const shown = join(dirname(source.file), arg);
        const replaced =
          tag === '!include'
            ? this.includeFile(target, shown, `${tag} ${arg}`, path, [...chain, absPath], fail)
            : this.includeDir(tag, target, shown, `${tag} ${arg}`, path, [...chain, absPath], fail);
        if (replaced === undefined) return undefined;
        replaced.range ??= node.range;
        return replaced;
      },
    });
  }

  private envVar(node: Scalar, arg: string, fail: (message: string) => undefined): undefined {
    // `!env_var NAME default words`, as Home Assistant: the rest of the line is the default.
    const [name = '', ...rest] = arg.split(/\s+/);
    // `!env_var constructor` names no variable, not what process.env inherits.
    const value = ownValue(process.env, name);
    if (value === undefined && rest.length === 0)
      return fail(`!env_var ${name}: the environment variable is not set, and no default follows its name`);
    node.value = value ?? rest.join(' ');
    node.tag = undefined;
    return undefined;
  }

  private includeFile(
    target: string,
    shown: string,
    label: string,
    at: ConfigPath,
    chain: readonly string[],
    fail: (m: string) => undefined,
  ): Node | undefined {
    if (chain.includes(target)) return fail(`${label}: the file includes itself (through ${chain.map((c) => basename(c)).join(' → ')})`);
    const text = readText(target);
    if (typeof text !== 'string') return fail(`${label}: ${shown} ${text.why}`);
    const parsed = this.parse(text, shown, target, at, chain);
    if (parsed === null) return fail(`${label}: ${shown} has syntax errors`);
    return this.contentOf(parsed);
  }

  private contentOf({ doc, source }: Parsed): Node {
    const contents = doc.contents as Node | null;
    // An empty file is null (Home Assistant gives an empty mapping, which no section here wants either).
    return this.mark(contents ?? emptyAt(null), source);
  }

  private includeDir(
    tag: IncludeTag,
    target: string,
    shown: string,
    label: string,
    at: ConfigPath,
    chain: readonly string[],
    fail: (m: string) => undefined,
  ): Node | undefined {
    const found = yamlFilesUnder(target);
    // Home Assistant walks a missing folder as an empty one (os.walk): its default `themes` folder is often not there.
    const missing = !Array.isArray(found) && found.why === 'not found';
    if (missing) this.warnings.push({ ...this.lastTag, message: `${label}: ${shown} not found; read as empty, as Home Assistant does` });
    const list = missing ? [] : found;
    if (!Array.isArray(list)) return fail(`${label}: ${shown} ${(list as { why: string }).why}`);
    const shownOf = (f: string) => join(shown, relative(target, f));
    if (tag === '!include_dir_list') {
      const seq = new YAMLSeq();
      list.forEach((f, i) => {
        const node = this.loadForDir(f, shownOf(f), [...at, i], chain);
        if (node !== undefined) seq.items.push(node);
      });
      return seq;
    }
    if (tag === '!include_dir_named') {
      const map = new YAMLMap();
      for (const f of list) {
        const name = basename(f, extname(f));
        const node = this.loadForDir(f, shownOf(f), [...at, name], chain);
        if (node === undefined) continue;
        const source = this.sources.get(node) as SourceFile;
        map.items.push(new Pair(this.mark(emptyAt(name), source), node));
      }
      return map;
    }
    if (tag === '!include_dir_merge_list') {
      const seq = new YAMLSeq();
      for (const f of list) {
        // The file's items get their merged indexes once it is known they are a list: until then, a placeholder.
        const placeholder = `<${shownOf(f)}>`;
        const before = { failed: this.failed.length, located: this.located.length };
        const node = this.loadForDir(f, shownOf(f), [...at, placeholder], chain);
        this.reindex(before, at.length, placeholder, seq.items.length);
        if (node === undefined) continue;
        const source = this.sources.get(node) as SourceFile;
        if (isScalar(node) && node.value === null) continue;
        if (!isSeq(node)) {
          this.problemAt(node, source, [...at], `${label}: ${shownOf(f)} must hold a list (- item lines) to be merged`);
          continue;
        }
        for (const item of node.items) seq.items.push(this.mark(item as Node, source));
      }
      return seq;
    }
    const map = new YAMLMap();
    for (const f of list) {
      const node = this.loadForDir(f, shownOf(f), at, chain);
      if (node === undefined) continue;
      const source = this.sources.get(node) as SourceFile;
      if (isScalar(node) && node.value === null) continue;
      if (!isMap(node)) {
        this.problemAt(node, source, [...at], `${label}: ${shownOf(f)} must hold a mapping (key: value lines) to be merged`);
        continue;
      }
      for (const pair of node.items) {
        // A later file overrides an earlier one's key, as Home Assistant's dict.update.
        const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
        map.items = map.items.filter((p) => !isScalar(p.key) || String(p.key.value) !== key);
        if (isScalar(pair.key) || isAlias(pair.key)) this.mark(pair.key as Node, source);
        if (pair.value !== null && typeof pair.value === 'object') this.mark(pair.value as Node, source);
        map.items.push(pair);
      }
    }
    return map;
  }

  private loadForDir(file: string, shown: string, at: ConfigPath, chain: readonly string[]): Node | undefined {
    const text = readText(file);
    if (typeof text !== 'string') {
      this.located.push({ file: shown, line: 1, column: 1, path: at, message: text.why });
      this.failed.push(at);
      return undefined;
    }
    const parsed = this.parse(text, shown, file, at, chain);
    return parsed === null ? undefined : this.contentOf(parsed);
  }

  /** Paths recorded since `before` that go through `placeholder` at `depth`: its next index moves by `offset`. */
  private reindex(before: { failed: number; located: number }, depth: number, placeholder: string, offset: number): void {
    const fix = (path: ConfigPath): ConfigPath => {
      if (path[depth] !== placeholder) return path;
      const index = path[depth + 1];
      return typeof index === 'number' ? [...path.slice(0, depth), offset + index, ...path.slice(depth + 2)] : path.slice(0, depth);
    };
    for (let i = before.failed; i < this.failed.length; i++) this.failed[i] = fix(this.failed[i] as ConfigPath);
    for (let i = before.located; i < this.located.length; i++) {
      const issue = this.located[i] as LocatedIssue;
      this.located[i] = { ...issue, path: fix(issue.path) };
    }
  }

  private problemAt(node: Node, source: SourceFile, path: ConfigPath, message: string): void {
    this.failed.push(path);
    this.located.push({ file: source.file, ...positionAt(source.lines, node.range?.[0] ?? 0), path, message });
  }
}
