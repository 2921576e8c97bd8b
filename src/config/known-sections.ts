import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { HA_DOMAINS_TEXT } from './ha-domains.js';

let domains: ReadonlySet<string> | undefined;

/** Whether `name` is one of Home Assistant's integrations (src/config/ha-domains.ts). */
export function isHaDomain(name: string): boolean {
  domains ??= new Set(HA_DOMAINS_TEXT.split(/\s+/).filter((d) => d !== ''));
  return domains.has(name);
}

/** Whether the configuration's folder has a custom integration of that name (custom_components/<name>/manifest.json). */
export function isCustomComponent(configDir: string | null, name: string): boolean {
  if (configDir === null || !/^[a-z0-9_]+$/.test(name)) return false;
  return existsSync(join(configDir, 'custom_components', name, 'manifest.json'));
}

/** Why a section hearth does not read is ignored, for its one warning; undefined when nobody knows the name. */
export function ignoredBecause(configDir: string | null, name: string): string | undefined {
  if (isHaDomain(name)) return `Home Assistant's ${name} integration is not part of hearth; the section is ignored`;
  if (isCustomComponent(configDir, name))
    return `${name} is a custom integration (custom_components/${name}); hearth does not run custom integrations, so the section is ignored`;
  return undefined;
}

/** Levenshtein distance, bounded: names are short. */
function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return 99;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length] as number;
}

/** The closest of `names` to a misspelt `name` (at most a third of its letters off), for "did you mean". */
export function closestName(name: string, names: Iterable<string>): string | undefined {
  if (name.length > 64) return undefined;
  let best: string | undefined;
  let bestD = Math.max(1, Math.floor(name.length / 3)) + 1;
  for (const candidate of names) {
    const d = distance(name, candidate);
    if (d < bestD) {
      best = candidate;
      bestD = d;
    }
  }
  return best;
}

/** Home Assistant's integrations, for suggestions. */
export function haDomains(): Iterable<string> {
  isHaDomain('');
  return domains as ReadonlySet<string>;
}
