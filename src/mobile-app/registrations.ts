// The phones registered through mobile_app (Home Assistant's config entries of the integration), with the sensors
// each registered, in <data>/mobile_app.json so a restart keeps every phone and its entities.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { JsonObject, JsonValue } from '../core/json.js';
import type { Logger } from '../core/log.js';
import { DataFile, jsonOf, readDataFile } from '../storage/data-file.js';
import type { KeyScheme } from './crypto.js';

export const MOBILE_APP_FILE = 'mobile_app.json';
/** Bounds: a household has a few phones, a phone a few dozen sensors. */
export const MAX_REGISTRATIONS = 64;
export const MAX_SENSORS_PER_PHONE = 200;

export interface StoredSensor {
  type: 'sensor' | 'binary_sensor';
  unique_id: string;
  name: string;
  state: JsonValue;
  attributes: JsonObject;
  device_class: string | null;
  icon: string | null;
  unit_of_measurement: string | null;
  state_class: string | null;
  entity_category: string | null;
  disabled: boolean;
}

export interface Registration {
  webhook_id: string;
  user_id: string;
  app_data: JsonObject;
  app_id: string;
  app_name: string;
  app_version: string;
  device_name: string;
  manufacturer: string;
  model: string;
  device_id: string;
  os_name: string;
  os_version: string | null;
  supports_encryption: boolean;
  secret: string | null;
  /** Which key the phone encrypts with, once seen (Home Assistant's `no_legacy_encryption`). */
  key_scheme: KeyScheme | null;
  sensors: StoredSensor[];
  /** The last location the phone reported, so its tracker comes back after a restart. */
  location: JsonObject | null;
}

interface MobileAppFile {
  version: 1;
  registrations: Registration[];
}

export class Registrations {
  private readonly byWebhook = new Map<string, Registration>();
  /** Webhooks of deleted registrations: Home Assistant answers them 410 so the app registers again. */
  private readonly deleted = new Set<string>();
  private readonly file: DataFile;

  constructor(
    private readonly dataDir: string,
    private readonly log: Logger,
  ) {
    this.file = new DataFile({
      path: join(dataDir, MOBILE_APP_FILE),
      log,
      label: 'mobile_app file',
      render: () => `${JSON.stringify({ version: 1, registrations: [...this.byWebhook.values()] } satisfies MobileAppFile)}\n`,
    });
  }

  async load(): Promise<void> {
    const loaded = await readDataFile(join(this.dataDir, MOBILE_APP_FILE), {
      log: this.log,
      parse: jsonOf(isMobileAppFile, 'a mobile_app file ({"registrations": [...]})'),
      label: 'mobile_app file',
      fallback: 'phones register again',
    });
    this.byWebhook.clear();
    if (loaded.status !== 'ok') return;
    for (const r of loaded.value.registrations) if (isRegistration(r)) this.byWebhook.set(r.webhook_id, r);
  }

  close(): Promise<void> {
    return this.file.stop();
  }

  get(webhookId: string): Registration | undefined {
    return this.byWebhook.get(webhookId);
  }

  wasDeleted(webhookId: string): boolean {
    return this.deleted.has(webhookId);
  }

  all(): IterableIterator<Registration> {
    return this.byWebhook.values();
  }

  /** Adds a registration; the oldest goes when the bound is reached. */
  add(registration: Omit<Registration, 'webhook_id'>): Registration {
    while (this.byWebhook.size >= MAX_REGISTRATIONS) {
      const oldest = this.byWebhook.keys().next();
      if (oldest.done === true) break;
      this.remove(oldest.value);
    }
    const full: Registration = { webhook_id: randomBytes(32).toString('hex'), ...registration };
    this.byWebhook.set(full.webhook_id, full);
    this.save();
    return full;
  }

  remove(webhookId: string): boolean {
    if (!this.byWebhook.delete(webhookId)) return false;
    if (this.deleted.size >= MAX_REGISTRATIONS) this.deleted.clear();
    this.deleted.add(webhookId);
    this.save();
    return true;
  }

  /** Writes the registrations (a refused write is logged once and retried; memory stays the truth). */
  save(): void {
    this.file.save().catch(() => {});
  }
}

function isMobileAppFile(value: unknown): value is MobileAppFile {
  const v = value as Partial<MobileAppFile> | null;
  return typeof v === 'object' && v !== null && Array.isArray(v.registrations);
}

function isRegistration(value: unknown): value is Registration {
  const r = value as Partial<Registration> | null;
  return (
    typeof r === 'object' &&
    r !== null &&
    typeof r.webhook_id === 'string' &&
    typeof r.user_id === 'string' &&
    typeof r.device_name === 'string' &&
    typeof r.device_id === 'string' &&
    Array.isArray(r.sensors)
  );
}
