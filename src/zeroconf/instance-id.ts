// The hub's instance id (Home Assistant's core.uuid): the `uuid` the Companion apps tell hubs apart by.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Logger } from '../core/log.js';
import { jsonOf, readOrCreate } from '../storage/data-file.js';

export const INSTANCE_ID_FILE = 'core_uuid.json';

interface InstanceFile {
  readonly uuid: string;
}

function isInstanceFile(value: unknown): value is InstanceFile {
  const v = value as Partial<InstanceFile> | null;
  return typeof v === 'object' && v !== null && typeof v.uuid === 'string' && /^[0-9a-f]{32}$/.test(v.uuid);
}

/** The stored id, made and written once when there is none (or it is unreadable). */
export async function instanceId(dataDir: string, log: Logger): Promise<string> {
  const file = await readOrCreate(join(dataDir, INSTANCE_ID_FILE), {
    log,
    parse: jsonOf(isInstanceFile, '{"uuid": "<32 hex digits>"}'),
    label: 'instance id file',
    fallback: 'a new id',
    make: () => ({ uuid: randomUUID().replace(/-/g, '') }),
    writeMayFail: true,
  });
  return file.uuid;
}
