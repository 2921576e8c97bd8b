import { join } from 'node:path';
import { slugify } from '../core/entity-id.js';
import { HubError } from '../core/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import type { Logger } from '../core/log.js';
import { DataFile, jsonOf, readDataFile, type WriteFile } from '../storage/data-file.js';
import { type FieldProblem, type HelperItem, validateFields } from './fields.js';
import type { HelperEnv, HelperKind, LiveHelper } from './kind.js';

/** The data file, in Home Assistant's `.storage/<domain>` shape, so a Home Assistant user's file can be copied in. */
interface StoredFile {
  readonly version: 1;
  readonly minor_version?: number;
  readonly key: string;
  readonly data: { readonly items: readonly JsonValue[] };
}

function isStoredFile(v: unknown): v is StoredFile {
  return isJsonObject(v as JsonValue) && isJsonObject((v as StoredFile).data) && Array.isArray((v as StoredFile).data.items);
}

/** HA's humanize_error: the first problem, with the key it is about. */
function formatError(problems: readonly FieldProblem[]): HubError {
  const p = problems[0] as FieldProblem;
  return new HubError('invalid_format', p.key === undefined ? p.message : `${p.message} @ data['${p.key}']`);
}

/** Validates an item's keys and the kind's rules between them. */
export function validateItem(kind: HelperKind, raw: JsonValue, mode: 'yaml' | 'create'): { values: JsonObject; problems: FieldProblem[] } {
  const result = validateFields(kind.fields, raw, mode);
  if (result.problems.length === 0 && kind.check) result.problems.push(...kind.check(result.values));
  return result;
}

export interface CollectionOptions {
  readonly kind: HelperKind;
  readonly env: HelperEnv;
  readonly dataDir: string;
  readonly log: Logger;
  readonly writeFile?: WriteFile;
  /** Called with the entity id of a deleted stored helper (its registry entry goes too). */
  readonly forget?: (entityId: string) => void;
}

/**
 * One helper domain's items (Home Assistant's YamlCollection + StorageCollection sharing an IDManager): the
 * YAML ones, read-only, and the stored ones, created, updated and deleted over the WebSocket and kept in
 * `<data>/helpers/<domain>.json`. Each item lives as an entity while it exists.
 */
export class HelperCollection {
  readonly kind: HelperKind;
  private readonly yaml = new Map<string, HelperItem>();
  private readonly stored = new Map<string, HelperItem>();
  private readonly live = new Map<string, LiveHelper>();
  private readonly file: DataFile;
  /** Why the data file could not be read, when it could not: changes are refused so that it is never overwritten. */
  private unreadable: string | undefined;
  /** Stored items that did not load (a bad key, an id YAML took): written back as they were, so a fix can bring them back. */
  private readonly skipped: JsonValue[] = [];

  constructor(private readonly options: CollectionOptions) {
    this.kind = options.kind;
    this.file = new DataFile({
      path: this.path,
      log: options.log,
      label: `${this.kind.domain} helpers file`,
      writeFile: options.writeFile,
      render: () =>
        JSON.stringify(
          { version: 1, minor_version: 1, key: this.kind.domain, data: { items: [...this.stored.values(), ...this.skipped] } },
          null,
          2,
        ),
    });
  }

  get path(): string {
    return join(this.options.dataDir, 'helpers', `${this.kind.domain}.json`);
  }

  /** Creates the YAML items' entities, then reads the stored items and creates theirs. */
  async load(yamlItems: readonly HelperItem[]): Promise<void> {
    const { log } = this.options;
    for (const item of yamlItems) {
      this.yaml.set(item.id, item);
      this.startItem(item, false);
    }
    let loaded: Awaited<ReturnType<typeof readDataFile<StoredFile>>>;
    try {
      loaded = await readDataFile(this.path, {
        log,
        label: `${this.kind.domain} helpers file`,
        fallback: `starting without the ${this.kind.domain} helpers made in the app`,
        parse: jsonOf(isStoredFile, `{"data": {"items": [...]}}`),
      });
    } catch (err) {
      // Unreadable (EACCES, EIO) is not corrupt: the file stays as it is, and nothing may overwrite it.
      const cause = (err as NodeJS.ErrnoException).code ?? String(err);
      this.unreadable = `${this.path} could not be read (${cause})`;
      log.error({ err, path: this.path }, `${this.unreadable}; the ${this.kind.domain} helpers made in the app are missing until it can`);
      return;
    }
    if (loaded.status !== 'ok') return;
    for (const raw of loaded.value.data.items) {
      const id = isJsonObject(raw) && typeof raw.id === 'string' ? raw.id : undefined;
      const { id: _id, ...rest } = isJsonObject(raw) ? raw : {};
      const { values, problems } = validateItem(this.kind, rest, 'create');
      if (id === undefined || problems.length > 0 || this.has(id)) {
        const why = id === undefined ? 'it has no id' : this.has(id) ? `the id ${id} is taken (by YAML)` : formatError(problems).message;
        log.error({ path: this.path, item: raw }, `skipping a stored ${this.kind.domain} helper: %s`, why);
        this.skipped.push(raw);
        continue;
      }
      const item: HelperItem = { id, ...values };
      this.stored.set(id, item);
      this.startItem(item, true);
    }
  }

  /**
   * `<domain>.reload`: the YAML items again (Home Assistant's YamlCollection.async_load): new ones are added, the
   * ones still there take their new settings and keep their state, the ones gone are removed.
   */
  reloadYaml(items: readonly HelperItem[]): void {
    const next = new Map(items.map((item) => [item.id, item]));
    for (const id of [...this.yaml.keys()]) {
      if (next.has(id)) continue;
      this.yaml.delete(id);
      this.removeLive(id);
    }
    for (const item of items) {
      const had = this.yaml.has(item.id);
      if (!had && this.stored.has(item.id)) {
        this.options.log.warn({ id: item.id }, "Duplicate ID '%s' detected, skipping", item.id);
        continue;
      }
      this.yaml.set(item.id, item);
      if (had) this.live.get(item.id)?.update(item);
      else this.startItem(item, false);
    }
  }

  private removeLive(id: string): void {
    const live = this.live.get(id);
    this.live.delete(id);
    live?.stop();
    if (live !== undefined) this.options.env.core.entities.remove(live.entity.id);
  }

  private has(id: string): boolean {
    return this.yaml.has(id) || this.stored.has(id) || this.skipped.some((raw) => isJsonObject(raw) && raw.id === id);
  }

  private startItem(item: HelperItem, editable: boolean): void {
    try {
      this.live.set(item.id, this.kind.start(this.options.env, item, editable));
    } catch (err) {
      this.options.log.error({ err, id: item.id }, `${this.kind.domain}.%s could not be added: %s`, item.id, (err as Error).message);
    }
  }

  /** `<domain>/list`: the stored items (YAML ones are not listed, as in Home Assistant). */
  list(): HelperItem[] {
    return [...this.stored.values()];
  }

  private writable(): void {
    if (this.unreadable !== undefined)
      throw new HubError('hub_error', `${this.unreadable}; fix it and restart before changing ${this.kind.domain} helpers`);
  }

  create(raw: JsonObject): HelperItem {
    this.writable();
    const { values, problems } = validateItem(this.kind, raw, 'create');
    if (problems.length > 0) throw formatError(problems);
    const base = slugify(String(values.name));
    let id = base;
    for (let n = 2; this.has(id) || this.options.env.core.entities.find(`${this.kind.domain}.${id}`) !== undefined; n++)
      id = `${base}_${n}`;
    const item: HelperItem = { id, ...values };
    this.stored.set(id, item);
    this.startItem(item, true);
    this.save();
    return item;
  }

  update(id: string, raw: JsonObject): HelperItem {
    const current = this.stored.get(id);
    if (current === undefined) throw this.notFound(id);
    this.writable();
    const changes = validateFields(this.kind.fields, raw, 'update');
    if (changes.problems.length > 0) throw formatError(changes.problems);
    const { id: _id, ...rest } = { ...current, ...changes.values };
    const { values, problems } = validateItem(this.kind, rest, 'create');
    if (problems.length > 0) throw formatError(problems);
    const item: HelperItem = { id, ...values };
    this.stored.set(id, item);
    this.live.get(id)?.update(item);
    this.save();
    return item;
  }

  delete(id: string): void {
    if (!this.stored.has(id)) throw this.notFound(id);
    this.writable();
    this.stored.delete(id);
    const entityId = this.live.get(id)?.entity.id;
    this.removeLive(id);
    if (entityId !== undefined) this.options.forget?.(entityId);
    this.save();
  }

  /** Home Assistant's answer for an id it does not have; a YAML item is named as such, since it cannot change here. */
  private notFound(id: string): HubError {
    const key = `${this.kind.domain}_id`;
    if (this.yaml.has(id))
      return new HubError('not_found', `Unable to find ${key} ${id}: it is configured in YAML, so it can only be changed there`);
    return new HubError('not_found', `Unable to find ${key} ${id}`);
  }

  private save(): void {
    // A refused write is logged and retried by the DataFile; the change is in force in memory meanwhile.
    this.file.save().catch(() => {});
  }

  /** Stops the items' timers and writes what waits on a retry. */
  async stop(): Promise<void> {
    for (const live of this.live.values()) live.stop();
    this.live.clear();
    await this.file.stop();
  }
}
