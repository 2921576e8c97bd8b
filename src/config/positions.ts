import { type Document, isAlias, isMap, isPair, isScalar, isSeq, type LineCounter, type Node, type Pair } from 'yaml';
import type { ConfigPath } from './reader.js';

/** A 1-based line and column in a YAML text. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

export function positionAt(lines: LineCounter, offset: number): Position {
  const { line, col } = lines.linePos(offset);
  // linePos reports line 0 for an offset before the first recorded line start (a text without newlines).
  return line === 0 ? { line: 1, column: offset + 1 } : { line, column: col };
}

/** One YAML file of a configuration: how problems in it are named and placed. */
export interface SourceFile {
  /** The path as shown in problems (relative when the configuration's was). */
  readonly file: string;
  readonly lines: LineCounter;
}

/** A position in a named file. */
export interface FilePosition extends Position {
  readonly file: string;
}

/** How to point at a problem: at the value (a bad value) or at its key (an unknown or misplaced key). */
export type Anchor = 'value' | 'key';

/**
 * The node a configuration path points at, as deep as the document goes: a missing key or index yields
 * the deepest existing node on the way (the parent mapping), so a "required" problem points at its parent.
 * `sources` marks the nodes where an included file's content begins; the position is in that file.
 */
export function locate(
  doc: Document,
  main: SourceFile,
  sources: ReadonlyMap<Node, SourceFile>,
  path: ConfigPath,
  anchor: Anchor = 'value',
): FilePosition {
  let node: Node | null = doc.contents;
  let source = main;
  // Where the current node is introduced: its key when it is a mapping value, else the node itself.
  let keyNode: Node | null = null;
  let keySource = main;
  const at = (n: Node | null, s: SourceFile): FilePosition => {
    const p = positionOfNode(s.lines, n);
    return p === undefined
      ? { file: main.file, ...(positionOfNode(main.lines, doc.contents) ?? { line: 1, column: 1 }) }
      : { file: s.file, ...p };
  };
  const pick = (): FilePosition => {
    const target = preferKey(node, keyNode);
    return target === keyNode ? at(keyNode, keySource) : at(target, source);
  };
  for (const segment of path) {
    const resolved = resolveAlias(doc, node);
    const pair = isMap(resolved) ? findPair(doc, resolved.items, String(segment)) : undefined;
    if (pair !== undefined) {
      keyNode = isNodeLike(pair.key) ? pair.key : null;
      keySource = (keyNode !== null ? sources.get(keyNode) : undefined) ?? source;
      node = isNodeLike(pair.value) ? pair.value : null;
      source = (node !== null ? sources.get(node) : undefined) ?? source;
      continue;
    }
    if (isSeq(resolved) && typeof segment === 'number' && segment >= 0 && segment < resolved.items.length) {
      const item = resolved.items[segment];
      keyNode = null;
      node = isNodeLike(item) ? item : null;
      source = (node !== null ? sources.get(node) : undefined) ?? source;
      continue;
    }
    // The path goes on beyond what the document holds: point at the deepest node found.
    return pick();
  }
  if (anchor === 'key' && keyNode !== null) return at(keyNode, keySource);
  return pick();
}

/**
 * A scalar value is pointed at directly; a collection or an empty value by its key, because a block
 * collection starts on the next line and an empty value has no text of its own.
 */
function preferKey(node: Node | null, keyNode: Node | null): Node | null {
  if (keyNode === null) return node;
  if (node === null) return keyNode;
  if (isScalar(node) && (node.value === null || !node.range || node.range[0] === node.range[1])) return keyNode;
  if (isMap(node) || isSeq(node)) return keyNode;
  return node;
}

function positionOfNode(lines: LineCounter, node: Node | null | undefined): Position | undefined {
  const range = node?.range;
  return range === undefined || range === null ? undefined : positionAt(lines, range[0]);
}

function resolveAlias(doc: Document, node: Node | null): Node | null {
  // Aliases can chain; a bound keeps a malformed document from looping.
  let current = node;
  for (let i = 0; i < 16 && isAlias(current); i++) current = (current.resolve(doc) as Node | undefined) ?? null;
  return current;
}

/** The pair for `key`, also looking into `<<` merge keys (their values may be a mapping or a list of them). */
function findPair(doc: Document, items: readonly Pair[], key: string, depth = 0): Pair | undefined {
  for (const pair of items) if (keyText(pair.key) === key) return pair;
  if (depth > 8) return undefined;
  for (const pair of items) {
    if (keyText(pair.key) !== '<<') continue;
    const value = resolveAlias(doc, isNodeLike(pair.value) ? pair.value : null);
    const sources = isSeq(value) ? value.items.map((i) => resolveAlias(doc, isNodeLike(i) ? i : null)) : [value];
    for (const source of sources) {
      if (!isMap(source)) continue;
      const found = findPair(doc, source.items as Pair[], key, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The configuration path of a node met by `visit`, from its ancestors (keys of pairs, indexes in lists). */
export function pathFromAncestors(ancestors: readonly unknown[], node: unknown): (string | number)[] {
  const chain = [...ancestors, node];
  const out: (string | number)[] = [];
  chain.forEach((item, i) => {
    if (isPair(item)) {
      const key = keyText(item.key);
      if (key !== undefined && item.key !== chain[i + 1]) out.push(key);
    } else if (isSeq(item)) {
      const index = item.items.indexOf(chain[i + 1]);
      if (index >= 0) out.push(index);
    }
  });
  return out;
}

function keyText(key: unknown): string | undefined {
  // A `<<` merge key's value is a symbol.
  if (isScalar(key)) return typeof key.value === 'symbol' ? key.value.description : String(key.value);
  return typeof key === 'string' || typeof key === 'number' ? String(key) : undefined;
}

function isNodeLike(value: unknown): value is Node {
  return isScalar(value) || isMap(value) || isSeq(value) || isAlias(value);
}
