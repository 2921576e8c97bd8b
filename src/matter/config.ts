// The `matter:` section: the bridge's name and UDP port, which entities it bridges (HA's entityfilter keys plus
// hearth's areas and labels, as `homekit:` reads them) and per-entity names. The passcode and discriminator are
// generated once and kept in the data dir (src/matter/setup.ts), unless given here.
import { EMPTY_FILTER, type EntityFilterSpec, parseFlatFilter } from '../config/entity-filter.js';
import type { ConfigIssue, ConfigPath } from '../config/reader.js';
import { isJsonObject, type JsonValue } from '../core/json.js';

export interface MatterConfig {
  readonly name: string;
  /** The Matter node's UDP port (5540, Matter's default; 0 picks a free one). */
  readonly port: number;
  /** HA's entityfilter keys plus areas and labels (src/config/entity-filter.ts). */
  readonly filter: { readonly include: EntityFilterSpec; readonly exclude: EntityFilterSpec };
  /** Per-entity names shown in the controllers' apps. */
  readonly names: ReadonlyMap<string, string>;
  /** The setup passcode and discriminator when set here rather than generated. */
  readonly passcode?: number;
  readonly discriminator?: number;
}

const KEYS = new Set(['name', 'port', 'filter', 'entity_config', 'passcode', 'discriminator']);

/** Passcodes the Matter specification forbids (5.1.7.1: trivial and sequential ones). */
export const FORBIDDEN_PASSCODES = new Set([
  0, 11111111, 22222222, 33333333, 44444444, 55555555, 66666666, 77777777, 88888888, 99999999, 12345678, 87654321,
]);

export function parseMatter(value: JsonValue, path: ConfigPath, issues: ConfigIssue[]): MatterConfig {
  const v = value === null ? {} : value;
  if (!isJsonObject(v)) {
    issues.push({ path, message: 'expected a mapping (name, port, filter, entity_config, passcode, discriminator)' });
    return defaults();
  }
  for (const key of Object.keys(v))
    if (!KEYS.has(key)) issues.push({ path: [...path, key], message: `unknown key; allowed: ${[...KEYS].join(', ')}` });
  const name = v.name ?? 'hearth Matter Bridge';
  if (typeof name !== 'string' || name.length < 1 || name.length > 32)
    issues.push({ path: [...path, 'name'], message: 'expected a name of 1 to 32 characters' });
  const port = v.port ?? 5540;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535)
    issues.push({ path: [...path, 'port'], message: 'expected a port number from 0 to 65535' });
  const passcode = v.passcode;
  const passcodeOk =
    typeof passcode === 'number' &&
    Number.isInteger(passcode) &&
    passcode >= 1 &&
    passcode <= 99999998 &&
    !FORBIDDEN_PASSCODES.has(passcode);
  if (passcode !== undefined && !passcodeOk)
    issues.push({
      path: [...path, 'passcode'],
      message: 'expected a number from 1 to 99999998, not a trivial one like 11111111 or 12345678',
    });
  const discriminator = v.discriminator;
  const discriminatorOk =
    typeof discriminator === 'number' && Number.isInteger(discriminator) && discriminator >= 0 && discriminator <= 4095;
  if (discriminator !== undefined && !discriminatorOk)
    issues.push({ path: [...path, 'discriminator'], message: 'expected a number from 0 to 4095' });
  const filter = parseFlatFilter(v.filter, [...path, 'filter'], issues);
  const names = new Map<string, string>();
  const entityConfig = v.entity_config ?? {};
  if (isJsonObject(entityConfig)) {
    for (const [entityId, cfg] of Object.entries(entityConfig))
      if (isJsonObject(cfg) && typeof cfg.name === 'string') names.set(entityId, cfg.name.slice(0, 32));
  } else issues.push({ path: [...path, 'entity_config'], message: 'expected a mapping of entity ids to {name: ...}' });
  return {
    name: typeof name === 'string' ? name.slice(0, 32) : 'hearth Matter Bridge',
    port: typeof port === 'number' ? port : 5540,
    filter,
    names,
    passcode: passcodeOk ? passcode : undefined,
    discriminator: discriminatorOk ? discriminator : undefined,
  };
}

function defaults(): MatterConfig {
  return { name: 'hearth Matter Bridge', port: 5540, filter: { include: EMPTY_FILTER, exclude: EMPTY_FILTER }, names: new Map() };
}
