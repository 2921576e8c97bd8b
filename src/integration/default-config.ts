import type { ConfigIssue, ConfigPath } from '../config/reader.js';
import type { JsonValue } from '../core/json.js';

/**
 * Home Assistant's `default_config:`: "load the default integrations". hearth's are built in, except those HA makes
 * only with it (zone.home and the persons, sun.sun): each part that does reads this section too. It takes no options.
 */
export function parseDefaultConfig(value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): boolean {
  if (value === undefined) return false;
  if (value !== null && !(typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0)) {
    issues.push({ path, message: 'takes no options: write `default_config:` alone (or leave it out)' });
  }
  return true;
}
