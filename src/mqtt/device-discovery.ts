import { isJsonObject, type JsonValue } from '../core/json.js';
import { expandDiscovery } from './abbreviations.js';

/** One component of a device discovery payload: its key, its platform (undefined: remove it) and its own config. */
export interface DeviceComponent {
  readonly key: string;
  readonly platform: string | undefined;
  readonly text: string;
}

/**
 * Home Assistant's device-based discovery (`<prefix>/device/[<node_id>/]<object_id>/config`, 2024.11+): a shared
 * device, origin and options, and `cmps` (components) each with `p` (platform). Each component becomes the config a
 * single-component discovery would carry: the shared options with its own over them. A component given with its
 * platform alone is being removed. Undefined for a payload that is not such an object.
 */
export function splitDeviceConfig(text: string): DeviceComponent[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isJsonObject(parsed)) return undefined;
  const shared = expandDiscovery(parsed);
  const components = shared.components;
  if (!isJsonObject(components)) return undefined;
  delete shared.components;
  const out: DeviceComponent[] = [];
  for (const [key, raw] of Object.entries(components)) {
    if (!isJsonObject(raw)) continue;
    const own = expandDiscovery(raw);
    const platform = typeof own.platform === 'string' ? own.platform : undefined;
    const removal = Object.keys(own).every((k) => k === 'platform');
    const merged: Record<string, JsonValue> = { ...shared, ...own };
    delete merged.platform;
    out.push({ key, platform: removal ? undefined : platform, text: JSON.stringify(merged) });
  }
  return out;
}
