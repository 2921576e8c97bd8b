import type { ConfigIssue, ConfigPath } from '../config/reader.js';
import { ConfigReader } from '../config/reader.js';
import type { JsonValue } from '../core/json.js';
import type { EntityFilterConfig, RecorderConfig } from './types.js';

/**
 * The default commit interval. Every write that reaches the disk costs at least one 4 KB page whatever it
 * carries (the page-size floor of /proc/self/io write_bytes), so the interval, not the number of changes,
 * sets the wear: 5 s (Home Assistant's default) is about 2.9 MB an hour, 60 s about 240 KB. A power cut loses
 * at most this window of history; the current states are protected by restore state's own shorter window.
 */
export const DEFAULT_COMMIT_INTERVAL_S = 60;
export const DEFAULT_PURGE_KEEP_DAYS = 10;

const EMPTY_FILTER: EntityFilterConfig = { domains: [], entities: [], entityGlobs: [] };

export const DEFAULT_RECORDER_CONFIG: RecorderConfig = {
  enabled: true,
  purgeKeepDays: DEFAULT_PURGE_KEEP_DAYS,
  commitIntervalS: DEFAULT_COMMIT_INTERVAL_S,
  include: EMPTY_FILTER,
  exclude: { ...EMPTY_FILTER, eventTypes: [] },
};

function filterOf(r: ConfigReader | undefined, withEvents: boolean): EntityFilterConfig & { eventTypes: string[] } {
  if (r === undefined) return { ...EMPTY_FILTER, eventTypes: [] };
  const out = {
    domains: r.stringList('domains') ?? [],
    entities: r.stringList('entities') ?? [],
    entityGlobs: r.stringList('entity_globs') ?? [],
    eventTypes: withEvents ? (r.stringList('event_types') ?? []) : [],
  };
  r.rejectUnknown();
  return out;
}

/**
 * Home Assistant's recorder keys hearth has no use for: there is no database (history is a journal and day files in
 * the data folder), and it purges past purge_keep_days every night whatever auto_purge says. Each is accepted and
 * named with a warning; db_url's value (often a secret with a password) is never repeated.
 */
function readHomeAssistantKeys(r: ConfigReader): void {
  if (r.has('db_url')) {
    r.string('db_url');
    r.warn('db_url', 'accepted and not honoured: hearth keeps history in its data folder, not in a database');
  }
  for (const key of ['db_max_retries', 'db_retry_wait'] as const) {
    if (!r.has(key)) continue;
    r.number(key, { integer: true, min: 0 });
    r.warn(key, 'accepted and not honoured: hearth has no database connection to retry');
  }
  const autoPurge = r.boolean('auto_purge', true);
  if (!autoPurge) r.warn('auto_purge', 'accepted and not honoured: hearth always drops history older than purge_keep_days');
  if (r.has('auto_repack')) {
    r.boolean('auto_repack', true);
    r.warn('auto_repack', 'accepted and not honoured: hearth rewrites its day files itself');
  }
}

/** Reads the `recorder:` section (Home Assistant's keys); problems are pushed to `issues`. */
export function parseRecorderSection(value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): RecorderConfig {
  if (value === undefined || value === null) return DEFAULT_RECORDER_CONFIG;
  const r = ConfigReader.of(value, path, issues);
  const config: RecorderConfig = {
    enabled: r.boolean('enabled', true),
    purgeKeepDays: r.number('purge_keep_days', { min: 1, max: 3650, integer: true, default: DEFAULT_PURGE_KEEP_DAYS }),
    commitIntervalS: r.number('commit_interval', { min: 1, max: 3600, integer: true, default: DEFAULT_COMMIT_INTERVAL_S }),
    include: filterOf(r.child('include'), false),
    exclude: filterOf(r.child('exclude'), true),
  };
  readHomeAssistantKeys(r);
  r.rejectUnknown();
  return config;
}

/** `history:` and `logbook:`: Home Assistant's include/exclude of domains, entities and entity_globs. */
export interface EntityFilterSection {
  readonly include: EntityFilterConfig;
  readonly exclude: EntityFilterConfig;
}

/** Reads `history:` or `logbook:` (INCLUDE_EXCLUDE_BASE_FILTER_SCHEMA; logbook's exclude may list event_types too). */
export function parseEntityFilterSection(value: JsonValue, path: ConfigPath, issues: ConfigIssue[]): EntityFilterSection {
  if (value === null) return { include: EMPTY_FILTER, exclude: EMPTY_FILTER };
  const r = ConfigReader.of(value, path, issues);
  const section = { include: filterOf(r.child('include'), false), exclude: filterOf(r.child('exclude'), path[0] === 'logbook') };
  r.rejectUnknown();
  return section;
}
