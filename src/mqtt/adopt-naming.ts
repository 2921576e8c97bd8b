import type { Core } from '../core/core.js';
import { slugify } from '../core/entity-id.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { optStr } from './adopt-values.js';

// How an adopted entity is named and where its availability comes from, as Home Assistant reads a discovery config.

/** `carbon_dioxide` -> `Carbon dioxide`: Home Assistant's English name of a device class. */
const deviceClassName = (dc: string): string => dc.charAt(0).toUpperCase() + dc.slice(1).replace(/_/g, ' ');

export interface Availability {
  readonly topic: string;
  readonly on: string;
  readonly off: string;
  readonly template: string | undefined;
}

/** The availability topics of a config: the `availability` list, or the single `availability_topic`. */
export function availabilityOf(c: Record<string, JsonValue>): Availability[] {
  const one = (a: JsonObject | Record<string, JsonValue>): Availability | undefined => {
    const topic = optStr(a.topic ?? a.availability_topic);
    if (topic === undefined) return undefined;
    const on = optStr(a.payload_available ?? c.payload_available) ?? 'online';
    const off = optStr(a.payload_not_available ?? c.payload_not_available) ?? 'offline';
    return { topic, on, off, template: optStr(a.value_template ?? a.availability_template ?? c.availability_template) };
  };
  if (Array.isArray(c.availability)) {
    return (c.availability as JsonValue[]).flatMap((a) =>
      isJsonObject(a) ? [one(a)].filter((x): x is Availability => x !== undefined) : [],
    );
  }
  const single = one({ topic: c.availability_topic ?? null });
  return single ? [single] : [];
}

/**
 * Home Assistant's naming: the entity's name after its device's (when the device block names one and the entity's
 * name does not already start with it); a name of null is the device's name alone. Other hearth hubs' entities keep
 * their own names.
 */
export function displayName(c: Record<string, JsonValue>): string | undefined {
  // `name: null` is the device's name alone; no name at all is the device class's name, as Home Assistant has it.
  const deviceClass = optStr(c.device_class);
  const name = optStr(c.name) ?? (c.name === undefined && deviceClass ? deviceClassName(deviceClass) : undefined);
  const device = isJsonObject(c.device) ? optStr(c.device.name) : undefined;
  if (isJsonObject(c.hearth) || device === undefined) return name;
  if (name === undefined) return device;
  return name.toLowerCase().startsWith(device.toLowerCase()) ? name : `${device} ${name}`;
}

/** The entity id: the one the publisher asks for, else from object_id or the name; `_2`... when it is taken. */
export function entityIdFor(core: Core, component: string, c: Record<string, JsonValue>, name: string | undefined): string {
  const hearth = isJsonObject(c.hearth) ? c.hearth : undefined;
  const wanted = [optStr(c.default_entity_id), optStr(hearth?.entity_id)].find((id) => id?.startsWith(`${component}.`));
  const base = wanted ?? `${component}.${slugify(optStr(c.object_id) ?? name ?? optStr(c.unique_id) ?? 'mqtt')}`;
  let id = base;
  for (let n = 2; core.entities.find(id) !== undefined && n < 1000; n++) id = `${base}_${n}`;
  return id;
}
