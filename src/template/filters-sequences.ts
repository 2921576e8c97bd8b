import { readArgs } from './args.js';
import { fault } from './errors.js';
import { attributePath, sequenceOf } from './functions-values.js';
import { isPlainObject } from './objects.js';
import { tupleOf } from './py-collections.js';
import { pyStr, pyTruthy } from './py-format.js';
import { dictEntries } from './py-keys.js';
import { add, pyEquals, pyOrder } from './py-ops.js';
import { checkStringSize, step } from './scope.js';

/**
 * Jinja's sequence filters, written over hearth's safe attribute reads (attributePath): nunjucks' own
 * versions read any property, prototype included, and lack map, select and unique. `apply` runs another
 * filter or test by name, as `map('int')` and `select('match', 'x')` need.
 */

export type Lookup = (name: string) => ((...args: unknown[]) => unknown) | undefined;

function caseFold(value: unknown, caseSensitive: boolean): unknown {
  return !caseSensitive && typeof value === 'string' ? value.toLowerCase() : value;
}

function sortKey(attribute: unknown, caseSensitive: boolean): (v: unknown) => unknown {
  return (v) => caseFold(typeof attribute === 'string' ? attributePath(v, attribute) : v, caseSensitive);
}

function testSelector(tests: Lookup, what: string, args: unknown[]): (v: unknown) => boolean {
  if (args.length === 0) return pyTruthy;
  const name = pyStr(args[0]);
  const test = tests(name);
  if (test === undefined) throw fault('TemplateRuntimeError', `No test named '${name}' (in ${what}).`);
  const rest = args.slice(1);
  return (v) => {
    step();
    return pyTruthy(test(v, ...rest));
  };
}

const MAX_SLICES = 10_000;

export function sequenceFilters(filters: Lookup, tests: Lookup): Record<string, (...args: unknown[]) => unknown> {
  const select =
    (keep: boolean) =>
    (value: unknown, ...args: unknown[]) => {
      const pass = testSelector(tests, keep ? 'select' : 'reject', args);
      return sequenceOf(value, 'select').filter((v) => pass(v) === keep);
    };
  const selectAttr =
    (keep: boolean) =>
    (value: unknown, attribute: unknown, ...args: unknown[]) => {
      const pass = testSelector(tests, keep ? 'selectattr' : 'rejectattr', args);
      const path = pyStr(attribute);
      return sequenceOf(value, 'selectattr').filter((v) => pass(attributePath(v, path)) === keep);
    };
  return {
    map: (value, ...args) => {
      const items = sequenceOf(value, 'map');
      const last = args[args.length - 1];
      if (isPlainObject(last) && last.__keywords === true && typeof last.attribute === 'string') {
        const path = last.attribute;
        const fallback = last.default;
        return items.map((v) => {
          const picked = attributePath(v, path);
          return picked === undefined ? fallback : picked;
        });
      }
      if (args.length === 0) throw fault('TemplateRuntimeError', 'map requires a filter name or attribute=');
      const name = pyStr(args[0]);
      const filter = filters(name);
      if (filter === undefined) throw fault('TemplateRuntimeError', `No filter named '${name}' (in map).`);
      const rest = args.slice(1);
      return items.map((v) => {
        step();
        return filter(v, ...rest);
      });
    },
    select: select(true),
    reject: select(false),
    selectattr: selectAttr(true),
    rejectattr: selectAttr(false),
    sort: (value, ...args) => {
      const a = readArgs('sort', args, ['reverse', 'case_sensitive', 'attribute']);
      const key = sortKey(a.values.attribute, a.values.case_sensitive === true);
      const sorted = [...sequenceOf(value, 'sort')].sort((x, y) => pyOrder(key(x), key(y), '<'));
      return a.values.reverse === true ? sorted.reverse() : sorted;
    },
    unique: (value, ...args) => {
      const a = readArgs('unique', args, ['case_sensitive', 'attribute']);
      const key = sortKey(a.values.attribute, a.values.case_sensitive === true);
      const out: unknown[] = [];
      const keys: unknown[] = [];
      for (const v of sequenceOf(value, 'unique')) {
        step();
        const k = key(v);
        if (!keys.some((seen) => pyEquals(seen, k))) {
          keys.push(k);
          out.push(v);
        }
      }
      return out;
    },
    groupby: (value, ...args) => {
      const a = readArgs('groupby', args, ['attribute', 'default', 'case_sensitive']);
      const path = pyStr(a.values.attribute);
      const groups: [unknown, unknown[]][] = [];
      for (const v of sequenceOf(value, 'groupby')) {
        let k = attributePath(v, path);
        if (k === undefined) k = a.values.default;
        const group = groups.find(([g]) => pyEquals(g, k));
        if (group === undefined) groups.push([k, [v]]);
        else group[1].push(v);
      }
      return groups.sort((x, y) => pyOrder(x[0], y[0], '<'));
    },
    sum: (value, ...args) => {
      const a = readArgs('sum', args, ['attribute', 'start']);
      let total: unknown = a.values.start ?? 0;
      for (const v of sequenceOf(value, 'sum'))
        total = add(total, typeof a.values.attribute === 'string' ? attributePath(v, a.values.attribute) : v);
      return total;
    },
    join: (value, ...args) => {
      const a = readArgs('join', args, ['d', 'attribute']);
      const items = sequenceOf(value, 'join').map((v) =>
        pyStr(typeof a.values.attribute === 'string' ? attributePath(v, a.values.attribute) : v),
      );
      return checkStringSize(items.join(a.values.d === undefined ? '' : pyStr(a.values.d)));
    },
    dictsort: (value, ...args) => {
      const a = readArgs('dictsort', args, ['case_sensitive', 'by', 'reverse']);
      if (!isPlainObject(value)) throw fault('TemplateRuntimeError', 'You can only sort by either "key" or "value" of a dict');
      const index = a.values.by === 'value' ? 1 : 0;
      const pairs = dictEntries(value).map((pair) => tupleOf(pair));
      pairs.sort((x, y) =>
        pyOrder(caseFold(x[index], a.values.case_sensitive === true), caseFold(y[index], a.values.case_sensitive === true), '<'),
      );
      return a.values.reverse === true ? pairs.reverse() : pairs;
    },
    list: (value) => [...sequenceOf(value, 'list')],
    length: (value) => sequenceOf(value, 'length').length,
    count: (value) => sequenceOf(value, 'count').length,
    first: (value) => sequenceOf(value, 'first')[0],
    last: (value) => {
      const items = sequenceOf(value, 'last');
      return items[items.length - 1];
    },
    reverse: (value) => (typeof value === 'string' ? [...value].reverse().join('') : [...sequenceOf(value, 'reverse')].reverse()),
    batch: (value, ...args) => {
      const a = readArgs('batch', args, ['linecount', 'fill_with']);
      const size = Math.max(1, Math.trunc(Number(a.values.linecount) || 1));
      const items = sequenceOf(value, 'batch');
      const out: unknown[][] = [];
      for (let i = 0; i < items.length; i += size) {
        const row = items.slice(i, i + size);
        if (a.has('fill_with')) while (row.length < size) row.push(a.values.fill_with);
        out.push(row);
      }
      return out;
    },
    slice: (value, ...args) => {
      const a = readArgs('slice', args, ['slices', 'fill_with']);
      const count = Math.trunc(Number(a.values.slices));
      if (!(count >= 1 && count <= MAX_SLICES)) throw fault('ValueError', `slice takes 1 to ${MAX_SLICES} slices`);
      const items = sequenceOf(value, 'slice');
      const per = Math.floor(items.length / count);
      const extra = items.length % count;
      const out: unknown[][] = [];
      let offset = 0;
      for (let i = 0; i < count; i++) {
        const n = per + (i < extra ? 1 : 0);
        const part = items.slice(offset, offset + n);
        offset += n;
        if (a.has('fill_with') && i >= extra && extra > 0) part.push(a.values.fill_with);
        out.push(part);
      }
      return out;
    },
    attr: (value, name) => attributePath(value, pyStr(name)),
  };
}
