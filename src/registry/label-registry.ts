import { describeValue } from '../core/errors.js';
import type { JsonObject } from '../core/json.js';
import { checkIcon, checkOptionalText, ID_PATTERN, invalid } from './common.js';
import { type Entry, NamedRegistry, storedText, storedTime } from './named-registry.js';

/** A theme colour name (`indigo`, `primary`) or a hex colour (`#ff8800`), as the frontend stores them. */
export const COLOR_PATTERN = /^(?:#[0-9a-fA-F]{6}|[a-z][a-z0-9_-]{0,31})$/;

/** What create/update set on a label (Home Assistant's field names). */
export interface LabelFields {
  readonly name: string;
  readonly color: string | null;
  readonly icon: string | null;
  readonly description: string | null;
}

export type LabelEntry = Entry<LabelFields>;

/** Labels tag areas, devices and entities across rooms ("Christmas lights", "Battery powered"). */
export class LabelRegistry extends NamedRegistry<LabelFields> {
  protected readonly noun = 'Label';
  protected readonly section = 'labels';

  protected defaults(): Omit<LabelFields, 'name'> {
    return { color: null, icon: null, description: null };
  }

  protected check(c: Partial<LabelFields>): Partial<LabelFields> {
    const out: { -readonly [K in keyof LabelFields]?: LabelFields[K] } = {};
    if (c.color !== undefined) {
      out.color = checkOptionalText(c.color, 'color');
      if (out.color !== null && !COLOR_PATTERN.test(out.color)) {
        throw invalid('color', `expected a colour name (e.g. indigo) or #rrggbb. Got ${describeValue(out.color)}`);
      }
    }
    if (c.icon !== undefined) out.icon = checkIcon(c.icon);
    if (c.description !== undefined) out.description = checkOptionalText(c.description, 'description');
    return out;
  }

  toJson(l: Readonly<LabelEntry>): JsonObject {
    return {
      color: l.color,
      created_at: l.created_at,
      description: l.description,
      icon: l.icon,
      label_id: l.id,
      name: l.name,
      modified_at: l.modified_at,
    };
  }

  protected fromJson(raw: JsonObject): LabelEntry | undefined {
    const id = raw.label_id;
    const name = raw.name;
    const color = storedText(raw, 'color');
    const icon = storedText(raw, 'icon');
    const description = storedText(raw, 'description');
    if (typeof id !== 'string' || !ID_PATTERN.test(id) || typeof name !== 'string' || name === '') return undefined;
    if (color === undefined || icon === undefined || description === undefined) return undefined;
    const created = storedTime(raw, 'created_at', 0);
    return { id, name, color, icon, description, created_at: created, modified_at: storedTime(raw, 'modified_at', created) };
  }
}
