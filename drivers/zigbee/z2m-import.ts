import { mkdir, readFile, rename, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { parse } from 'yaml';
import { isoFromMillis } from '../../src/core/clock.js';
import { silentLogger } from '../../src/core/log.js';
import { ownValue } from '../../src/core/own-keys.js';
import { writeFileAtomic } from '../../src/storage/atomic-file.js';
import { parseBytes, ZIGBEE_ADAPTERS } from './config.js';
import { isStoredNetwork, networkFromCoordinatorBackup, type StoredNetwork, saveNetwork, zigbeePaths } from './network.js';

/** A migration that cannot go ahead, with the reason a user can act on. */
export class ImportRefused extends Error {}

export interface ImportSummary {
  readonly network: StoredNetwork;
  readonly devices: number;
  readonly named: number;
  readonly notes: readonly string[];
}

type Yaml = Record<string, unknown>;
const isMap = (v: unknown): v is Yaml => typeof v === 'object' && v !== null && !Array.isArray(v);

async function readIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** zigbee2mqtt's YAML, with its `!secret name` values taken from secret.yaml beside it. */
function parseZ2mYaml(text: string, secrets: Yaml, file: string): unknown {
  try {
    return parse(text, {
      customTags: [{ tag: '!secret', resolve: (name: string) => ownValue(secrets, name) ?? `!secret ${name}` }],
    });
  } catch (err) {
    throw new ImportRefused(`${file} is not valid YAML: ${(err as Error).message}`);
  }
}

/** A network value from configuration.yaml, or undefined when it is GENERATE (zigbee2mqtt never started) or absent. */
function given<T>(value: unknown, read: (v: unknown) => T | undefined, what: string, notes: string[]): T | undefined {
  if (value === undefined || value === null || value === 'GENERATE') return undefined;
  const parsed = read(value);
  if (parsed === undefined) notes.push(`ignored advanced.${what} ${JSON.stringify(value)}: not a valid value`);
  return parsed;
}

const NETWORK_FIELDS = { pan_id: 'advanced.pan_id', ext_pan_id: 'advanced.ext_pan_id', network_key: 'advanced.network_key' } as const;

function shown(field: keyof typeof NETWORK_FIELDS, v: number | readonly number[]): string {
  if (typeof v === 'number') return `${v} (0x${v.toString(16).padStart(4, '0')})`;
  // The network key is a secret: only enough of it to tell two apart.
  const hex = v.map((b) => b.toString(16).padStart(2, '0')).join('');
  return field === 'network_key' ? `${hex.slice(0, 4)}… ` : `0x${hex}`;
}

/**
 * herdsman would form a new network (or take the backup's) when the configuration and the coordinator backup
 * disagree, orphaning every paired device; zigbee2mqtt refuses to start then. So does the import, naming both values.
 */
function refuseMismatch(
  configFile: string,
  given: { pan_id?: number; ext_pan_id?: readonly number[]; network_key?: readonly number[] },
  backup: StoredNetwork,
): void {
  for (const field of Object.keys(NETWORK_FIELDS) as (keyof typeof NETWORK_FIELDS)[]) {
    const a = given[field];
    const b = backup[field];
    if (a === undefined) continue;
    const bytes = Array.isArray(b) ? (b as number[]) : [];
    const equal = (x: readonly number[], y: readonly number[]) => x.length === y.length && x.every((v, i) => v === y[i]);
    // An extended PAN id is written in either byte order by different adapters' backups.
    const same = typeof a === 'number' ? a === b : equal(a, bytes) || (field === 'ext_pan_id' && equal(a, [...bytes].reverse()));
    if (same) continue;
    throw new ImportRefused(
      `${configFile} ${NETWORK_FIELDS[field]} ${shown(field, a)} differs from coordinator_backup.json's ${field} ${shown(field, b as number | readonly number[])}: the stick holds the backup's network, and importing would orphan its devices; correct ${NETWORK_FIELDS[field]} (or set it to GENERATE to take the backup's) and run the import again`,
    );
  }
}

/** herdsman's database lines: the readable records, and the others with their line numbers (1-based). */
/** zigbee2mqtt's `groups:` (inline or a file of its own): group id to friendly name. */
async function z2mGroupNames(z2mDir: string, value: unknown): Promise<Map<number, string>> {
  let groups = value;
  if (typeof groups === 'string') {
    const file = isAbsolute(groups) ? groups : join(z2mDir, groups);
    const text = await readIfPresent(file);
    groups = text === undefined ? undefined : parseZ2mYaml(text, {}, file);
  }
  const names = new Map<number, string>();
  for (const [id, options] of Object.entries(isMap(groups) ? groups : {})) {
    const name = isMap(options) ? options.friendly_name : undefined;
    if (/^\d+$/.test(id) && typeof name === 'string' && name.trim() !== '') names.set(Number(id), name.trim());
  }
  return names;
}

/** A Group record takes its zigbee2mqtt name into its meta, where hearth keeps group names (drivers/zigbee/groups.ts). */
function withGroupName(line: string, names: ReadonlyMap<number, string>): string {
  if (names.size === 0 || !line.includes('"type":"Group"')) return line;
  const row = JSON.parse(line) as Record<string, unknown>;
  const name = typeof row.groupID === 'number' ? names.get(row.groupID) : undefined;
  if (row.type !== 'Group' || name === undefined) return line;
  return JSON.stringify({ ...row, meta: { ...(isMap(row.meta) ? row.meta : {}), friendly_name: name } });
}

function splitDatabase(text: string): { good: string[]; bad: { line: number; text: string }[] } {
  const good: string[] = [];
  const bad: { line: number; text: string }[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '') continue;
    try {
      const row = JSON.parse(line) as unknown;
      if (isMap(row) && Number.isFinite(row.id) && typeof row.type === 'string') {
        good.push(line);
        continue;
      }
    } catch {
      // kept aside below
    }
    bad.push({ line: i + 1, text: line });
  }
  return { good, bad };
}

/**
 * `hearth zigbee import`: zigbee2mqtt's network (configuration.yaml's serial and advanced blocks, or its coordinator
 * backup where those say GENERATE), database.db and coordinator_backup.json into <data>/zigbee, and its `devices:`
 * friendly names as hearth's device names, so the same stick comes up with every device paired.
 */
export async function importZigbee2mqtt(z2mDir: string, dataDir: string, force: boolean): Promise<ImportSummary> {
  const configFile = join(z2mDir, 'configuration.yaml');
  const configText = await readIfPresent(configFile);
  if (configText === undefined) {
    throw new ImportRefused(
      `${z2mDir} has no configuration.yaml: give zigbee2mqtt's data directory (the one with configuration.yaml and database.db)`,
    );
  }
  const paths = zigbeePaths(dataDir);
  if (!force && ((await exists(paths.network)) || (await exists(paths.database)))) {
    throw new ImportRefused(
      `a hearth Zigbee network already exists in ${paths.dir}; importing would replace it and orphan its devices (use --force to replace it anyway; the old one is kept beside it)`,
    );
  }
  const secretText = await readIfPresent(join(z2mDir, 'secret.yaml'));
  const secrets = secretText === undefined ? {} : parseZ2mYaml(secretText, {}, join(z2mDir, 'secret.yaml'));
  const config = parseZ2mYaml(configText, isMap(secrets) ? secrets : {}, configFile);
  if (!isMap(config)) throw new ImportRefused(`${configFile} is not a zigbee2mqtt configuration (expected a mapping)`);
  const notes: string[] = [];
  const advanced = isMap(config.advanced) ? config.advanced : {};
  const serial = isMap(config.serial) ? config.serial : {};

  const backupText = await readIfPresent(join(z2mDir, 'coordinator_backup.json'));
  const fromBackup = backupText === undefined ? undefined : networkFromCoordinatorBackup(backupText);
  const panId = given(
    advanced.pan_id,
    (v) => (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 0xfffe ? v : undefined),
    'pan_id',
    notes,
  );
  const extPanId = given(advanced.ext_pan_id, (v) => parseBytes(v, 8), 'ext_pan_id', notes);
  const networkKey = given(advanced.network_key, (v) => parseBytes(v, 16), 'network_key', notes);
  const channel = given(advanced.channel, (v) => (typeof v === 'number' && v >= 11 && v <= 26 ? v : undefined), 'channel', notes);
  if (fromBackup !== undefined) refuseMismatch(configFile, { pan_id: panId, ext_pan_id: extPanId, network_key: networkKey }, fromBackup);
  if (channel !== undefined && fromBackup?.channel !== undefined && channel !== fromBackup.channel)
    notes.push(`advanced.channel ${channel} differs from coordinator_backup.json's channel ${fromBackup.channel}: using ${channel}`);
  const network: Record<string, unknown> = {
    pan_id: panId ?? fromBackup?.pan_id,
    ext_pan_id: extPanId ?? fromBackup?.ext_pan_id,
    network_key: networkKey ?? fromBackup?.network_key,
    channel: channel ?? fromBackup?.channel ?? 11,
  };
  if (!isStoredNetwork(network)) {
    throw new ImportRefused(
      `${configFile} does not give the network's pan_id, ext_pan_id and network_key (GENERATE or absent) and there is no usable coordinator_backup.json: start zigbee2mqtt once so it writes them, or there is no network to import`,
    );
  }
  const adapter = typeof serial.adapter === 'string' ? (serial.adapter === 'ezsp' ? 'ember' : serial.adapter) : undefined;
  if (serial.adapter === 'ezsp')
    notes.push("serial.adapter ezsp is herdsman's deprecated driver: using ember, which drives the same sticks");
  const stored: StoredNetwork = {
    ...network,
    ...(adapter !== undefined && (ZIGBEE_ADAPTERS as readonly string[]).includes(adapter) ? { adapter } : {}),
    ...(typeof serial.port === 'string' ? { port: serial.port } : {}),
    ...(typeof serial.baudrate === 'number' ? { baud_rate: serial.baudrate } : {}),
    ...(typeof serial.rtscts === 'boolean' ? { rtscts: serial.rtscts } : {}),
  };
  if (adapter !== undefined && stored.adapter === undefined)
    notes.push(`serial.adapter ${adapter} is not one hearth drives (${ZIGBEE_ADAPTERS.join(', ')}); the stick will be detected`);

  let devicesValue = config.devices;
  if (typeof devicesValue === 'string') {
    const file = isAbsolute(devicesValue) ? devicesValue : join(z2mDir, devicesValue);
    const text = await readIfPresent(file);
    devicesValue = text === undefined ? undefined : parseZ2mYaml(text, {}, file);
  }
  const names: Record<string, string> = {};
  for (const [ieee, options] of Object.entries(isMap(devicesValue) ? devicesValue : {})) {
    const name = isMap(options) ? options.friendly_name : undefined;
    if (typeof name === 'string' && name.trim() !== '' && name.toLowerCase() !== ieee.toLowerCase()) names[ieee.toLowerCase()] = name;
  }

  const groupNames = await z2mGroupNames(z2mDir, config.groups);

  // Everything read: now the data dir changes. A replaced network is kept aside, never deleted.
  if (force && (await exists(paths.dir))) await rename(paths.dir, `${paths.dir}.replaced-${isoFromMillis().replace(/[:.]/g, '-')}`);
  await mkdir(paths.dir, { recursive: true, mode: 0o700 });
  const database = join(z2mDir, 'database.db');
  let devices = 0;
  const text = await readIfPresent(database);
  if (text !== undefined) {
    const { good, bad } = splitDatabase(text);
    devices = good.filter((l) => /"type":"(Router|EndDevice)"/.test(l)).length;
    const lines = good.map((l) => withGroupName(l, groupNames));
    await writeFileAtomic(paths.database, lines.length > 0 ? `${lines.join('\n')}\n` : '', 0o600);
    if (bad.length > 0) {
      // One bad line costs only itself: it is kept aside, numbered, for a user to mend or drop.
      const aside = `${paths.database}.import-rejected`;
      await writeFileAtomic(
        aside,
        bad
          .map((b) => `${b.line}\t${b.text}`)
          .join('\n')
          .concat('\n'),
        0o600,
      );
      const lines = bad.map((b) => b.line);
      notes.push(
        `database.db line${lines.length === 1 ? '' : 's'} ${lines.slice(0, 20).join(', ')}${lines.length > 20 ? ', …' : ''} ${lines.length === 1 ? 'is not a readable herdsman record' : 'are not readable herdsman records'}: not imported, kept aside in ${aside} (the ${good.length} readable line${good.length === 1 ? '' : 's'} were imported)`,
      );
    }
  } else notes.push('no database.db: the devices must pair again');
  if (backupText !== undefined) await writeFileAtomic(paths.coordinatorBackup, backupText, 0o600);
  if (Object.keys(names).length > 0) await writeFileAtomic(paths.names, `${JSON.stringify(names, null, 2)}\n`, 0o600);
  await saveNetwork(paths, stored, silentLogger);
  return { network: stored, devices, named: Object.keys(names).length, notes };
}
