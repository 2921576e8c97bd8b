import type { Entity } from '../core/entities.js';
import type { JsonValue } from '../core/json.js';
import type { Logger } from '../core/log.js';
import { setOwn } from '../core/own-keys.js';
import type { TemplateEntityDefinition } from './config.js';
import type { DeviceParts } from './device-config.js';
import { type Presented, type Rendered, TEMPLATE_OWNER, type TemplateWriter } from './entity.js';
import type { PlatformContext } from './platform-context.js';

/** What the template cover, light and fan share. */

/** What adding a cover, light or fan gives the template platform: its entity and how it presents a render. */
export interface DeviceEntity {
  readonly entity: Entity;
  readonly adapt: (result: Rendered) => Presented;
}

/** What the cover, light and fan modules need beside the definition. */
export interface DeviceContext {
  readonly ctx: PlatformContext;
  readonly def: TemplateEntityDefinition;
  readonly device: DeviceParts;
  readonly entityId: string;
  readonly log: Logger;
  /** The entity's writer, for the optimistic changes its actions make. */
  readonly writer: () => TemplateWriter;
}

/** The base of an entity's name and unique id, as its domain's add function takes them. */
export function baseOf(d: DeviceContext): { entityId: string; owner: string; name: string; uniqueId?: string; restore: false } {
  // Home Assistant's template cover restores its last position only while no template has rendered; hearth
  // renders at once, so it does not restore (and restoring through the domain's services would run the actions).
  return { entityId: d.entityId, owner: TEMPLATE_OWNER, name: d.def.name, uniqueId: d.def.uniqueId, restore: false };
}

/** The rendered custom attributes after the domain's own ones (null-prototype safe). */
export function withCustom(own: Record<string, JsonValue>, custom: Record<string, JsonValue>): Record<string, JsonValue> {
  for (const [key, value] of Object.entries(custom)) setOwn(own, key, value);
  return own;
}

/** Logs a rejected rendered value once until it changes (a template can render a bad value at every change). */
export function onceLogger(d: DeviceContext): (key: string, message: string) => void {
  const last = new Map<string, string>();
  return (key, message) => {
    if (last.get(key) === message) return;
    last.set(key, message);
    d.log.error({ entity_id: d.entityId }, '%s', message);
  };
}

/** Python's float() of a rendered value; undefined when it is not a number. */
export function floatOf(value: JsonValue | undefined): number | undefined {
  if (typeof value === 'boolean') return value ? 1 : 0;
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
}
