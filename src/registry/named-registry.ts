import type { Clock } from '../core/clock.js';
import { slugify } from '../core/entity-id.js';
import { HubError } from '../core/errors.js';
import type { RegistryAction } from '../core/event-bus.js';
import { isJsonObject, type JsonObject, type JsonValue, jsonEqual } from '../core/json.js';
import type { Logger } from '../core/log.js';
import { checkName, epochNow, MAX_ITEMS, normalizeName, uniqueId } from './common.js';

/** The fields of an area, floor or label that create/update set; every kind has a name. */
export interface NamedFields {
  readonly name: string;
}

/** One stored item: its fields plus id and timestamps (float epoch seconds). */
export type Entry<F extends NamedFields> = { -readonly [K in keyof F]: F[K] } & {
  readonly id: string;
  created_at: number;
  modified_at: number;
};

/** A change from a client: the fields to set, absent ones untouched, null clears. */
export type Changes<F extends NamedFields> = Partial<F>;

/** An item the configuration file defines: the fields it sets are the file's to change, not a client's. */
export interface ConfigItem<F extends NamedFields> {
  readonly id?: string;
  readonly fields: Partial<F> & NamedFields;
}

export interface NamedRegistryDeps {
  readonly clock: Clock;
  readonly log: Logger;
  /** Fires `<kind>_registry_updated`. */
  fire(action: RegistryAction, id: string): void;
  /** Something changed: save soon. */
  changed(): void;
}

/**
 * Areas, floors and labels share their life cycle: ids made from names (`_2`, `_3` when taken), names
 * unique regardless of case and spaces, an event on every change, and items from the configuration file
 * that clients may neither delete nor change where the file sets a field.
 */
export abstract class NamedRegistry<F extends NamedFields> {
  protected readonly items = new Map<string, Entry<F>>();
  private readonly fromConfig = new Map<string, ReadonlySet<string>>();

  /** 'Area', 'Floor', 'Label': used in messages. */
  protected abstract readonly noun: string;
  /** The configuration section that defines them: 'areas', 'floors', 'labels'. */
  protected abstract readonly section: string;

  constructor(protected readonly deps: NamedRegistryDeps) {}

  /** The values of the fields a new item does not set. */
  protected abstract defaults(): Omit<F, 'name'>;
  /** Checks and normalises a client's change of the fields besides name; throws HubError naming the field. */
  protected abstract check(changes: Partial<F>): Partial<F>;
  /** The item as Home Assistant's WebSocket API shows it. */
  abstract toJson(entry: Readonly<Entry<F>>): JsonObject;
  /** An item read back from the store; undefined when it is not one. */
  protected abstract fromJson(raw: JsonObject): Entry<F> | undefined;

  list(): JsonObject[] {
    return Array.from(this.items.values(), (e) => this.toJson(e));
  }

  get(id: string): JsonObject | undefined {
    const entry = this.items.get(id);
    return entry === undefined ? undefined : this.toJson(entry);
  }

  has(id: string): boolean {
    return this.items.has(id);
  }

  entry(id: string): Readonly<Entry<F>> | undefined {
    return this.items.get(id);
  }

  entries(): IterableIterator<Readonly<Entry<F>>> {
    return this.items.values();
  }

  /** True when the configuration file defines the item. */
  isFromConfig(id: string): boolean {
    return this.fromConfig.has(id);
  }

  /** The id of the item with this id, or else with this name (any case); undefined when there is none. */
  find(idOrName: string): string | undefined {
    if (this.items.has(idOrName)) return idOrName;
    return this.idOfName(idOrName);
  }

  /** Creates an item with an id made from its name; returns it as JSON. */
  create(input: Partial<F> & NamedFields): JsonObject {
    if (this.items.size >= MAX_ITEMS) {
      throw new HubError('not_allowed', `At most ${MAX_ITEMS} ${this.section} can exist; delete one first`);
    }
    const name = checkName(input.name);
    const checked = this.check(input);
    this.assertNameFree(name, undefined);
    const id = uniqueId(name, (x) => this.items.has(x));
    return this.toJson(this.insert(id, { ...checked, name }));
  }

  /** Changes an item; fields the configuration file sets cannot change. Returns it as JSON. */
  update(id: string, changes: Changes<F>): JsonObject {
    const entry = this.items.get(id);
    if (entry === undefined) throw new HubError('not_found', `${this.noun} ID doesn't exist`);
    const checked: Record<string, unknown> = { ...this.check(changes) };
    delete checked.name;
    if (changes.name !== undefined) {
      checked.name = checkName(changes.name);
      this.assertNameFree(checked.name as string, id);
    }
    const locked = this.fromConfig.get(id);
    const current = entry as unknown as Record<string, JsonValue>;
    for (const [key, value] of Object.entries(checked)) {
      if (locked?.has(key) && !jsonEqual(current[key], value as JsonValue)) {
        throw new HubError(
          'not_allowed',
          `${key} of ${this.noun.toLowerCase()} ${id} is set in the configuration file (${this.section}:); change it there`,
        );
      }
    }
    this.patch(id, checked as Partial<F>);
    return this.toJson(entry);
  }

  delete(id: string): void {
    if (!this.items.has(id)) throw new HubError('not_found', `${this.noun} ID doesn't exist`);
    if (this.fromConfig.has(id)) {
      throw new HubError('not_allowed', `${this.noun} ${id} is defined in the configuration file (${this.section}:); remove it there`);
    }
    this.items.delete(id);
    this.deps.fire('remove', id);
    this.deps.changed();
  }

  /**
   * Sets fields without the client checks (references cleared when what they point to is deleted, items
   * from the configuration file). Fires `update` and schedules a save only when something changed.
   */
  patch(id: string, changes: Partial<F>): boolean {
    const entry = this.items.get(id);
    if (entry === undefined) return false;
    const current = entry as unknown as Record<string, JsonValue>;
    let changed = false;
    for (const [key, value] of Object.entries(changes) as [string, JsonValue | undefined][]) {
      if (value === undefined || jsonEqual(current[key], value)) continue;
      current[key] = Array.isArray(value) ? [...value] : value;
      changed = true;
    }
    if (!changed) return false;
    entry.modified_at = epochNow(this.deps.clock);
    this.deps.fire('update', id);
    this.deps.changed();
    return true;
  }

  /** Reads the stored items (at start, before anything else); items that do not parse are logged and skipped. */
  load(raw: readonly JsonValue[]): void {
    for (const item of raw) {
      const entry = isJsonObject(item) ? this.fromJson(item) : undefined;
      if (entry === undefined) {
        this.deps.log.warn({ item }, `skipping a stored ${this.noun.toLowerCase()} that is not valid`);
        continue;
      }
      this.items.set(entry.id, entry);
    }
  }

  /** What the store writes. */
  serialize(): JsonValue[] {
    return this.list();
  }

  /**
   * Applies the configuration file's items: each is found by its id, else by the id its name makes, else
   * by its name, and created when missing; the fields it sets become read-only for clients.
   */
  applyConfig(items: readonly ConfigItem<F>[]): void {
    this.fromConfig.clear();
    for (const item of items) {
      const name = item.fields.name.trim();
      const slug = slugify(name);
      const id = item.id ?? (this.items.has(slug) ? slug : (this.idOfName(name) ?? slug));
      const clash = this.idOfName(name);
      if (clash !== undefined && clash !== id) {
        this.deps.log.warn({ id, other: clash }, `${this.noun} ${id} in ${this.section}: has the same name as ${clash}`);
      }
      if (this.items.has(id)) this.patch(id, { ...item.fields, name });
      else this.insert(id, { ...item.fields, name });
      this.fromConfig.set(id, new Set(Object.keys(item.fields)));
    }
  }

  private insert(id: string, fields: Partial<F> & NamedFields): Entry<F> {
    const now = epochNow(this.deps.clock);
    const entry = { ...this.defaults(), ...fields, id, created_at: now, modified_at: now } as unknown as Entry<F>;
    this.items.set(id, entry);
    this.deps.fire('create', id);
    this.deps.changed();
    return entry;
  }

  private idOfName(name: string): string | undefined {
    const wanted = normalizeName(name);
    for (const entry of this.items.values()) if (normalizeName(entry.name) === wanted) return entry.id;
    return undefined;
  }

  private assertNameFree(name: string, self: string | undefined): void {
    const other = this.idOfName(name);
    if (other !== undefined && other !== self) {
      throw new HubError('invalid_format', `The name ${name} (${normalizeName(name)}) is already in use`);
    }
  }
}

/** Reads a stored string-or-null field; undefined marks the item invalid. */
export function storedText(raw: JsonObject, key: string): string | null | undefined {
  const v = raw[key];
  if (v === undefined || v === null) return null;
  return typeof v === 'string' ? v : undefined;
}

export function storedList(raw: JsonObject, key: string): string[] | undefined {
  const v = raw[key];
  if (v === undefined || v === null) return [];
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? [...(v as string[])] : undefined;
}

export function storedTime(raw: JsonObject, key: string, fallback: number): number {
  const v = raw[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}
