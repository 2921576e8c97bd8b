import { listItems } from '../automation/config-values.js';
import { type ConfigIssue, type ConfigPath, ConfigReader, kindOf } from '../config/reader.js';
import { slugify } from '../core/entity-id.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';

/** One notify platform of the `notify:` list that hearth runs. */
export type NotifyPlatformConfig =
  /** HA's file platform (file/notify.py): appends each message to a file, here under the data directory. */
  | { readonly platform: 'file'; readonly service: string; readonly filename: string; readonly timestamp: boolean }
  /** HA's notify group (group/notify.py): sends to other notify services, each with its own data. */
  | {
      readonly platform: 'group';
      readonly service: string;
      readonly services: readonly { readonly service: string; readonly data?: JsonObject }[];
    };

export interface NotifySection {
  readonly platforms: readonly NotifyPlatformConfig[];
  /** Platforms of integrations hearth does not have: said once each at start, never a refusal. */
  readonly ignored: readonly { readonly index: number; readonly platform: string }[];
}

const SLUG = /^[a-z0-9_]+$/;

/** A file name under the data directory: relative, without `..` or a leading `/`. */
const SAFE_FILENAME = /^(?!.*(?:^|\/)\.\.(?:\/|$))[^/\0][^\0]*$/;

/** `notify:`: a list of platforms (one mapping counts as a list of one), as HA's legacy notify PLATFORM_SCHEMA. */
export function parseNotifySection(value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): NotifySection {
  if (value === undefined || value === null) return { platforms: [], ignored: [] };
  if (!Array.isArray(value) && !isJsonObject(value)) {
    issues.push({ path, message: `expected a list of notify platforms (- platform: file), got ${kindOf(value)}` });
    return { platforms: [], ignored: [] };
  }
  const platforms: NotifyPlatformConfig[] = [];
  const ignored: { index: number; platform: string }[] = [];
  const services = new Set<string>();
  listItems(value, path).forEach((item, index) => {
    const r = ConfigReader.of(item.value, item.path, issues);
    if (!isJsonObject(item.value)) return;
    const platform = r.string('platform', { required: true });
    if (platform === '') return;
    if (platform !== 'file' && platform !== 'group') {
      ignored.push({ index, platform });
      return;
    }
    const name = r.string('name');
    const service = slugify(name ?? platform);
    if (service === '' || !SLUG.test(service))
      r.problem('name', `${JSON.stringify(name)} gives no service name: expected letters, digits or underscores`);
    else if (services.has(service) || service === 'notify' || service === 'persistent_notification' || service === 'send_message') {
      r.problem('name', `notify.${service} is already a service: give this platform another name`);
    }
    services.add(service);
    if (platform === 'file') {
      const filename = r.string('filename', {
        required: true,
        pattern: SAFE_FILENAME,
        patternText: 'a file name relative to the data directory (no leading /, no ..)',
      });
      const timestamp = r.boolean('timestamp', false);
      r.rejectUnknown();
      if (filename) platforms.push({ platform: 'file', service, filename, timestamp });
      return;
    }
    const targets: { service: string; data?: JsonObject }[] = [];
    for (const t of r.list('services')) {
      const tr = ConfigReader.of(t.value, t.path, issues);
      const target = tr.string('service', {
        required: true,
        pattern: SLUG,
        patternText: 'a notify service name (mobile_app_phone, not notify.mobile_app_phone)',
      });
      const data = tr.child('data')?.value;
      tr.rejectUnknown();
      if (target !== '') targets.push({ service: target, data });
    }
    if (!r.has('services')) r.problem('services', 'is required: expected a list of notify services (- service: mobile_app_phone)');
    r.rejectUnknown();
    platforms.push({ platform: 'group', service, services: targets });
  });
  return { platforms, ignored };
}
