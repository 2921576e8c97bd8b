import { HubError } from './errors.js';
import { parseEntityIds, TARGET_KEYS } from './fields.js';
import { isJsonObject, type JsonObject, type JsonValue } from './json.js';
import { copy } from './merge.js';

/** The target keys of a call, after merging `target` into the data (target wins, as in Home Assistant). */
export interface TargetSelector {
  readonly entity_id?: readonly string[];
  readonly device_id?: readonly string[];
  readonly area_id?: readonly string[];
  readonly floor_id?: readonly string[];
  readonly label_id?: readonly string[];
}

/** Expands devices, areas, floors and labels to entity ids (the registries provide it). */
export type TargetExpander = (selector: TargetSelector) => Iterable<string>;

/**
 * The service data with a separate `target` merged in (the WebSocket and automation forms). The data is
 * read-only: it is copied only when there is a target to merge.
 */
export function mergeTarget(data: JsonObject, target: JsonValue | undefined): JsonObject {
  if (target === undefined) return data;
  if (!isJsonObject(target)) throw new HubError('invalid_format', 'expected a dictionary for target');
  const merged: Record<string, JsonValue> = copy(data);
  for (const key of Object.keys(target)) {
    if (!(TARGET_KEYS as readonly string[]).includes(key)) {
      throw new HubError('invalid_format', `extra keys not allowed @ data['target']['${key}']. Allowed keys: ${TARGET_KEYS.join(', ')}`);
    }
    merged[key] = target[key] as JsonValue;
  }
  return merged;
}

/** The target keys of merged service data, as lists of ids. */
export function parseTarget(data: JsonObject): TargetSelector {
  // Key by key with static names, in TARGET_KEYS' order: the selector of every call gets the same hidden class.
  const out: { -readonly [K in keyof TargetSelector]: string[] } = {};
  const entityId = data.entity_id;
  if (entityId !== undefined && entityId !== null) out.entity_id = parseEntityIds(entityId, 'entity_id');
  const deviceId = data.device_id;
  if (deviceId !== undefined && deviceId !== null) out.device_id = idList(deviceId, 'device_id');
  const areaId = data.area_id;
  if (areaId !== undefined && areaId !== null) out.area_id = idList(areaId, 'area_id');
  const floorId = data.floor_id;
  if (floorId !== undefined && floorId !== null) out.floor_id = idList(floorId, 'floor_id');
  const labelId = data.label_id;
  if (labelId !== undefined && labelId !== null) out.label_id = idList(labelId, 'label_id');
  return out;
}

function idList(value: JsonValue, key: string): string[] {
  const ids = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(ids) || ids.some((v) => typeof v !== 'string')) {
    throw new HubError('invalid_service_data', `expected a string or a list of strings for dictionary value @ data['${key}']`);
  }
  return ids as string[];
}

/** Whether a selector names anything at all. */
export function hasTargetKeys(target: TargetSelector): boolean {
  for (const _ in target) return true;
  return false;
}
