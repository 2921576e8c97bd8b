import { formatIssue, type SectionProblem } from '../config/format.js';
import { type ConfigPath, formatPath } from '../config/reader.js';
import type { HubConfig } from '../config/types.js';
import { isJsonObject, type JsonValue } from '../core/json.js';
import type { AnyIntegration, Broken, ParsedSections, SectionParsers } from './integration.js';

/** What a part starts with: its configuration (undefined when its problems keep it off) and what was left out. */
export interface PartSetup<S extends SectionParsers = SectionParsers> {
  readonly config: ParsedSections<S> | undefined;
  readonly broken: readonly Broken[];
}

function describe(problems: readonly SectionProblem[]): string {
  const [first] = problems;
  if (first === undefined) return '';
  const more = problems.length - 1;
  return `${formatIssue(first)}${more > 0 ? ` (and ${more} more problem${more === 1 ? '' : 's'})` : ''}`;
}

/** The value at `path` (from the document root) of the merged sections. */
function valueAt(config: HubConfig, path: ConfigPath): JsonValue | undefined {
  let value: JsonValue | undefined = config.sections[String(path[0])] as JsonValue | undefined;
  for (const key of path.slice(1)) {
    if (Array.isArray(value) && typeof key === 'number') value = value[key];
    else if (isJsonObject(value) && typeof key === 'string' && Object.hasOwn(value, key)) value = value[key];
    else return undefined;
  }
  return value;
}

/** An item's own words for itself (an alias or a name), to name it beside its place. */
function labelOf(value: JsonValue | undefined): string | undefined {
  if (!isJsonObject(value)) return undefined;
  for (const key of ['alias', 'name', 'id', 'unique_id']) {
    const v = value[key];
    if (typeof v === 'string' && v !== '') return v.length > 60 ? `${v.slice(0, 57)}...` : v;
  }
  return undefined;
}

/** `value` without the items at `paths` (relative to it); undefined when one of them is the value itself. */
function without(value: JsonValue, paths: readonly ConfigPath[]): JsonValue | undefined {
  if (paths.some((p) => p.length === 0)) return undefined;
  const rest = (key: string | number) => paths.filter((p) => p[0] === key).map((p) => p.slice(1));
  if (Array.isArray(value)) {
    const out: JsonValue[] = [];
    value.forEach((item, i) => {
      const under = rest(i);
      const kept = under.length === 0 ? item : without(item, under);
      if (kept !== undefined) out.push(kept);
    });
    return out;
  }
  if (isJsonObject(value)) {
    // Keys come from the file: fromEntries makes each an own property (`__proto__:` too), never a prototype.
    const kept: [string, JsonValue][] = [];
    for (const [key, item] of Object.entries(value)) {
      const under = rest(key);
      const left = under.length === 0 ? item : without(item, under);
      if (left !== undefined) kept.push([key, left]);
    }
    return Object.fromEntries(kept);
  }
  return value;
}

/**
 * Reads each of the part's sections: what the load read, the parse of nothing for an absent one, or for one that
 * lost broken items, the parse of what is left (whose problems were reported with the whole section).
 */
function parseAll<S extends SectionParsers>(
  integration: { readonly sections: S },
  config: HubConfig,
  rest: ReadonlyMap<string, JsonValue | undefined> = new Map(),
): ParsedSections<S> {
  const out: Record<string, unknown> = {};
  for (const [section, parse] of Object.entries(integration.sections)) {
    if (rest.has(section)) out[section] = parse(rest.get(section), [section], [], config.hub);
    else if (config.parsed.has(section)) out[section] = config.parsed.get(section);
    else out[section] = parse(undefined, [section], [], config.hub);
  }
  return out as ParsedSections<S>;
}

/**
 * What `integration` starts with. Without problems in its sections: what the load read, each section parsed once.
 * With problems: nothing, and the part is named as broken; or, for a part of independent items (`itemOf`), the
 * sections read again without the broken items, each named.
 */
export function setupOf<S extends SectionParsers>(integration: AnyIntegration & { readonly sections: S }, config: HubConfig): PartSetup<S> {
  const problems = config.problems.filter((p) => p.section !== null && Object.hasOwn(integration.sections, p.section));
  if (problems.length === 0) return { config: parseAll(integration, config), broken: [] };
  const { itemOf } = integration;
  if (itemOf === undefined) return { config: undefined, broken: [{ name: integration.name, reason: describe(problems) }] };

  // Grouped by item: one name and one reason each.
  const items = new Map<string, { at: ConfigPath | undefined; shown: ConfigPath; problems: SectionProblem[] }>();
  for (const problem of problems) {
    // A problem about a value the merged section does not hold (a name given twice) leaves nothing out.
    const at = problem.sectionPath === undefined ? undefined : itemOf(problem.sectionPath);
    const key = at === undefined ? `${formatPath(problem.path)}:kept` : formatPath(at);
    const item = items.get(key) ?? { at, shown: at === undefined ? problem.path : problem.path.slice(0, at.length), problems: [] };
    item.problems.push(problem);
    items.set(key, item);
  }
  const dropped = new Map<string, ConfigPath[]>();
  const broken: Broken[] = [];
  for (const { at, shown, problems } of items.values()) {
    if (at !== undefined) {
      const section = String(at[0]);
      dropped.set(section, [...(dropped.get(section) ?? []), at.slice(1)]);
    }
    const value = at !== undefined && at.length > 1 ? valueAt(config, at) : undefined;
    const label = labelOf(value);
    const name = `${formatPath(shown)}${label === undefined ? '' : ` (${label})`}`;
    broken.push(
      at !== undefined && at.length > 1
        ? { name, reason: describe(problems), item: { path: at, value } }
        : { name, reason: describe(problems) },
    );
  }
  const rest = new Map<string, JsonValue | undefined>();
  for (const [section, paths] of dropped) {
    const value = config.sections[section] as JsonValue | undefined;
    if (value !== undefined) rest.set(section, without(value, paths));
  }
  return { config: parseAll(integration, config, rest), broken };
}

/** Problems of sections no integration reads (an unknown one, `areas:`): each section named once. */
export function unreadSections(config: HubConfig, read: (section: string) => boolean): Broken[] {
  const bySection = new Map<string, SectionProblem[]>();
  for (const problem of config.problems) {
    if (problem.section === null || read(problem.section)) continue;
    const name = String(problem.path[0] ?? problem.section);
    bySection.set(name, [...(bySection.get(name) ?? []), problem]);
  }
  return [...bySection].map(([name, problems]) => {
    const unknown = problems.find((p) => p.path.length === 1 && p.message.startsWith('unknown section'));
    // The allowed sections are check-config's to list; here it is enough to say it is ignored.
    return {
      name,
      reason: unknown ? `${unknown.file}:${unknown.line}:${unknown.column}: unknown section; it is ignored` : describe(problems),
    };
  });
}
