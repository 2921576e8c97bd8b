import { copyFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parse, stringify } from 'yaml';
import type { ConfigIssue } from '../config/reader.js';
import type { HubConfig } from '../config/types.js';
import { HubError } from '../core/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { setOwn } from '../core/own-keys.js';
import { readTextIfPresent, writeFileAtomic } from '../storage/atomic-file.js';
import { parseAutomations, parseScripts } from './parse-sections.js';

/**
 * The automations and scripts made in the browser, stored as Home Assistant stores them: `automations.yaml`
 * (a list, each item with its `id`) and `scripts.yaml` (a mapping by script id) beside the configuration file,
 * or in the data directory when the hub runs the bundled demo. A configuration that includes the files
 * (`automation: !include automations.yaml`) reads them itself; otherwise their items are added to its own
 * (an item whose id the configuration already has is left to the configuration).
 */

export const UI_FILES = { automation: 'automations.yaml', script: 'scripts.yaml' } as const;
export type UiSection = keyof typeof UI_FILES;

/** A file bigger than this is not one the editor wrote: refused rather than parsed on the event loop. */
const MAX_FILE_BYTES = 1024 * 1024;

export function uiConfigDir(config: HubConfig, dataDir: string): string {
  return config.path === null ? dataDir : dirname(config.path);
}

/** The file's content: a list (automations) or a mapping (scripts); empty when it does not exist. */
export async function readUiFile(dir: string, section: UiSection): Promise<JsonValue> {
  const text = await readTextIfPresent(join(dir, UI_FILES[section]));
  const empty = section === 'automation' ? [] : {};
  if (text === undefined || text.trim() === '') return empty;
  if (text.length > MAX_FILE_BYTES) throw new HubError('hub_error', `${UI_FILES[section]} is larger than 1 MiB`);
  let value: unknown;
  try {
    value = parse(text, { maxAliasCount: 100, prettyErrors: false });
  } catch (err) {
    throw new HubError('hub_error', `${UI_FILES[section]} is not valid YAML: ${(err as Error).message}`);
  }
  if (value === null || value === undefined) return empty;
  const ok = section === 'automation' ? Array.isArray(value) : isJsonObject(value as JsonValue);
  if (!ok) throw new HubError('hub_error', `${UI_FILES[section]} must hold a ${section === 'automation' ? 'list' : 'mapping'}`);
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}

/** Writes the file atomically, the previous version kept as `<file>.bak` first. */
export async function writeUiFile(dir: string, section: UiSection, value: JsonValue): Promise<void> {
  const path = join(dir, UI_FILES[section]);
  await copyFile(path, `${path}.bak`).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
  await writeFileAtomic(path, stringify(value, { lineWidth: 0 }), 0o644);
}

/** The configuration with the files' items added where it lacks them (see above). */
export async function withUiItems(config: HubConfig, dir: string): Promise<HubConfig> {
  const sections: Record<string, JsonObject | readonly JsonObject[] | undefined> = { ...config.sections };
  let changed = false;
  for (const section of ['automation', 'script'] as const) {
    let file: JsonValue;
    try {
      file = await readUiFile(dir, section);
    } catch {
      continue; // The editor's endpoints report the file's problem; the configuration's own items still run.
    }
    const own = config.sections[section];
    if (section === 'automation' && Array.isArray(file) && file.length > 0) {
      const list = Array.isArray(own) ? (own as JsonObject[]) : own === undefined ? [] : undefined;
      if (list === undefined) continue;
      const ids = new Set(list.map((a) => a.id));
      const extra = (file as JsonValue[]).filter((a): a is JsonObject => isJsonObject(a) && !ids.has(a.id));
      if (extra.length > 0) {
        sections.automation = [...list, ...extra];
        changed = true;
      }
    } else if (section === 'script' && isJsonObject(file) && Object.keys(file).length > 0) {
      const map = own === undefined ? {} : isJsonObject(own as JsonValue) ? (own as JsonObject) : undefined;
      if (map === undefined) continue;
      const merged: JsonObject = { ...map };
      for (const [key, value] of Object.entries(file)) if (!Object.hasOwn(map, key)) setOwn(merged, key, value);
      sections.script = merged;
      changed = true;
    }
  }
  if (!changed) return config;
  // Sections are parsed once, at load: the added items are parsed here, so the parts see them (a UI item's problems
  // were refused when it was saved).
  const parsed = new Map(config.parsed);
  if (sections.automation !== config.sections.automation)
    parsed.set('automation', parseAutomations(sections.automation as JsonValue, ['automation'], []));
  if (sections.script !== config.sections.script) parsed.set('script', parseScripts(sections.script as JsonValue, ['script'], []));
  return { ...config, sections, parsed };
}

function findItem(file: JsonValue, id: string): JsonObject | undefined {
  if (Array.isArray(file)) return file.find((a): a is JsonObject => isJsonObject(a) && a.id === id);
  if (!isJsonObject(file) || !Object.hasOwn(file, id)) return undefined;
  const item = file[id] as JsonValue;
  return isJsonObject(item) ? item : undefined;
}

/** The editor's files in one directory (Home Assistant's config/automation.py and script.py, for the REST endpoints). */
export class EditorFileStore {
  /** One write at a time per file: two saves in a row must both land. */
  private readonly queues = new Map<UiSection, Promise<unknown>>();

  constructor(private readonly dir: string) {}

  private serialized<T>(section: UiSection, fn: () => Promise<T>): Promise<T> {
    const next = (this.queues.get(section) ?? Promise.resolve()).catch(() => {}).then(fn);
    this.queues.set(section, next);
    return next;
  }

  async get(section: UiSection, id: string): Promise<JsonObject | undefined> {
    return findItem(await readUiFile(this.dir, section), id);
  }

  check(section: UiSection, id: string, item: JsonObject): string | undefined {
    const issues: ConfigIssue[] = [];
    if (section === 'automation') parseAutomations([{ ...item, id }], [], issues);
    else {
      const scripts: JsonObject = {};
      setOwn(scripts, id, item);
      parseScripts(scripts, [], issues);
    }
    if (issues.length === 0) return undefined;
    const where = (i: ConfigIssue) =>
      i.path.length > 1
        ? ` @ data${i.path
            .slice(1)
            .map((p) => `[${JSON.stringify(p)}]`)
            .join('')}`
        : '';
    return issues.map((i) => `${i.message}${where(i)}`).join('; ');
  }

  save(section: UiSection, id: string, item: JsonObject): Promise<void> {
    return this.serialized(section, async () => {
      const file = await readUiFile(this.dir, section);
      if (Array.isArray(file)) {
        // As Home Assistant writes it: the id first, then the item's keys.
        const { id: _given, ...rest } = item;
        const stored: JsonObject = { id, ...rest };
        const at = file.findIndex((a) => isJsonObject(a) && a.id === id);
        if (at === -1) file.push(stored);
        else file[at] = stored;
      } else setOwn(file as Record<string, JsonValue>, id, item);
      await writeUiFile(this.dir, section, file);
    });
  }

  remove(section: UiSection, id: string): Promise<boolean> {
    return this.serialized(section, async () => {
      const file = await readUiFile(this.dir, section);
      if (findItem(file, id) === undefined) return false;
      if (Array.isArray(file))
        await writeUiFile(
          this.dir,
          section,
          file.filter((a) => !(isJsonObject(a) && a.id === id)),
        );
      else {
        const rest: JsonObject = {};
        for (const [k, v] of Object.entries(file as JsonObject)) if (k !== id) setOwn(rest, k, v);
        await writeUiFile(this.dir, section, rest);
      }
      return true;
    });
  }
}
