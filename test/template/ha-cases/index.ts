import { COLLECTION } from './collection.js';
import { DATETIME } from './datetime.js';
import { INIT } from './init.js';
import { MATH } from './math.js';
import { BASE64, CRYPTO, FUNCTIONAL, REGEX, SERIALIZATION, STATES, STRING, TYPE_CAST, VERSION } from './misc.js';
import type { HaCaseFile } from './types.js';

export type { HaCase, HaCaseFile } from './types.js';

/** Every ported file, in the order of README.md. */
export const HA_CASE_FILES: readonly HaCaseFile[] = [
  INIT,
  STATES,
  MATH,
  COLLECTION,
  DATETIME,
  TYPE_CAST,
  STRING,
  REGEX,
  SERIALIZATION,
  BASE64,
  FUNCTIONAL,
  CRYPTO,
  VERSION,
];

/**
 * Cases hearth renders differently from Home Assistant, each with its reason (also listed in
 * docs/templates.md, "Differences from Home Assistant"). Keyed `file#fn#template`.
 */
export const KNOWN_DIFFERENCES: Readonly<Record<string, string>> = {};
