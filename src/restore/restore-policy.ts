import type { Context } from '../core/context.js';
import type { Core } from '../core/core.js';
import type { Entity } from '../core/entities.js';
import type { DesiredState } from '../domains/domain.js';
import { domainByName } from '../domains/index.js';

/**
 * Domains whose state is something a user set, restored after a restart unless the entity says otherwise
 * (`restore` on its init). Sensors and binary sensors are not: the device tells them again, so they cost
 * nothing. Domains added later (helpers, template entities, Zigbee, MQTT) list themselves here or set
 * `restore` per entity.
 */
const RESTORED_DOMAINS: ReadonlySet<string> = new Set([
  'light',
  'switch',
  'cover',
  'fan',
  'climate',
  'lock',
  'media_player',
  'automation',
  'alarm_control_panel',
  // A button's last press (ButtonEntity is a RestoreEntity); number and select ask their device again, as in
  // Home Assistant, where only some integrations restore them.
  'button',
  // Helpers: each applies Home Assistant's own rule in restoreState (an `initial` wins; counter and timer
  // follow their `restore` option, which also sets the entity's `restore`).
  'input_boolean',
  'input_number',
  'input_select',
  'input_text',
  'input_datetime',
  'input_button',
  'counter',
  'timer',
]);

export function isRestorable(entity: Entity): boolean {
  return entity.restore ?? RESTORED_DOMAINS.has(entity.domain);
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
