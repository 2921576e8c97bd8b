/**
 * The size bounds of a log line. Anything a log line carries may come from outside (an entity id in a request,
 * a topic, a device's model, an error's message), so every part is cut to a bound here, with a count of what
 * was left out: a request naming 10,000 entities logs the first few and "and 9,990 more", never all of them.
 */

/** Characters of one string (a field, a value put into the message). */
const MAX_LOG_STRING = 300;
/** Items of one list (a field, a value put into the message). */
const MAX_LOG_ITEMS = 10;
/** Keys of one object among the fields. */
const MAX_LOG_KEYS = 30;
/** Characters of the message. */
export const MAX_LOG_MESSAGE = 1000;
/** Characters of every field's strings together. */
const MAX_LOG_FIELDS = 2000;
/** Levels of nesting kept among the fields. */
const MAX_DEPTH = 4;

/** `s`, or its first `max` characters and how many more there were. */
export function boundText(s: string, max = MAX_LOG_STRING): string {
  if (s.length <= max) return s;
  return `${s.slice(0, max)}… (${s.length - max} more characters)`;
}

/** Items as a comma-separated list: the first `MAX_LOG_ITEMS`, then how many more there were. */
export function boundList(items: readonly unknown[]): string {
  const shown = items.length > MAX_LOG_ITEMS ? items.slice(0, MAX_LOG_ITEMS) : items;
  const text = shown.map((v) => boundText(typeof v === 'string' ? v : safeJson(v), 100)).join(', ');
  return items.length > MAX_LOG_ITEMS ? `${text} and ${items.length - MAX_LOG_ITEMS} more` : text;
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/** A value put into the message by `%s` and the like: a list reads as "a, b and 3 more", anything else as text. */
function paramText(v: unknown, conversion: string): string {
  if (Array.isArray(v)) return boundList(v);
  if (typeof v === 'string') return boundText(v);
  if (conversion === 'd' || conversion === 'i') return String(typeof v === 'bigint' ? v : Math.trunc(Number(v)));
  if (conversion === 'f') return String(Number(v));
  if (typeof v === 'object' && v !== null) return boundText(v instanceof Error ? v.message : safeJson(boundFields(v as object)));
  return boundText(String(v));
}

/**
 * The message of `template` with `params` put in, as pino (and Node's util.format) do for %s, %d, %i, %f, %j,
 * %o, %O and %%; each value bounded, the whole bounded to MAX_LOG_MESSAGE. A template is what tells one kind
 * of line from another (the rate limit counts lines per template), so input belongs in `params`, not in it.
 */
export function formatLogMessage(template: string, params: readonly unknown[]): string {
  let out = template;
  if (params.length > 0 && template.includes('%')) {
    let next = 0;
    out = template.replace(/%([sdifjoO%])/g, (whole, c: string) => {
      if (c === '%') return '%';
      if (next >= params.length) return whole;
      return paramText(params[next++], c);
    });
  }
  return boundText(out, MAX_LOG_MESSAGE);
}

/** Text put into a template itself (a configured name, which may hold a `%`), so it is never read as a placeholder. */
export function templateText(text: string): string {
  return text.replaceAll('%', '%%');
}

/** The template with its placeholders shown as "…" (a summary of suppressed lines names the kind, not a value). */
export function templateShape(template: string): string {
  return boundText(
    template.replace(/%([sdifjoO%])/g, (_, c: string) => (c === '%' ? '%' : '…')),
    200,
  );
}

/**
 * A copy of a log line's fields with every string, list and object bounded and MAX_LOG_FIELDS characters of
 * strings in all. Errors stay as they are (the logger's error serializer bounds them); so do dates. The copy
 * has no prototype, so a key such as `__proto__` from outside is kept as a plain key.
 */
export function boundFields(fields: object): object {
  const budget = { left: MAX_LOG_FIELDS };
  return boundValue(fields, 0, budget) as object;
}

function boundValue(v: unknown, depth: number, budget: { left: number }): unknown {
  if (typeof v === 'string') {
    if (budget.left <= 0) return '…';
    const s = boundText(v, Math.min(MAX_LOG_STRING, budget.left));
    budget.left -= s.length;
    return s;
  }
  if (typeof v !== 'object' || v === null) return v;
  if (v instanceof Error || v instanceof Date) return v;
  if (ArrayBuffer.isView(v)) return `<${v.byteLength} bytes>`;
  if (depth >= MAX_DEPTH) return Array.isArray(v) ? `<list of ${v.length}>` : '<object>';
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    const n = Math.min(v.length, MAX_LOG_ITEMS);
    for (let i = 0; i < n; i++) out.push(boundValue(v[i], depth + 1, budget));
    if (v.length > n) out.push(`… and ${v.length - n} more`);
    return out;
  }
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) return v instanceof Map || v instanceof Set ? `<${v.size} entries>` : v;
  const out = Object.create(null) as Record<string, unknown>;
  let keys = 0;
  let more = 0;
  for (const key of Object.keys(v)) {
    if (keys >= MAX_LOG_KEYS) {
      more++;
      continue;
    }
    keys++;
    budget.left -= Math.min(key.length, 100);
    out[boundText(key, 100)] = boundValue((v as Record<string, unknown>)[key], depth + 1, budget);
  }
  if (more > 0) out['…'] = `${more} more keys`;
  return out;
}
