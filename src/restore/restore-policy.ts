import type { Context } from '../core/context.js';
import type { Core } from '../core/core.js';
import type { Entity } from '../core/entities.js';
import type { DesiredState } from '../domains/domain.js';
import { domainByName } from '../domains/index.js';

/**
 * Whether an entity's state is restored after a restart: its own `restore`, else its domain's `restored` fact
 * (Domain in src/domains/domain.ts). Sensors and binary sensors are not restored: the device tells them again.
 */
export function isRestorable(entity: Entity): boolean {
  return entity.restore ?? domainByName(entity.domain)?.restored === true;
}

/**
 * A platform whose state has parts no service can set (an automation's last_triggered) restores itself.
 * Every other platform is restored through its domain's reproduceState, the same calls a scene makes: the
 * driver then does what it does for a user (a GPIO relay is switched, a virtual light takes the colour),
 * so no driver needs restore code of its own.
 */
export interface RestorablePlatform {
  restoreState(stored: DesiredState, context: Context): void | Promise<void>;
}

export function isRestorablePlatform(platform: unknown): platform is RestorablePlatform {
  return typeof platform === 'object' && platform !== null && typeof (platform as Partial<RestorablePlatform>).restoreState === 'function';
}

/**
 * Whether the entity's platform or its domain restores it without acting (a helper, a button): such an entity's
 * first `unknown` is its own report, not a device that has not answered yet.
 */
export function restoresItself(entity: Entity): boolean {
  return isRestorablePlatform(entity.platform) || domainByName(entity.domain)?.restoreState !== undefined;
}

/** Brings an entity back to its stored state, through the one path its platform or domain offers. */
export async function applyStoredState(core: Core, entity: Entity, stored: DesiredState, context: Context): Promise<void> {
  if (isRestorablePlatform(entity.platform)) {
    await entity.platform.restoreState(stored, context);
    return;
  }
  const domain = domainByName(entity.domain);
  if (domain?.restoreState !== undefined) {
    domain.restoreState(entity, stored, context);
    return;
  }
  if (domain?.reproduceState === undefined) return;
  await domain.reproduceState(core, entity.id, stored, context);
}
