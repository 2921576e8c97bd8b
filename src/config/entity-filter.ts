// Home Assistant's entity filter (helpers/entityfilter.py), the one selection rule of every part that picks
// entities: the recorder, the logbook, the MQTT publisher and the HomeKit and Matter bridges. hearth adds areas
// and labels, which count as domains do (a category an entity is in), since an HA user picks rooms in the UI.
import { isJsonObject, type JsonValue } from '../core/json.js';
import type { ConfigIssue, ConfigPath } from './reader.js';

/** One side of a filter: what it names. Areas and labels are hearth's additions (ids, as in the registries). */
export interface EntityFilterSpec {
  readonly domains: readonly string[];
  readonly entities: readonly string[];
  readonly entityGlobs: readonly string[];
  readonly areas?: readonly string[];
  readonly labels?: readonly string[];
}

/** Where an entity is: its area (its own, else its device's) and its labels. */
export interface EntityPlace {
  readonly areaId: string | null;
  readonly labels: readonly string[];
}

export type EntitySelector = (entityId: string, place?: EntityPlace) => boolean;

export const EMPTY_FILTER: EntityFilterSpec = { domains: [], entities: [], entityGlobs: [], areas: [], labels: [] };

/** `*` and `?` of an fnmatch glob, the rest literal: Home Assistant's entity_globs. */
export function globsToRegExp(globs: readonly string[]): RegExp | undefined {
  if (globs.length === 0) return undefined;
  const parts = globs.map((g) =>
    g
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.'),
  );
  return new RegExp(`^(?:${parts.join('|')})$`);
}

/** Whether the entity (or its device) is in one of the areas or carries one of the labels. */
function placeTest(spec: EntityFilterSpec): ((place: EntityPlace | undefined) => boolean) | undefined {
  const areas = new Set(spec.areas ?? []);
  const labels = new Set(spec.labels ?? []);
  if (areas.size + labels.size === 0) return undefined;
  return (place) => place !== undefined && ((place.areaId !== null && areas.has(place.areaId)) || place.labels.some((l) => labels.has(l)));
}

/** Whether the entity is in one of the domains, areas or labels: the "category" half of a filter side. */
function categoryTest(spec: EntityFilterSpec): ((id: string, place: EntityPlace | undefined) => boolean) | undefined {
  const domains = new Set(spec.domains);
  const inPlace = placeTest(spec);
  if (domains.size === 0 && inPlace === undefined) return undefined;
  return (id, place) => domains.has(id.slice(0, id.indexOf('.'))) || (inPlace?.(place) ?? false);
}

/**
 * HA's generate_filter, case by case: nothing given: everything; only includes: what they name; only excludes:
 * all but what they name; include categories or globs with excludes: an included entity wins, an excluded entity
 * loses, then an include glob, then an include category unless an exclude glob or category matches; exclude
 * categories or globs with only included entities: an included entity wins, else all but what the excludes
 * name; only entity lists: the included ones.
 */
export function entityFilter(include: EntityFilterSpec, exclude: EntityFilterSpec): EntitySelector {
  const inE = new Set(include.entities);
  const inC = categoryTest(include);
  const inG = globsToRegExp(include.entityGlobs);
  const exE = new Set(exclude.entities);
  const exC = categoryTest(exclude);
  const exG = globsToRegExp(exclude.entityGlobs);
  const exPlace = placeTest(exclude);
  const haveInclude = inE.size > 0 || inC !== undefined || inG !== undefined;
  const haveExclude = exE.size > 0 || exC !== undefined || exG !== undefined;
  const excluded = (id: string, p: EntityPlace | undefined) => exE.has(id) || (exC?.(id, p) ?? false) || (exG?.test(id) ?? false);

  if (!haveInclude && !haveExclude) return () => true;
  if (haveInclude && !haveExclude) return (id, p) => inE.has(id) || (inC?.(id, p) ?? false) || (inG?.test(id) ?? false);
  if (!haveInclude && haveExclude) return (id, p) => !excluded(id, p);
  if (inC !== undefined || inG !== undefined) {
    return (id, p) => {
      if (inE.has(id)) return true;
      if (exE.has(id)) return false;
      if (inG?.test(id)) return true;
      // HA lets an exclude glob (not an exclude domain) veto an include domain; hearth's excluded areas and
      // labels veto it as well.
      return (inC?.(id, p) ?? false) && !(exG?.test(id) ?? false) && !(exPlace?.(p) ?? false);
    };
  }
  if (exC !== undefined || exG !== undefined) return (id, p) => inE.has(id) || !excluded(id, p);
  return (id) => inE.has(id);
}

const FLAT_KEYS = [
  'include_domains',
  'include_entities',
  'include_entity_globs',
  'include_areas',
  'include_labels',
  'exclude_domains',
  'exclude_entities',
  'exclude_entity_globs',
  'exclude_areas',
  'exclude_labels',
] as const;

/** A string or a list of strings, as HA's vol.All(cv.ensure_list, [cv.string]) reads it; none is an empty list. */
export function strings(value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  issues.push({ path, message: 'expected a list of strings' });
  return [];
}

/**
 * A `filter:` mapping with HA's flat keys (`include_domains`, `exclude_entity_globs`…, as the HomeKit Bridge,
 * Google Assistant and Alexa integrations write it) plus `include_areas`/`include_labels` and their excludes.
 */
export function parseFlatFilter(
  value: JsonValue | undefined,
  path: ConfigPath,
  issues: ConfigIssue[],
): { include: EntityFilterSpec; exclude: EntityFilterSpec } {
  const got = new Map<string, string[]>();
  if (value !== undefined && value !== null) {
    if (!isJsonObject(value)) issues.push({ path, message: `expected a mapping with ${FLAT_KEYS.join(', ')}` });
    else {
      for (const key of Object.keys(value))
        if (!(FLAT_KEYS as readonly string[]).includes(key))
          issues.push({ path: [...path, key], message: `unknown key; allowed: ${FLAT_KEYS.join(', ')}` });
      for (const key of FLAT_KEYS) got.set(key, strings(value[key], [...path, key], issues));
    }
  }
  const side = (s: 'include' | 'exclude'): EntityFilterSpec => ({
    domains: got.get(`${s}_domains`) ?? [],
    entities: got.get(`${s}_entities`) ?? [],
    entityGlobs: got.get(`${s}_entity_globs`) ?? [],
    areas: got.get(`${s}_areas`) ?? [],
    labels: got.get(`${s}_labels`) ?? [],
  });
  return { include: side('include'), exclude: side('exclude') };
}
