/**
 * What a V8 heap snapshot (`--heapsnapshot-signal`) is made of, in a few categories a reader can act
 * on: compiled code and bytecode, the source text of the loaded modules, other strings, and the
 * objects, arrays and closures the hub keeps. Used by the memory benchmark as evidence of what the
 * resident size is spent on.
 */
import { readFileSync } from 'node:fs';

interface Snapshot {
  readonly snapshot: { readonly meta: { readonly node_fields: readonly string[]; readonly node_types: readonly [readonly string[]] } };
  readonly nodes: readonly number[];
  readonly strings: readonly string[];
}

export interface HeapShare {
  readonly category: string;
  readonly mb: number;
  readonly count: number;
}

/** Strings at least this long that start like a module are counted as source text. */
const SOURCE_MIN = 2000;
const SOURCE_START = /^(import |export |'use strict'|"use strict"|\/\*|\/\/|#!|var |const |\(function)/;

function categoryOf(type: string, name: string, size: number): string {
  switch (type) {
    case 'code':
      return 'compiled code, bytecode and function metadata';
    case 'string':
    case 'concatenated string':
    case 'sliced string':
      return size >= SOURCE_MIN && SOURCE_START.test(name) ? 'source text of loaded modules' : 'other strings';
    case 'closure':
      return 'closures';
    case 'array':
      return 'arrays and object property stores';
    case 'hidden':
    case 'object shape':
      return 'V8 internals (maps, descriptors, contexts)';
    case 'native':
      return 'native objects (buffers, Node internals)';
    case 'number':
      return 'numbers';
    default:
      if (name === 'system / Context') return 'V8 internals (maps, descriptors, contexts)';
      return 'objects';
  }
}

export function heapShares(path: string): { totalMb: number; shares: HeapShare[] } {
  const s = JSON.parse(readFileSync(path, 'utf8')) as Snapshot;
  const fields = s.snapshot.meta.node_fields;
  const types = s.snapshot.meta.node_types[0];
  const n = fields.length;
  const iType = fields.indexOf('type');
  const iName = fields.indexOf('name');
  const iSize = fields.indexOf('self_size');
  const totals = new Map<string, { bytes: number; count: number }>();
  let total = 0;
  for (let i = 0; i < s.nodes.length; i += n) {
    const size = s.nodes[i + iSize] as number;
    const category = categoryOf(types[s.nodes[i + iType] as number] ?? '', s.strings[s.nodes[i + iName] as number] ?? '', size);
    const t = totals.get(category) ?? { bytes: 0, count: 0 };
    t.bytes += size;
    t.count++;
    totals.set(category, t);
    total += size;
  }
  const shares = [...totals].map(([category, t]) => ({ category, mb: t.bytes / 1048576, count: t.count })).sort((a, b) => b.mb - a.mb);
  return { totalMb: total / 1048576, shares };
}
