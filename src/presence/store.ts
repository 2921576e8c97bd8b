import { join } from 'node:path';
import { type ConfigIssue, ConfigReader } from '../config/reader.js';
import { slugify } from '../core/entity-id.js';
import { HubError } from '../core/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import type { Logger } from '../core/log.js';
import { setOwn } from '../core/own-keys.js';
import { DataFile, jsonOf, readDataFile, type WriteFile } from '../storage/data-file.js';

/** Home Assistant's `.storage/zone` and `.storage/person`: `{version, minor_version, key, data: {items}}`. */
interface StoredFile {
  readonly data: { readonly items: readonly JsonValue[] };
}

function isStoredFile(v: unknown): v is StoredFile {
  return isJsonObject(v as JsonValue) && isJsonObject((v as StoredFile).data) && Array.isArray((v as StoredFile).data.items);
}

/** What a collection of zones or persons does with its items: reads them (ConfigReader problems), and lives them. */
export interface StoredKind<T> {
  readonly key: 'zone' | 'person';
  /** Home Assistant's minor_version of the file. */
  readonly minorVersion: number;
  /** The item's settings from its stored form (with its `id`), problems pushed to the reader. */
  read(r: ConfigReader): T | undefined;
  /** The stored form of an item's settings (without its id), with Home Assistant's defaults filled in. */
  stored(value: T): JsonObject;
  /** A problem between items (a user already taken), or undefined. */
  conflict?(item: JsonObject, others: readonly JsonObject[]): string | undefined;
  /** Makes the item's entity (at load and create), updates it, removes it. */
  add(id: string, value: T): void;
  update(id: string, value: T): void;
  remove(id: string): void;
  /** Ids YAML holds: a stored item never takes one. */
  yamlIds(): ReadonlySet<string>;
}

/** HA's humanize_error for the first problem: the message, with the key it is about. */
function formatIssue(issue: ConfigIssue): HubError {
  const key = issue.path[issue.path.length - 1];
  return new HubError('invalid_format', typeof key === 'string' ? `${issue.message} @ data['${key}']` : issue.message);
}

/**
 * Zones or persons made in the app (Home Assistant's StorageCollection beside its YamlCollection, one IDManager for
 * both): created, updated and deleted over the WebSocket, kept in `<data>/.storage/<key>` in Home Assistant's own
 * shape, so a Home Assistant user's `.storage/zone` and `.storage/person` can be copied in. The YAML items stay
 * read-only. A stored item that does not read is kept in the file as it was (a fix can bring it back) and said once.
 */
export class StoredCollection<T> {
  private readonly items = new Map<string, JsonObject>();
  private readonly skipped: JsonValue[] = [];
  private readonly file: DataFile;
  private unreadable: string | undefined;

  constructor(
    private readonly kind: StoredKind<T>,
    private readonly options: { readonly dataDir: string; readonly log: Logger; readonly writeFile?: WriteFile },
  ) {
    this.file = new DataFile({
      path: this.path,
      log: options.log,
      label: `${kind.key} storage file`,
      writeFile: options.writeFile,
      render: () =>
        JSON.stringify(
          { version: 1, minor_version: kind.minorVersion, key: kind.key, data: { items: [...this.items.values(), ...this.skipped] } },
          null,
          2,
        ),
    });
  }

  get path(): string {
    return join(this.options.dataDir, '.storage', this.kind.key);
  }

  async load(): Promise<void> {
    const { log } = this.options;
    const label = `${this.kind.key} storage file`;
    let loaded: Awaited<ReturnType<typeof readDataFile<StoredFile>>>;
    try {
      loaded = await readDataFile(this.path, {
        log,
        label,
        fallback: `starting without the ${this.kind.key}s made in the app`,
        parse: jsonOf(isStoredFile, '{"data": {"items": [...]}}'),
      });
    } catch (err) {
      this.unreadable = `${this.path} could not be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
      log.error({ err, path: this.path }, `${this.unreadable}; the ${this.kind.key}s made in the app are missing until it can`);
      return;
    }
    if (loaded.status !== 'ok') return;
    for (const raw of loaded.value.data.items) {
      const id = isJsonObject(raw) && typeof raw.id === 'string' ? raw.id : undefined;
      let why: string | undefined;
      let value: T | undefined;
      if (id === undefined || !isJsonObject(raw)) why = 'it has no id';
      else if (this.taken(id)) why = `the id ${id} is taken (by YAML or another item)`;
      else {
        const issues: ConfigIssue[] = [];
        value = this.kind.read(ConfigReader.of(raw, [this.kind.key, id], issues));
        if (issues.length > 0 || value === undefined) why = formatIssue(issues[0] ?? { path: [], message: 'unreadable' }).message;
      }
      if (why !== undefined || id === undefined || value === undefined || !isJsonObject(raw)) {
        log.error({ path: this.path, item: raw }, `skipping a stored ${this.kind.key}: %s`, why);
        this.skipped.push(raw);
        continue;
      }
      this.items.set(id, raw);
      this.kind.add(id, value);
    }
  }

  private taken(id: string): boolean {
    return this.items.has(id) || this.kind.yamlIds().has(id) || this.skipped.some((raw) => isJsonObject(raw) && raw.id === id);
  }

  /** `<key>/list`: the stored items (HA lists the YAML persons apart, and YAML zones not at all). */
  list(): JsonObject[] {
    return [...this.items.values()];
  }

  private writable(): void {
    if (this.unreadable !== undefined)
      throw new HubError('hub_error', `${this.unreadable}; fix it and restart before changing ${this.kind.key}s`);
  }

  /** Reads an item as it would be stored; throws HA's invalid_format naming the first bad key. */
  private check(item: JsonObject, except?: string): T {
    const issues: ConfigIssue[] = [];
    const value = this.kind.read(ConfigReader.of(item, [], issues));
    if (issues.length > 0 || value === undefined) throw formatIssue(issues[0] ?? { path: [], message: 'invalid item' });
    const others = [...this.items.values()].filter((o) => o.id !== except);
    const conflict = this.kind.conflict?.(item, others);
    if (conflict !== undefined) throw new HubError('invalid_format', conflict);
    return value;
  }

  create(data: JsonObject): JsonObject {
    this.writable();
    const name = data.name;
    // IDManager.generate_id: the slug of the name, then _2, _3... past every id in use.
    const base = typeof name === 'string' ? slugify(name) || this.kind.key : this.kind.key;
    let id = base;
    for (let n = 2; this.taken(id); n++) id = `${base}_${n}`;
    const given: Record<string, JsonValue> = { id };
    for (const [k, v] of Object.entries(data)) if (k !== 'id') setOwn(given, k, v);
    const value = this.check(given);
    const item = { id, ...this.kind.stored(value) };
    this.items.set(id, item);
    this.kind.add(id, value);
    this.save();
    return item;
  }

  update(id: string, changes: JsonObject): JsonObject {
    const current = this.items.get(id);
    if (current === undefined) throw this.notFound(id);
    this.writable();
    const merged: Record<string, JsonValue> = { ...current };
    for (const [k, v] of Object.entries(changes)) if (k !== 'id') setOwn(merged, k, v);
    const value = this.check(merged, id);
    const item = { id, ...this.kind.stored(value) };
    this.items.set(id, item);
    this.kind.update(id, value);
    this.save();
    return item;
  }

  delete(id: string): void {
    if (!this.items.has(id)) throw this.notFound(id);
    this.writable();
    this.items.delete(id);
    this.kind.remove(id);
    this.save();
  }

  private notFound(id: string): HubError {
    const key = `${this.kind.key}_id`;
    if (this.kind.yamlIds().has(id))
      return new HubError('not_found', `Unable to find ${key} ${id}: it is configured in YAML, so it can only be changed there`);
    return new HubError('not_found', `Unable to find ${key} ${id}`);
  }

  private save(): void {
    // A refused write is logged and retried by the DataFile; the change is in force in memory meanwhile.
    this.file.save().catch(() => {});
  }

  async stop(): Promise<void> {
    await this.file.stop();
  }
}
