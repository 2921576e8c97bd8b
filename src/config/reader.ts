import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { haBoolean, haString } from './ha-values.js';

/** Where in the YAML a problem is: keys and list indexes from the document root. */
export type ConfigPath = readonly (string | number)[];

export interface ConfigIssue {
  readonly path: ConfigPath;
  readonly message: string;
  /** A key accepted but not honoured (Home Assistant's `recorder: db_url`): said once, never a refusal. */
  readonly warning?: true;
}

/** Thrown when a configuration has problems; every problem is listed, not only the first. */
export class ConfigError extends Error {
  constructor(readonly issues: readonly ConfigIssue[]) {
    super(issues.map((i) => `${formatPath(i.path)}: ${i.message}`).join('\n'));
    this.name = 'ConfigError';
  }
}

export function formatPath(path: ConfigPath): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('') || '<root>';
}

interface NumberRule {
  readonly min?: number;
  readonly max?: number;
  readonly integer?: boolean;
}

/**
 * Reads one mapping of a configuration, collecting problems (with their path) instead of stopping at the
 * first, so `check-config` can print them all. Every getter returns a usable value even after a problem
 * (the default, or undefined), so validation can go on.
 */
export class ConfigReader {
  private readonly seen = new Set<string>();

  constructor(
    readonly value: JsonObject,
    readonly path: ConfigPath,
    readonly issues: ConfigIssue[],
  ) {}

  /** A reader for a value that must be a mapping; reports a problem and reads an empty one otherwise. */
  static of(value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): ConfigReader {
    if (!isJsonObject(value)) {
      issues.push({ path, message: `expected a mapping (key: value), got ${kindOf(value)}` });
      return new ConfigReader({}, path, issues);
    }
    return new ConfigReader(value, path, issues);
  }

  problem(key: string | number | undefined, message: string): void {
    this.issues.push({ path: key === undefined ? this.path : [...this.path, key], message });
  }

  /** A key that is accepted and not honoured: a warning naming it and why, never a problem. */
  warn(key: string, message: string): void {
    this.raw(key);
    this.issues.push({ path: [...this.path, key], message, warning: true });
  }

  has(key: string): boolean {
    return this.value[key] !== undefined && this.value[key] !== null;
  }

  raw(key: string): JsonValue | undefined {
    this.seen.add(key);
    const v = this.value[key];
    return v === null ? undefined : v;
  }

  string(key: string, opts: { required: true; pattern?: RegExp; patternText?: string }): string;
  string(key: string, opts?: { required?: false; default?: string; pattern?: RegExp; patternText?: string }): string | undefined;
  string(key: string, opts: { required?: boolean; default?: string; pattern?: RegExp; patternText?: string } = {}): string | undefined {
    const v = this.raw(key);
    if (v === undefined) {
      if (opts.required) this.problem(key, 'is required: expected a string');
      return opts.default ?? (opts.required ? '' : undefined);
    }
    // Home Assistant's cv.string: a number or a YAML 1.1 boolean (`name: off`) as Python's str() writes it.
    const s = haString(v);
    if (s === undefined) {
      this.problem(key, `expected a string, got ${kindOf(v)}`);
      return opts.default;
    }
    if (opts.pattern && !opts.pattern.test(s)) {
      this.problem(key, `${JSON.stringify(s)} is not allowed: expected ${opts.patternText ?? opts.pattern.source}`);
      return opts.default;
    }
    return s;
  }

  number(key: string, rule: NumberRule & { required: true }): number;
  number(key: string, rule: NumberRule & { default: number }): number;
  number(key: string, rule?: NumberRule & { required?: false }): number | undefined;
  number(key: string, rule: NumberRule & { required?: boolean; default?: number } = {}): number | undefined {
    const v = this.raw(key);
    if (v === undefined) {
      if (rule.required) this.problem(key, `is required: expected ${describeNumber(rule)}`);
      return rule.default ?? (rule.required ? 0 : undefined);
    }
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
    if (
      !Number.isFinite(n) ||
      (rule.integer && !Number.isInteger(n)) ||
      (rule.min !== undefined && n < rule.min) ||
      (rule.max !== undefined && n > rule.max)
    ) {
      this.problem(key, `${JSON.stringify(v)} is not allowed: expected ${describeNumber(rule)}`);
      return rule.default;
    }
    return n;
  }

  boolean(key: string, defaultValue: boolean): boolean {
    const v = this.raw(key);
    if (v === undefined) return defaultValue;
    // Home Assistant's cv.boolean: "on", "yes", "enable", 1... as well.
    const b = haBoolean(v);
    if (b === undefined) {
      this.problem(key, `${JSON.stringify(v)} is not allowed: expected true or false`);
      return defaultValue;
    }
    return b;
  }

  oneOf<T extends string>(key: string, options: readonly T[], defaultValue: T): T;
  oneOf<T extends string>(key: string, options: readonly T[]): T | undefined;
  oneOf<T extends string>(key: string, options: readonly T[], defaultValue?: T): T | undefined {
    const raw = this.raw(key);
    if (raw === undefined) return defaultValue;
    // YAML 1.1 reads an unquoted on/off (yes/no) as a boolean; where the options are those words, it means them.
    const v = typeof raw === 'boolean' ? booleanOption(raw, options) : raw;
    if (typeof v !== 'string' || !(options as readonly string[]).includes(v)) {
      this.problem(key, `${JSON.stringify(v)} is not allowed: expected one of ${options.join(', ')}`);
      return defaultValue;
    }
    return v as T;
  }

  stringList(key: string, opts: { options?: readonly string[] } = {}): string[] | undefined {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    const items = typeof v === 'string' ? [v] : v;
    if (!Array.isArray(items)) {
      this.problem(key, `expected a list of strings, got ${kindOf(v)}`);
      return undefined;
    }
    const out: string[] = [];
    items.forEach((item: JsonValue, i: number) => {
      const text = haString(item);
      if (text === undefined) {
        this.issues.push({ path: [...this.path, key, i], message: `expected a string, got ${kindOf(item)}` });
      } else if (opts.options && !opts.options.includes(text)) {
        this.issues.push({
          path: [...this.path, key, i],
          message: `${JSON.stringify(item)} is not allowed: expected one of ${opts.options.join(', ')}`,
        });
      } else out.push(text);
    });
    return out;
  }

  /** Home Assistant's vol.Inclusive: two keys are given together or not at all; reports on the missing one. */
  inclusive(a: string, b: string, together: string): void {
    if (this.has(a) !== this.has(b)) this.problem(this.has(a) ? b : a, `is required with the other one: ${together}`);
  }

  /** A nested mapping, or undefined when absent. */
  child(key: string): ConfigReader | undefined {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    return ConfigReader.of(v, [...this.path, key], this.issues);
  }

  /** A list of values (a single value counts as a list of one), each with its path. */
  list(key: string): { value: JsonValue; path: ConfigPath }[] {
    const v = this.raw(key);
    if (v === undefined) return [];
    const items = Array.isArray(v) ? (v as JsonValue[]) : [v];
    return items.map((value, i) => ({ value, path: Array.isArray(v) ? [...this.path, key, i] : [...this.path, key] }));
  }

  /** Reports keys that no getter asked for, naming the allowed ones. Call last. */
  rejectUnknown(extraAllowed: readonly string[] = []): void {
    const allowed = [...new Set([...this.seen, ...extraAllowed])];
    for (const key of Object.keys(this.value)) {
      if (!this.seen.has(key) && !extraAllowed.includes(key)) {
        this.problem(key, `unknown option; allowed: ${allowed.sort().join(', ')}`);
      }
    }
  }
}

function booleanOption(value: boolean, options: readonly string[]): string | boolean {
  for (const word of value ? ['on', 'true', 'yes'] : ['off', 'false', 'no']) if (options.includes(word)) return word;
  return value;
}

function describeNumber(rule: NumberRule): string {
  const kind = rule.integer ? 'an integer' : 'a number';
  if (rule.min !== undefined && rule.max !== undefined) return `${kind} from ${rule.min} to ${rule.max}`;
  if (rule.min !== undefined) return `${kind} of at least ${rule.min}`;
  if (rule.max !== undefined) return `${kind} of at most ${rule.max}`;
  return kind;
}

export function kindOf(v: JsonValue | undefined): string {
  if (v === undefined || v === null) return 'nothing';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  return `${typeof v} ${JSON.stringify(v)}`;
}
