import { randomBytes, randomInt } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../src/core/log.js';
import { readTextIfPresent, writeFileAtomic } from '../../src/storage/atomic-file.js';
import { DataFile, jsonOf, quarantine, readDataFile } from '../../src/storage/data-file.js';
import { parseBytes, type ZigbeeConfig } from './config.js';

/** Where the Zigbee network lives in the data dir: herdsman's database, its backup, the coordinator backup, our settings. */
export interface ZigbeePaths {
  readonly dir: string;
  readonly database: string;
  readonly databaseBackup: string;
  readonly coordinatorBackup: string;
  readonly network: string;
  readonly names: string;
}

export function zigbeePaths(dataDir: string): ZigbeePaths {
  const dir = join(dataDir, 'zigbee');
  return {
    dir,
    database: join(dir, 'database.db'),
    databaseBackup: join(dir, 'database.db.backup'),
    coordinatorBackup: join(dir, 'coordinator_backup.json'),
    network: join(dir, 'network.json'),
    names: join(dir, 'names.json'),
  };
}

/** The network's identity (never changes while devices are paired) and, for an imported network, its stick. */
export interface StoredNetwork {
  readonly pan_id: number;
  readonly ext_pan_id: number[];
  readonly network_key: number[];
  readonly channel?: number;
  readonly adapter?: string;
  readonly port?: string;
  readonly baud_rate?: number;
  readonly rtscts?: boolean;
}

const isBytes = (v: unknown, n: number): v is number[] =>
  Array.isArray(v) && v.length === n && v.every((b) => Number.isInteger(b) && b >= 0 && b <= 255);

export function isStoredNetwork(v: unknown): v is StoredNetwork {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    Number.isInteger(o.pan_id) &&
    (o.pan_id as number) >= 1 &&
    (o.pan_id as number) <= 0xfffe &&
    isBytes(o.ext_pan_id, 8) &&
    isBytes(o.network_key, 16) &&
    (o.channel === undefined || (Number.isInteger(o.channel) && (o.channel as number) >= 11 && (o.channel as number) <= 26))
  );
}

/** Fresh network settings from the system's cryptographic random source. */
export function generateNetwork(): StoredNetwork {
  let ext = [...randomBytes(8)];
  // All-0xDD is herdsman's default and all-0xFF means "any network": never use either.
  while (ext.every((b) => b === 0xdd) || ext.every((b) => b === 0xff)) ext = [...randomBytes(8)];
  return { pan_id: randomInt(1, 0xffff), ext_pan_id: ext, network_key: [...randomBytes(16)] };
}

/** The settings an Open Coordinator Backup (coordinator_backup.json) holds, for a network whose network.json is lost. */
export function networkFromCoordinatorBackup(text: string): StoredNetwork | undefined {
  try {
    const backup = JSON.parse(text) as Record<string, unknown>;
    const key = (backup.network_key as Record<string, unknown> | undefined)?.key;
    const pan = typeof backup.pan_id === 'string' ? Number.parseInt(backup.pan_id, 16) : undefined;
    const ext = typeof backup.extended_pan_id === 'string' ? parseBytes(backup.extended_pan_id, 8) : undefined;
    const networkKey = typeof key === 'string' ? parseBytes(key, 16) : undefined;
    const channel = typeof backup.channel === 'number' ? backup.channel : undefined;
    const network = { pan_id: pan, ext_pan_id: ext, network_key: networkKey, ...(channel === undefined ? {} : { channel }) };
    return isStoredNetwork(network) ? network : undefined;
  } catch {
    return undefined;
  }
}

export class NetworkSettingsError extends Error {}

/**
 * The network settings for this start: read from network.json, or recovered from the coordinator backup, or
 * generated and written (0600, atomically) on the very first start. Never generated while herdsman's database
 * holds paired devices: new keys would orphan every one of them, so that case is an error the user must resolve.
 */
export async function loadNetwork(
  paths: ZigbeePaths,
  config: ZigbeeConfig,
  log: Logger,
): Promise<{ network: StoredNetwork; created: boolean }> {
  await mkdir(paths.dir, { recursive: true, mode: 0o700 });
  const load = await readDataFile(paths.network, {
    log,
    parse: jsonOf(isStoredNetwork, 'Zigbee network settings'),
    label: 'Zigbee network settings',
    fallback: 'recovering them from the coordinator backup',
  });
  if (load.status === 'ok') return { network: load.value, created: false };
  // Only paired devices make keys precious: an empty database (a first start that failed) is no reason to refuse.
  const databaseText = await readTextIfPresent(paths.database);
  const databaseExists = databaseText !== undefined && /"type":"(Router|EndDevice)"/.test(databaseText);
  const backupText = await readTextIfPresent(paths.coordinatorBackup);
  let network = backupText === undefined ? undefined : networkFromCoordinatorBackup(backupText);
  if (network === undefined && databaseExists) {
    if (config.panId !== undefined && config.extPanId !== undefined && config.networkKey !== undefined) {
      network = { pan_id: config.panId, ext_pan_id: [...config.extPanId], network_key: [...config.networkKey] };
    } else {
      throw new NetworkSettingsError(
        `Zigbee network settings ${paths.network} are missing but the network database ${paths.database} exists: ` +
          'restore network.json, or give pan_id, ext_pan_id and network_key in the zigbee: section (new keys would orphan every paired device)',
      );
    }
  }
  const created = network === undefined;
  const settings = network ?? generateNetwork();
  await saveNetwork(paths, settings, log);
  log.info(
    { path: paths.network },
    created ? `generated a new Zigbee network (PAN id 0x${settings.pan_id.toString(16)})` : 'Zigbee network settings recovered',
  );
  return { network: settings, created };
}

export async function saveNetwork(paths: ZigbeePaths, network: StoredNetwork, log: Logger): Promise<void> {
  await mkdir(paths.dir, { recursive: true, mode: 0o700 });
  const file = new DataFile({
    path: paths.network,
    log,
    label: 'Zigbee network settings',
    mode: 0o600,
    retry: false,
    render: () => `${JSON.stringify(network, null, 2)}\n`,
  });
  await file.save();
}

/**
 * Checks herdsman's database.db (one JSON object per line) before herdsman reads it. Lines that do not parse are
 * dropped: the original is moved aside as database.db.corrupt-<time> with one error, and the good lines are written
 * back, so the network starts with every device that survived (herdsman alone would start with a half-read file).
 */
export async function checkDatabase(paths: ZigbeePaths, log: Logger): Promise<void> {
  const text = await readTextIfPresent(paths.database);
  if (text === undefined) return;
  const good: string[] = [];
  let bad = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const row = JSON.parse(line) as unknown;
      if (
        typeof row === 'object' &&
        row !== null &&
        Number.isFinite((row as { id?: unknown }).id) &&
        typeof (row as { type?: unknown }).type === 'string'
      ) {
        good.push(line);
        continue;
      }
    } catch {
      // counted below
    }
    bad += 1;
  }
  if (bad === 0) return;
  const movedTo = await quarantine(paths.database);
  if (good.length > 0) await writeFileAtomic(paths.database, `${good.join('\n')}\n`, 0o600);
  log.error(
    { path: paths.database, movedTo, dropped: bad, kept: good.length },
    `Zigbee network database ${paths.database} was corrupt (${bad} unreadable line${bad === 1 ? '' : 's'}); moved aside to ${movedTo}; ` +
      (good.length > 0
        ? `starting with the ${good.length} readable entries`
        : 'starting with an empty database (devices reappear as they talk)'),
  );
}
