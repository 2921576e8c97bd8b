import { copyFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parse, stringify } from 'yaml';
import type { HubConfig } from '../config/types.js';
import { HubError } from '../core/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { setOwn } from '../core/own-keys.js';
import { readTextIfPresent, writeFileAtomic } from '../storage/atomic-file.js';

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
  return changed ? { ...config, sections } : config;
}
