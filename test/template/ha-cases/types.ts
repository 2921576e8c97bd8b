/**
 * One case ported from Home Assistant core's template tests (see README.md in this folder): the states set
 * up, the template, and what Home Assistant's `Template.async_render` gives (the result parsed as HA parses
 * it), or that it raises a TemplateError.
 */
export interface HaCase {
  /** The test file in home-assistant/core, relative to tests/helpers/template/. */
  readonly file: string;
  /** The test function the case comes from. */
  readonly fn: string;
  readonly tpl: string;
  /** [entity_id, state, attributes] set before rendering, in order. */
  readonly states?: readonly (readonly [string, string, Readonly<Record<string, unknown>>?])[];
  readonly vars?: Readonly<Record<string, unknown>>;
  /** The expected parsed result (Python's == : 2 == 2.0; tuples and sets as lists). */
  readonly expect?: unknown;
  /** The expected text, unparsed (HA's parse_result=False, or a str() HA compares against). */
  readonly text?: string;
  /** HA raises a TemplateError; a string is a part of its message the test matches. */
  readonly error?: true | string;
  /** The test asserts only that the result is truthy. */
  readonly truthy?: true;
  /** The result, as text, contains each of these. */
  readonly contains?: readonly string[];
  /** A list whose order HA does not fix (a set, a shuffle): compared as a multiset. */
  readonly unordered?: true;
  /** The result is a list of this length. */
  readonly length?: number;
  /** Any of these results passes. */
  readonly oneOf?: readonly unknown[];
  /** The clock, for tests under freeze_time (ISO 8601 with offset). */
  readonly now?: string;
  /** The hub's time zone (HA's test default is US/Pacific). */
  readonly tz?: string;
}

export interface HaCaseFile {
  readonly file: string;
  /** The commit of home-assistant/core the cases were read at. */
  readonly commit: string;
  readonly cases: readonly HaCase[];
}

/** Builds a file's cases with its name filled in. */
export function casesOf(file: string, commit: string, build: (c: CaseMaker) => void): HaCaseFile {
  const cases: HaCase[] = [];
  const maker: CaseMaker = {
    eq: (fn, tpl, expect, extra = {}) => cases.push({ file, fn, tpl, expect, ...extra }),
    text: (fn, tpl, text, extra = {}) => cases.push({ file, fn, tpl, text, ...extra }),
    err: (fn, tpl, extra = {}) => cases.push({ file, fn, tpl, error: true, ...extra }),
    add: (fn, tpl, extra) => cases.push({ file, fn, tpl, ...extra }),
  };
  build(maker);
  return { file, commit, cases };
}

type Extra = Omit<HaCase, 'file' | 'fn' | 'tpl'>;

export interface CaseMaker {
  eq(fn: string, tpl: string, expect: unknown, extra?: Extra): void;
  text(fn: string, tpl: string, text: string, extra?: Extra): void;
  err(fn: string, tpl: string, extra?: Extra): void;
  add(fn: string, tpl: string, extra: Extra): void;
}
