import { readEntityIds } from '../automation/config-values.js';
import { type ConfigIssue, type ConfigPath, ConfigReader, kindOf } from '../config/reader.js';
import { slugify } from '../core/entity-id.js';
import { isJsonObject, type JsonValue } from '../core/json.js';

/** One old-style group, as group/__init__.py GROUP_SCHEMA reads it. */
export interface GroupConfig {
  readonly objectId: string;
  readonly name: string;
  readonly entityIds: readonly string[];
  readonly icon?: string;
  /** `all: true`: on only while every member is on. */
  readonly all: boolean;
}

const ICON = /^[a-z0-9_-]+:[a-z0-9_-]+$/i;

/**
 * `group:`: a mapping of object ids to groups; a group written as a list (or a comma-separated string) of entity ids
 * is its entities (HA's _conf_preprocess). `view:` and `control:` of old configurations are accepted and ignored.
 */
export function parseGroupSection(value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): GroupConfig[] {
  if (value === undefined || value === null) return [];
  if (!isJsonObject(value)) {
    issues.push({
      path,
      message: `expected a mapping of group ids to groups (kitchen: {name: ..., entities: [...]}), got ${kindOf(value)}`,
    });
    return [];
  }
  const groups: GroupConfig[] = [];
  for (const [key, raw] of Object.entries(value)) {
    const at = [...path, key];
    const objectId = slugify(key);
    if (objectId === '') {
      issues.push({
        path: at,
        message: `invalid group id ${JSON.stringify(key)}: expected letters, digits and underscores (it becomes group.<id>)`,
      });
      continue;
    }
    const conf = raw === null || Array.isArray(raw) || typeof raw === 'string' ? { entities: raw } : raw;
    const r = ConfigReader.of(conf, at, issues);
    if (!isJsonObject(conf)) continue;
    // `entities:` left empty is a group of nothing (vol.Any(cv.entity_ids, None)).
    const entityIds = conf.entities === null ? [] : readEntityIds(r, 'entities');
    r.raw('entities');
    const group: GroupConfig = {
      objectId,
      name: r.string('name') ?? key,
      entityIds,
      icon: r.string('icon', { pattern: ICON, patternText: 'an icon as prefix:name (e.g. mdi:lightbulb-group)' }),
      all: r.boolean('all', false),
    };
    r.rejectUnknown(['view', 'control']);
    groups.push(group);
  }
  return groups;
}
