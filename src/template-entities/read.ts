import type { Action } from '../automation/model.js';
import { parseActions } from '../automation/parse-actions.js';
import { readTemplate } from '../automation/parse-triggers.js';
import type { ConfigReader } from '../config/reader.js';

/** Readers shared by the `template:` section and the legacy platform lists. */

/** The actions under `key`, for the domains that have it. */
export function readActions(r: ConfigReader, key: string, wanted: boolean): readonly Action[] | undefined {
  return wanted && r.has(key) ? parseActions(r.raw(key), [...r.path, key], r.issues) : undefined;
}

/** A key that holds a template or a fixed value (Home Assistant accepts both): a fixed value becomes its text. */
export function readTemplateText(r: ConfigReader, key: string): string | undefined {
  const v = r.value[key];
  if (v === undefined || v === null) {
    r.raw(key);
    return undefined;
  }
  if (typeof v === 'boolean') {
    r.raw(key);
    return v ? 'True' : 'False';
  }
  return readTemplate(r, key, false);
}
