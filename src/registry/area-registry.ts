import { isValidEntityId } from '../core/entity-id.js';
import { describeValue } from '../core/errors.js';
import type { JsonObject } from '../core/json.js';
import { checkIcon, checkOptionalText, checkStringList, ID_PATTERN, invalid } from './common.js';
import { type Entry, NamedRegistry, type NamedRegistryDeps, storedList, storedText, storedTime } from './named-registry.js';

/** What create/update set on an area (Home Assistant's field names). */
export interface AreaFields {
  readonly name: string;
  readonly floor_id: string | null;
  readonly icon: string | null;
  readonly picture: string | null;
  readonly labels: readonly string[];
  readonly aliases: readonly string[];
  readonly humidity_entity_id: string | null;
  readonly temperature_entity_id: string | null;
}

export type AreaEntry = Entry<AreaFields>;

/** What an area's references must point at. */
export interface AreaReferences {
  hasFloor(id: string): boolean;
  hasLabel(id: string): boolean;
}

/** Rooms and other places; an area may lie on a floor and carry labels. */
export class AreaRegistry extends NamedRegistry<AreaFields> {
  protected readonly noun = 'Area';
  protected readonly section = 'areas';

  constructor(
    deps: NamedRegistryDeps,
    private readonly refs: AreaReferences,
  ) {
    super(deps);
  }

  /** The areas on a floor. */
  *onFloor(floorId: string): IterableIterator<AreaEntry> {
    for (const area of this.items.values()) if (area.floor_id === floorId) yield area;
  }

  protected defaults(): Omit<AreaFields, 'name'> {
    return { floor_id: null, icon: null, picture: null, labels: [], aliases: [], humidity_entity_id: null, temperature_entity_id: null };
  }

  protected check(c: Partial<AreaFields>): Partial<AreaFields> {
    const out: { -readonly [K in keyof AreaFields]?: AreaFields[K] } = {};
    if (c.floor_id !== undefined) {
      out.floor_id = checkOptionalText(c.floor_id, 'floor_id');
      if (out.floor_id !== null && !this.refs.hasFloor(out.floor_id)) {
        throw invalid('floor_id', `no floor with id ${describeValue(out.floor_id)} exists`);
      }
    }
    if (c.icon !== undefined) out.icon = checkIcon(c.icon);
    if (c.picture !== undefined) out.picture = checkOptionalText(c.picture, 'picture');
    if (c.aliases !== undefined) out.aliases = checkStringList(c.aliases, 'aliases');
    if (c.labels !== undefined) {
      out.labels = checkStringList(c.labels, 'labels');
      const unknown = out.labels.find((l) => !this.refs.hasLabel(l));
      if (unknown !== undefined) throw invalid('labels', `no label with id ${describeValue(unknown)} exists`);
    }
    for (const key of ['humidity_entity_id', 'temperature_entity_id'] as const) {
      if (c[key] === undefined) continue;
      const v = checkOptionalText(c[key], key);
      if (v !== null && !isValidEntityId(v)) throw invalid(key, `Entity ID ${v} is an invalid entity ID`);
      out[key] = v;
    }
    return out;
  }

  toJson(a: Readonly<AreaEntry>): JsonObject {
    return {
      aliases: a.aliases,
      area_id: a.id,
      floor_id: a.floor_id,
      humidity_entity_id: a.humidity_entity_id,
      icon: a.icon,
      labels: a.labels,
      name: a.name,
      picture: a.picture,
      temperature_entity_id: a.temperature_entity_id,
      created_at: a.created_at,
      modified_at: a.modified_at,
    };
  }

  protected fromJson(raw: JsonObject): AreaEntry | undefined {
    const id = raw.area_id;
    const name = raw.name;
    if (typeof id !== 'string' || !ID_PATTERN.test(id) || typeof name !== 'string' || name === '') return undefined;
    const fields = {
      floor_id: storedText(raw, 'floor_id'),
      icon: storedText(raw, 'icon'),
      picture: storedText(raw, 'picture'),
      humidity_entity_id: storedText(raw, 'humidity_entity_id'),
      temperature_entity_id: storedText(raw, 'temperature_entity_id'),
      labels: storedList(raw, 'labels'),
      aliases: storedList(raw, 'aliases'),
    };
    if (Object.values(fields).some((v) => v === undefined)) return undefined;
    const created = storedTime(raw, 'created_at', 0);
    return { ...(fields as Omit<AreaFields, 'name'>), name, id, created_at: created, modified_at: storedTime(raw, 'modified_at', created) };
  }
}
