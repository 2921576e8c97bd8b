import type { SectionValidators } from '../config/load.js';
import { type ConfigIssue, type ConfigPath, ConfigReader, formatPath, kindOf } from '../config/reader.js';
import { entityIdProblem, slugify } from '../core/entity-id.js';
import { isJsonObject, type JsonValue } from '../core/json.js';
import { ICON_PATTERN, ID_PATTERN, normalizeName } from './common.js';
import { ENTITY_CATEGORIES, type EntityCategory } from './entity-entry.js';
import type { EntityCustomization } from './entity-registry.js';
import { COLOR_PATTERN } from './label-registry.js';

/** An area from `areas:`; `floor` and `labels` may name floors and labels by id or by name. */
export interface ConfigArea {
  readonly id?: string;
  readonly name: string;
  readonly floor?: string;
  readonly icon?: string;
  readonly picture?: string;
  readonly labels?: readonly string[];
  readonly aliases?: readonly string[];
}

export interface ConfigFloor {
  readonly id?: string;
  readonly name: string;
  readonly level?: number;
  readonly icon?: string;
  readonly aliases?: readonly string[];
}

export interface ConfigLabel {
  readonly id?: string;
  readonly name: string;
  readonly color?: string;
  readonly icon?: string;
  readonly description?: string;
}

/** The registry sections of a configuration, parsed. */
export interface RegistryConfig {
  readonly areas: readonly ConfigArea[];
  readonly floors: readonly ConfigFloor[];
  readonly labels: readonly ConfigLabel[];
  readonly customize: ReadonlyMap<string, EntityCustomization>;
}

const ID_TEXT = 'lower-case letters, digits and single underscores (e.g. living_room)';
const ICON_TEXT = 'an icon in the form prefix:name (e.g. mdi:sofa)';

/**
 * A list of named items; each gets an id (given, or made from its name) that must be unique, and a name
 * that must be unique regardless of case and spaces.
 */
function parseNamedList<T extends { readonly id?: string; readonly name: string }>(
  value: JsonValue | undefined,
  path: ConfigPath,
  issues: ConfigIssue[],
  noun: string,
  read: (r: ConfigReader) => Omit<T, 'id' | 'name'>,
): T[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    issues.push({ path, message: `expected a list of ${noun}s (- name: ...), got ${kindOf(value)}` });
    return [];
  }
  const out: T[] = [];
  const ids = new Map<string, number>();
  const names = new Map<string, number>();
  value.forEach((item: JsonValue, i: number) => {
    const r = ConfigReader.of(item, [...path, i], issues);
    const name = r.string('name', { required: true }).trim();
    const id = r.string('id', { pattern: ID_PATTERN, patternText: ID_TEXT });
    const rest = read(r);
    r.rejectUnknown();
    if (name === '') {
      if (r.has('name')) r.problem('name', 'expected a non-empty name');
      return;
    }
    const effectiveId = id ?? slugify(name);
    const firstId = ids.get(effectiveId);
    if (firstId !== undefined) {
      r.problem(
        id === undefined ? 'name' : 'id',
        `${noun} id ${effectiveId} is used twice (also at ${formatPath([...path, firstId])}); give each ${noun} its own id`,
      );
    } else ids.set(effectiveId, i);
    const firstName = names.get(normalizeName(name));
    if (firstName !== undefined)
      r.problem('name', `${noun} name ${JSON.stringify(name)} is used twice (also at ${formatPath([...path, firstName])})`);
    else names.set(normalizeName(name), i);
    out.push({ ...rest, ...(id === undefined ? {} : { id }), name } as unknown as T);
  });
  return out;
}

function drop<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}

export function parseAreas(value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): ConfigArea[] {
  return parseNamedList<ConfigArea>(value, path, issues, 'area', (r) =>
    drop({
      floor: r.string('floor'),
      icon: r.string('icon', { pattern: ICON_PATTERN, patternText: ICON_TEXT }),
      picture: r.string('picture'),
      labels: r.stringList('labels'),
      aliases: r.stringList('aliases'),
    }),
  );
}

export function parseFloors(value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): ConfigFloor[] {
  return parseNamedList<ConfigFloor>(value, path, issues, 'floor', (r) =>
    drop({
      level: r.number('level', { integer: true, min: -1000, max: 1000 }),
      icon: r.string('icon', { pattern: ICON_PATTERN, patternText: ICON_TEXT }),
      aliases: r.stringList('aliases'),
    }),
  );
}

export function parseLabels(value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): ConfigLabel[] {
  return parseNamedList<ConfigLabel>(value, path, issues, 'label', (r) =>
    drop({
      color: r.string('color', { pattern: COLOR_PATTERN, patternText: 'a colour name (e.g. indigo) or #rrggbb' }),
      icon: r.string('icon', { pattern: ICON_PATTERN, patternText: ICON_TEXT }),
      description: r.string('description'),
    }),
  );
}

/** `customize:`, a mapping of entity id to `{name, icon, area, labels, hidden, disabled, entity_category}`. */
export function parseCustomize(value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): Map<string, EntityCustomization> {
  const out = new Map<string, EntityCustomization>();
  if (value === undefined || value === null) return out;
  if (!isJsonObject(value)) {
    issues.push({ path, message: `expected a mapping of entity ids (light.kitchen: {name: ...}), got ${kindOf(value)}` });
    return out;
  }
  for (const [entityId, item] of Object.entries(value)) {
    const problem = entityIdProblem(entityId);
    if (problem !== undefined) {
      issues.push({ path: [...path, entityId], message: `${JSON.stringify(entityId)} is not a valid entity id: ${problem}` });
      continue;
    }
    const r = ConfigReader.of(item, [...path, entityId], issues);
    const custom: { -readonly [K in keyof EntityCustomization]: EntityCustomization[K] } = drop({
      name: r.string('name'),
      icon: r.string('icon', { pattern: ICON_PATTERN, patternText: ICON_TEXT }),
      area: r.string('area'),
      labels: r.stringList('labels'),
      hidden: optionalBoolean(r, 'hidden'),
      disabled: optionalBoolean(r, 'disabled'),
      entity_category: r.oneOf<EntityCategory>('entity_category', ENTITY_CATEGORIES),
    });
    if (custom.name !== undefined && custom.name.trim() === '') {
      r.problem('name', 'expected a non-empty name');
      delete custom.name;
    }
    r.rejectUnknown();
    out.set(entityId, custom);
  }
  return out;
}

/** A boolean that may be absent (absent: leave the setting alone). */
function optionalBoolean(r: ConfigReader, key: string): boolean | undefined {
  const present = r.has(key);
  const value = r.boolean(key, false);
  return present ? value : undefined;
}

/** Reads the registry sections of a loaded configuration (already validated; problems are not expected). */
export function readRegistryConfig(sections: Readonly<Record<string, JsonValue | undefined>>): RegistryConfig {
  const issues: ConfigIssue[] = [];
  return {
    areas: parseAreas(sections.areas, ['areas'], issues),
    floors: parseFloors(sections.floors, ['floors'], issues),
    labels: parseLabels(sections.labels, ['labels'], issues),
    customize: parseCustomize(sections.customize, ['customize'], issues),
  };
}

/** The validators check-config runs on the registry sections; spread into the hub's SECTION_VALIDATORS. */
export const REGISTRY_SECTION_VALIDATORS: SectionValidators = {
  areas: (value, path, issues) => void parseAreas(value, path, issues),
  floors: (value, path, issues) => void parseFloors(value, path, issues),
  labels: (value, path, issues) => void parseLabels(value, path, issues),
  customize: (value, path, issues) => void parseCustomize(value, path, issues),
};
