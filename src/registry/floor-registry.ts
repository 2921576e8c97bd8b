import { describeValue } from '../core/errors.js';
import type { JsonObject } from '../core/json.js';
import { checkIcon, checkStringList, ID_PATTERN, invalid } from './common.js';
import { type Entry, NamedRegistry, storedList, storedText, storedTime } from './named-registry.js';

/** What create/update set on a floor (Home Assistant's field names). */
export interface FloorFields {
  readonly name: string;
  /** Storey number: 0 ground floor, -1 basement; null when not given. */
  readonly level: number | null;
  readonly icon: string | null;
  readonly aliases: readonly string[];
}

export type FloorEntry = Entry<FloorFields>;

/** Floors group areas. */
export class FloorRegistry extends NamedRegistry<FloorFields> {
  protected readonly noun = 'Floor';
  protected readonly section = 'floors';

  protected defaults(): Omit<FloorFields, 'name'> {
    return { level: null, icon: null, aliases: [] };
  }

  protected check(c: Partial<FloorFields>): Partial<FloorFields> {
    const out: { -readonly [K in keyof FloorFields]?: FloorFields[K] } = {};
    if (c.level !== undefined) {
      if (c.level !== null && (typeof c.level !== 'number' || !Number.isInteger(c.level) || Math.abs(c.level) > 1000)) {
        throw invalid('level', `expected an integer from -1000 to 1000 or None. Got ${describeValue(c.level)}`);
      }
      out.level = c.level;
    }
    if (c.icon !== undefined) out.icon = checkIcon(c.icon);
    if (c.aliases !== undefined) out.aliases = checkStringList(c.aliases, 'aliases');
    return out;
  }

  toJson(f: Readonly<FloorEntry>): JsonObject {
    return {
      aliases: f.aliases,
      created_at: f.created_at,
      floor_id: f.id,
      icon: f.icon,
      level: f.level,
      name: f.name,
      modified_at: f.modified_at,
    };
  }

  protected fromJson(raw: JsonObject): FloorEntry | undefined {
    const id = raw.floor_id;
    const name = raw.name;
    const level = raw.level ?? null;
    const icon = storedText(raw, 'icon');
    const aliases = storedList(raw, 'aliases');
    if (typeof id !== 'string' || !ID_PATTERN.test(id) || typeof name !== 'string' || name === '') return undefined;
    if ((level !== null && !Number.isInteger(level)) || icon === undefined || aliases === undefined) return undefined;
    const created = storedTime(raw, 'created_at', 0);
    return {
      id,
      name,
      level: level as number | null,
      icon,
      aliases,
      created_at: created,
      modified_at: storedTime(raw, 'modified_at', created),
    };
  }
}
