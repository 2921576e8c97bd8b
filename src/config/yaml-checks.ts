import { type Document, isAlias, isScalar, type Node, visit } from 'yaml';
import type { LocatedIssue } from './format.js';
import { pathFromAncestors, positionAt, type SourceFile } from './positions.js';
import type { ConfigPath } from './reader.js';

/** Mapping keys must be plain scalars: a list or mapping as a key has no meaning in a configuration. */
export function checkKeys(doc: Document, source: SourceFile, at: ConfigPath, located: LocatedIssue[]): void {
  visit(doc, {
    Pair(_key, pair, ancestors) {
      const key = pair.key as Node | null;
      if (key !== null && !isScalar(key) && !isAlias(key)) {
        located.push({
          file: source.file,
          ...positionAt(source.lines, key.range?.[0] ?? 0),
          path: [...at, ...pathFromAncestors(ancestors, pair)],
          message: 'a key must be a plain name, not a list or mapping',
        });
      }
    },
  });
}

/** Values JSON cannot hold (.inf, .nan) are problems. */
export function checkNumbers(doc: Document, source: SourceFile, at: ConfigPath, located: LocatedIssue[]): void {
  visit(doc, {
    Scalar(_key, node, ancestors) {
      if (typeof node.value === 'number' && !Number.isFinite(node.value)) {
        located.push({
          file: source.file,
          ...positionAt(source.lines, node.range?.[0] ?? 0),
          path: [...at, ...pathFromAncestors(ancestors, node)],
          message: `${String(node.source ?? node.value)} is not allowed: expected a finite number`,
        });
      }
    },
  });
}
