import type { Core } from '../core/core.js';
import type { Entity } from '../core/entities.js';
import type { Domain } from './domain.js';

/**
 * Home Assistant's old-style group domain (homeassistant/components/group, registry.py): which member states count
 * as on, and which on/off pair a group of one kind of member shows (home/not_home for persons, open/closed for
 * covers, unlocked/locked for locks...). Legacy groups are not extended to new domains in HA either.
 */

/** A domain's on states, the on state a group of it shows, and its off state (registry.py ON_OFF_STATES and the domains' group.py). */
export const GROUP_ON_OFF_STATES: ReadonlyMap<string, readonly [onStates: readonly string[], on: string, off: string]> = new Map([
  [
    'alarm_control_panel',
    [['on', 'armed_away', 'armed_custom_bypass', 'armed_home', 'armed_night', 'armed_vacation', 'triggered'], 'on', 'off'],
  ],
  ['climate', [['on', 'heat', 'cool', 'heat_cool', 'auto', 'fan_only'], 'on', 'off']],
  ['cover', [['open'], 'open', 'closed']],
  ['device_tracker', [['home'], 'home', 'not_home']],
  ['lock', [['locking', 'open', 'opening', 'unlocked', 'unlocking'], 'unlocked', 'locked']],
  ['media_player', [['on', 'paused', 'playing', 'idle'], 'on', 'off']],
  ['person', [['home'], 'home', 'not_home']],
  ['plant', [['problem'], 'problem', 'ok']],
  ['vacuum', [['on', 'cleaning', 'returning', 'error'], 'on', 'off']],
  ['water_heater', [['on', 'eco', 'electric', 'performance', 'high_demand', 'heat_pump', 'gas'], 'on', 'off']],
  // The domains whose group.py registers plain on/off.
  ...['light', 'switch', 'fan', 'input_boolean', 'binary_sensor', 'remote', 'siren', 'humidifier'].map(
    (d): [string, readonly [readonly string[], string, string]] => [d, [['on'], 'on', 'off']],
  ),
]);

/** Members of these domains are listed but never counted (registry.py EXCLUDED_DOMAINS). */
export const GROUP_EXCLUDED_DOMAINS: ReadonlySet<string> = new Set(['air_quality', 'sensor', 'weather']);

/** A member state that means on, and the on state for an off one, over every domain (the registry's mappings). */
export const ON_OFF_MAPPING: ReadonlyMap<string, string> = (() => {
  const m = new Map<string, string>([['on', 'off']]);
  for (const [onStates, , off] of GROUP_ON_OFF_STATES.values()) for (const s of onStates) if (!m.has(s)) m.set(s, off);
  return m;
})();
export const OFF_ON_MAPPING: ReadonlyMap<string, string> = (() => {
  const m = new Map<string, string>([['off', 'on']]);
  for (const [, on, off] of GROUP_ON_OFF_STATES.values()) if (!m.has(off)) m.set(off, on);
  return m;
})();

/** What a group shows beside its state (Group.extra_state_attributes, then friendly_name and icon). */
export interface GroupModel {
  readonly state: string | null;
  readonly entityIds: readonly string[];
  readonly order: number;
  readonly auto: boolean;
  readonly assumedState: boolean;
}

export function addGroup(core: Core, options: { entityId: string; owner: string; name: string; icon?: string }): Entity<null> {
  return core.entities.add({
    entityId: options.entityId,
    owner: options.owner,
    platform: null,
    name: options.name,
    fixed: options.icon === undefined ? {} : { icon: options.icon },
    restore: false,
  });
}

export function reportGroup(entity: Entity<null>, model: GroupModel): void {
  const attributes: Record<string, string | number | boolean | string[]> = { entity_id: [...model.entityIds], order: model.order };
  if (model.auto) attributes.auto = true;
  if (model.assumedState) attributes.assumed_state = true;
  entity.report(model.state, attributes);
}

/** A group is turned on and off through its members (group/reproduce_state.py): the scene sets each member. */
export const groupDomain: Domain = {
  name: 'group',
  registerServices(): void {},
  async reproduceState(core, entityId, desired, context) {
    const members = core.states.get(entityId)?.attributes.entity_id;
    if (!Array.isArray(members)) return;
    for (const member of members) {
      if (typeof member !== 'string') continue;
      const domain = member.split('.')[0] ?? '';
      if (desired.state !== 'on' && desired.state !== 'off') continue;
      if (!core.services.has(domain, `turn_${desired.state}`)) continue;
      await core.services.call(domain, `turn_${desired.state}`, { entity_id: member }, { context });
    }
  },
};
