import type { Context } from '../core/context.js';
import type { Core } from '../core/core.js';
import type { Entity } from '../core/entities.js';
import type { JsonObject, JsonValue } from '../core/json.js';
import type { Logger } from '../core/log.js';
import type { DesiredState } from '../domains/domain.js';
import type { Scheduler } from '../util/scheduler.js';
import type { FieldProblem, HelperFields, HelperItem } from './fields.js';

/** What a live helper gets from the component. */
export interface HelperEnv {
  readonly core: Core;
  /** The owner key its entities are registered under. */
  readonly owner: string;
  /** Timers on the hub's clock. */
  readonly scheduler: Scheduler;
  /** The hub's time zone: its offset from UTC in ms at a UTC instant (input_datetime's timestamps). */
  readonly offsetMs: (utcMs: number) => number;
  readonly log: Logger;
}

/** One helper's entity while it exists: its configuration can change (WS update) and it stops when removed. */
export interface LiveHelper {
  readonly entity: Entity;
  update(item: HelperItem): void;
  stop(): void;
  /** Restore state's interface (src/restore/restore-policy.ts RestorablePlatform), on the platform itself. */
  restoreState?(stored: DesiredState, context: Context): void;
}

/** One kind of helper: its domain, its configuration keys and rules, and how it lives as an entity. */
export interface HelperKind {
  readonly domain: string;
  readonly fields: HelperFields;
  /** Rules between keys (min below max, initial in range); the item has its defaults. */
  check?(item: JsonObject): FieldProblem[];
  start(env: HelperEnv, item: HelperItem, editable: boolean): LiveHelper;
}

/** The keys every helper has. */
export const NAME_ICON: HelperFields = {
  name: { field: { kind: 'string', maxLength: 255 }, required: true, yamlOptional: true },
  icon: { field: { kind: 'icon' } },
};

export function str(v: JsonValue | undefined): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function num(v: JsonValue | undefined): number | undefined {
  return typeof v === 'number' ? v : undefined;
}

/** The entity's id and registry keys for an item: `<domain>.<id>`, unique_id the item's id, as Home Assistant. */
export function entityInit<P>(env: HelperEnv, domain: string, item: HelperItem, platform: P, restore?: boolean) {
  return {
    entityId: `${domain}.${item.id}`,
    owner: env.owner,
    platform,
    name: str(item.name),
    icon: str(item.icon),
    uniqueId: item.id,
    restore,
  };
}

/** After an update: the name and icon are fixed attributes, so they are set again (the next report writes them). */
export function setNameIcon(entity: Entity, item: HelperItem, extra: JsonObject = {}): void {
  const fixed: Record<string, JsonValue> = { ...extra };
  const icon = str(item.icon);
  const name = str(item.name);
  if (icon !== undefined) fixed.icon = icon;
  if (name !== undefined) fixed.friendly_name = name;
  entity.setFixed(fixed);
}
