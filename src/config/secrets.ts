import { readFileSync } from 'node:fs';
import { type Document, isMap, isScalar, LineCounter, type Node, parseDocument, type ScalarTag, visit } from 'yaml';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import type { LocatedIssue } from './format.js';
import { type Position, pathFromAncestors, positionAt } from './positions.js';
import type { ConfigPath } from './reader.js';

export const SECRETS_FILE = 'secrets.yaml';
const TAG = '!secret';

/** `!secret name` parses to a scalar that keeps the name and the tag; substituteSecrets swaps in the value. */
export const secretTag: ScalarTag = {
  tag: TAG,
  resolve: (value: string) => value,
};

/** Where secrets come from: secrets.yaml beside the configuration file. */
export interface SecretsSource {
  /** Path to read. */
  readonly path: string;
  /** Path to show in problems (relative if the configuration's was). */
  readonly displayPath: string;
}

/** Nodes whose value came from a secret, so problems about them never print the secret itself. */
export type SecretNodes = Map<Node, { readonly name: string; readonly value: JsonValue }>;

export interface SecretsResult {
  readonly replaced: SecretNodes;
  /** Where a `!secret` could not be resolved: the problem is reported there, so validators' ones are noise. */
  readonly failed: readonly ConfigPath[];
}

interface LoadedSecrets {
  readonly values: JsonObject;
  /** Why no secrets could be read; reported at each `!secret` that needed one. */
  readonly unavailable?: string;
}

/**
 * Replaces each `!secret name` in the document by the value of `name` in secrets.yaml. The file is read
 * only when a tag needs it. A missing file, a missing name or a broken secrets.yaml is a problem at the
 * tag's position (a broken secrets.yaml also at its own line and column).
 */
export function substituteSecrets(
  doc: Document,
  text: string,
  lines: LineCounter,
  file: string,
  source: SecretsSource | null,
  issues: LocatedIssue[],
): SecretsResult {
  const replaced: SecretNodes = new Map();
  const failed: ConfigPath[] = [];
  let loaded: LoadedSecrets | undefined;
  const misplaced = (node: Node, ancestors: readonly unknown[]): void => {
    if (node.tag !== TAG) return;
    const path = pathFromAncestors(ancestors, node);
    failed.push(path);
    issues.push({
      file,
      ...tagPosition(text, lines, node),
      path,
      message: `${TAG} takes a secret name, e.g. "password: ${TAG} wifi_password"`,
    });
  };
  visit(doc, {
    Map: (_key, node, ancestors) => misplaced(node, ancestors),
    Seq: (_key, node, ancestors) => misplaced(node, ancestors),
    Scalar(_key, node, ancestors) {
      if (node.tag !== TAG) return undefined;
      const at = { ...tagPosition(text, lines, node), path: pathFromAncestors(ancestors, node) };
      // Until proven otherwise: a secret that resolves is taken off this list below.
      failed.push(at.path);
      const name = typeof node.value === 'string' ? node.value.trim() : '';
      if (name === '') {
        issues.push({ file, ...at, message: `${TAG} needs a secret name, e.g. "password: ${TAG} wifi_password"` });
        return undefined;
      }
      if (source === null) {
        issues.push({
          file,
          ...at,
          message: `${TAG} ${name}: secrets are read from ${SECRETS_FILE} beside the configuration file, and this configuration has no file`,
        });
        return undefined;
      }
      loaded ??= loadSecrets(source, issues);
      if (loaded.unavailable !== undefined) {
        issues.push({ file, ...at, message: `${TAG} ${name}: ${loaded.unavailable}` });
        return undefined;
      }
      if (!Object.hasOwn(loaded.values, name)) {
        const known = Object.keys(loaded.values).sort();
        issues.push({
          file,
          ...at,
          message: `${TAG} ${name} is not defined in ${source.displayPath}; ${known.length === 0 ? 'it defines no secrets' : `defined: ${known.join(', ')}`}`,
        });
        return undefined;
      }
      failed.pop();
      const value = loaded.values[name] as JsonValue;
      if (value === null || typeof value !== 'object') {
        node.value = value;
        node.tag = undefined;
        replaced.set(node, { name, value });
        return undefined;
      }
      const created = doc.createNode(value) as Node;
      created.range = node.range;
      replaced.set(created, { name, value });
      return created;
    },
  });
  return { replaced, failed };
}

/** The position of the `!secret` tag before a node (the node's own range starts after the tag). */
function tagPosition(text: string, lines: LineCounter, node: Node): Position {
  const start = node.range?.[0] ?? 0;
  const at = text.lastIndexOf(TAG, start);
  const offset = at >= 0 && text.slice(at + TAG.length, start).trim() === '' ? at : start;
  return positionAt(lines, offset);
}

function loadSecrets(source: SecretsSource, issues: LocatedIssue[]): LoadedSecrets {
  let text: string;
  try {
    text = readFileSync(source.path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'not found' : `cannot be read (${code ?? String(err)})`;
    return { values: {}, unavailable: `${source.displayPath} ${why}; create it beside the configuration with "name: value" lines` };
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  for (const e of [...doc.errors, ...doc.warnings]) {
    issues.push({ file: source.displayPath, ...positionAt(lines, e.pos[0]), path: [], message: e.message });
  }
  if (doc.errors.length > 0) return { values: {}, unavailable: `${source.displayPath} has syntax errors` };
  if (doc.contents !== null && !isMap(doc.contents)) {
    issues.push({ file: source.displayPath, line: 1, column: 1, path: [], message: 'expected a mapping of secret names to values' });
    return { values: {}, unavailable: `${source.displayPath} is not a mapping of names to values` };
  }
  for (const pair of isMap(doc.contents) ? doc.contents.items : []) {
    if (!isScalar(pair.key)) {
      const at = positionAt(lines, (pair.key as Node | null)?.range?.[0] ?? 0);
      issues.push({ file: source.displayPath, ...at, path: [], message: 'a secret name must be a plain string' });
    }
  }
  const values = doc.toJS({ maxAliasCount: 100 }) as unknown;
  return { values: isJsonObject(values) ? (values as JsonObject) : {} };
}
