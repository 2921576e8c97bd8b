import type { EntityFilterConfig } from './types.js';

/** `*` and `?` of an fnmatch glob, the rest literal: Home Assistant's entity_globs. */
function globsToRegExp(globs: readonly string[]): RegExp | undefined {
  if (globs.length === 0) return undefined;
  const parts = globs.map((g) =>
    g
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.'),
  );
  return new RegExp(`^(?:${parts.join('|')})$`);
}

/**
 * Home Assistant's entity filter (helpers/entityfilter.py, generate_filter), case by case:
 * nothing given: everything; only includes: what they name; only excludes: all but what they name;
 * include domains or globs with excludes: an included entity wins, an excluded entity loses, then an include
 * glob, then an include domain unless an exclude glob matches; exclude domains or globs with only included
 * entities: an included entity wins, else all but what the excludes name; only entity lists: the included ones.
 */
export function entityFilter(include: EntityFilterConfig, exclude: EntityFilterConfig): (entityId: string) => boolean {
  const inE = new Set(include.entities);
  const inD = new Set(include.domains);
  const inG = globsToRegExp(include.entityGlobs);
  const exE = new Set(exclude.entities);
  const exD = new Set(exclude.domains);
  const exG = globsToRegExp(exclude.entityGlobs);
  const haveInclude = inE.size > 0 || inD.size > 0 || inG !== undefined;
  const haveExclude = exE.size > 0 || exD.size > 0 || exG !== undefined;
  const domainOf = (id: string) => id.slice(0, id.indexOf('.'));

  if (!haveInclude && !haveExclude) return () => true;
  if (haveInclude && !haveExclude) return (id) => inE.has(id) || inD.has(domainOf(id)) || (inG?.test(id) ?? false);
  if (!haveInclude && haveExclude) return (id) => !(exE.has(id) || exD.has(domainOf(id)) || (exG?.test(id) ?? false));
  if (inD.size > 0 || inG !== undefined) {
    return (id) => {
      if (inE.has(id)) return true;
      if (exE.has(id)) return false;
      if (inG?.test(id)) return true;
      return inD.has(domainOf(id)) && !(exG?.test(id) ?? false);
    };
  }
  if (exD.size > 0 || exG !== undefined) {
    return (id) => inE.has(id) || !(exE.has(id) || exD.has(domainOf(id)) || (exG?.test(id) ?? false));
  }
  return (id) => inE.has(id);
}
