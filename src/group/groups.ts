import type { Core } from '../core/core.js';
import type { Entity } from '../core/entities.js';
import type { HubEvent } from '../core/event-bus.js';
import type { State } from '../core/state.js';
import { addGroup, GROUP_EXCLUDED_DOMAINS, GROUP_ON_OFF_STATES, OFF_ON_MAPPING, ON_OFF_MAPPING, reportGroup } from '../domains/group.js';
import type { GroupConfig } from './config.js';

interface OnOff {
  readonly on: string;
  readonly off: string;
}

/** One group while it exists. */
export interface LiveGroup {
  readonly entity: Entity<null>;
  readonly objectId: string;
  tracking: readonly string[];
  trackable: readonly string[];
  single: OnOff | undefined;
  all: boolean;
  readonly order: number;
  /** Made by group.set (kept across group.reload, as in HA). */
  readonly auto: boolean;
}

function domainOf(entityId: string): string {
  return entityId.slice(0, entityId.indexOf('.'));
}

/**
 * The old-style groups (homeassistant/components/group/entity.py Group): a group's state is its members' "on"
 * state when any (or with `all:`, every) counted member is on, else their off state; the on/off pair is the members'
 * own when they share one (home/not_home, open/closed...), else on/off; `unknown` while no member has a state.
 */
export class Groups {
  private readonly groups = new Map<string, LiveGroup>();
  private readonly byMember = new Map<string, Set<LiveGroup>>();
  private order = 0;
  private off: (() => void) | undefined;

  constructor(
    private readonly core: Core,
    private readonly owner: string,
  ) {}

  get(entityId: string): LiveGroup | undefined {
    return this.groups.get(entityId);
  }

  all(): IterableIterator<LiveGroup> {
    return this.groups.values();
  }

  add(config: GroupConfig, auto: boolean): LiveGroup {
    this.off ??= this.core.bus.on(this.owner, 'state_changed', (event: HubEvent<'state_changed'>) => {
      const groups = this.byMember.get(event.data.entity_id);
      if (groups !== undefined) for (const g of [...groups]) this.update(g);
    });
    const entityId = `group.${config.objectId}`;
    const entity = addGroup(this.core, { entityId, owner: this.owner, name: config.name, icon: config.icon });
    const group: LiveGroup = {
      entity,
      objectId: config.objectId,
      tracking: [],
      trackable: [],
      single: undefined,
      all: config.all,
      order: this.order++,
      auto,
    };
    this.groups.set(entityId, group);
    this.setMembers(group, config.entityIds);
    return group;
  }

  remove(entityId: string): boolean {
    const group = this.groups.get(entityId);
    if (group === undefined) return false;
    this.untrack(group);
    this.groups.delete(entityId);
    this.core.entities.remove(entityId);
    // A group that held it is now a group of a missing entity.
    const parents = this.byMember.get(entityId);
    if (parents !== undefined) for (const g of [...parents]) this.update(g);
    return true;
  }

  /** Group._set_tracked: the members, lower-cased; the ones counted; the on/off pair they share. */
  setMembers(group: LiveGroup, entityIds: readonly string[]): void {
    this.untrack(group);
    const tracking = [...new Set(entityIds.map((id) => id.toLowerCase()))];
    const pairs = new Map<string, OnOff>();
    for (const id of tracking) {
      const domain = domainOf(id);
      const known = GROUP_ON_OFF_STATES.get(domain);
      if (known !== undefined) pairs.set(`${known[1]}/${known[2]}`, { on: known[1], off: known[2] });
      else if (domain === 'group') {
        const inner = this.groups.get(id)?.single;
        if (inner !== undefined) pairs.set(`${inner.on}/${inner.off}`, inner);
      } else pairs.set('on/off', { on: 'on', off: 'off' });
    }
    group.tracking = tracking;
    group.trackable = tracking.filter((id) => !GROUP_EXCLUDED_DOMAINS.has(domainOf(id)));
    group.single = pairs.size === 1 ? [...pairs.values()][0] : undefined;
    for (const id of group.trackable) {
      const set = this.byMember.get(id) ?? new Set<LiveGroup>();
      set.add(group);
      this.byMember.set(id, set);
    }
    this.update(group);
  }

  private untrack(group: LiveGroup): void {
    for (const id of group.trackable) {
      const set = this.byMember.get(id);
      set?.delete(group);
      if (set?.size === 0) this.byMember.delete(id);
    }
  }

  /** Group._async_update_group_state over the members' current states. */
  update(group: LiveGroup): void {
    const onOff: boolean[] = [];
    const assumed: boolean[] = [];
    const onStates = new Set<string>();
    for (const id of group.trackable) {
      const s: State | undefined = this.core.states.get(id);
      if (s === undefined) continue;
      assumed.push(s.attributes.assumed_state === true);
      const domainStates = GROUP_ON_OFF_STATES.get(domainOf(id));
      if (domainStates === undefined) {
        // A group of a group, or a domain without on/off states of its own.
        if (ON_OFF_MAPPING.has(s.state)) onStates.add(s.state);
        else {
          const on = OFF_ON_MAPPING.get(s.state);
          if (on !== undefined) onStates.add(on);
        }
        onOff.push(ON_OFF_MAPPING.has(s.state));
      } else {
        for (const on of domainStates[0]) onStates.add(on);
        onOff.push(domainStates[0].includes(s.state));
      }
    }
    const mode = (values: boolean[]) => (group.all ? values.every(Boolean) : values.some(Boolean));
    let state: string | null;
    // No member with a state: the group stays as it was (unknown at first).
    if (onOff.length === 0) state = this.stateOf(group) ?? null;
    else if (onStates.size === 0) state = null;
    else state = mode(onOff) ? (group.single?.on ?? 'on') : (group.single?.off ?? 'off');
    reportGroup(group.entity, {
      state,
      entityIds: group.tracking,
      order: group.order,
      auto: group.auto,
      assumedState: onOff.length > 0 && mode(assumed),
    });
  }

  /** The group's current state (undefined while unknown). */
  private stateOf(group: LiveGroup): string | undefined {
    const s = this.core.states.get(group.entity.id)?.state;
    return s === 'unknown' ? undefined : s;
  }

  /** Removes every group made from the YAML (a reload), or every group (stop). */
  clear(keepAuto: boolean): void {
    for (const [id, group] of [...this.groups]) if (!keepAuto || !group.auto) this.remove(id);
    if (!keepAuto) {
      this.off?.();
      this.off = undefined;
    }
  }
}
