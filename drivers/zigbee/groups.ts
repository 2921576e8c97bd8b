import type { Controller } from 'zigbee-herdsman';
import { HubError } from '../../src/core/errors.js';
import type { HubEvent } from '../../src/core/event-bus.js';
import type { JsonObject, JsonValue } from '../../src/core/json.js';
import { GroupEntity, type ZigbeeGroup } from './group-entity.js';
import type { ZigbeeHost } from './host.js';
import type { ZigbeeDevice } from './types.js';

/**
 * Zigbee groups (zigbee2mqtt's groups extension and bridge/request/group/*): kept in herdsman's database through its
 * Group model (the friendly name in the group's meta), so they survive a restart; membership is the devices' own
 * (genGroups add/remove on each endpoint). Each group has its entity (group-entity.ts), redrawn when a member's
 * state changes.
 */

/** zigbee2mqtt's group ids: 1 to 0xfff7 (the top of the range is reserved for the stack). */
export const MAX_GROUP_ID = 0xfff7;
const MAX_NAME_LENGTH = 100;
/** Bounds what a hub keeps: zigbee2mqtt has no limit, coordinators hold a few hundred at most. */
const MAX_GROUPS = 1024;

/** zigbee2mqtt's validateFriendlyName, as errors naming the field. */
export function groupNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'friendly_name must be at least 1 char long';
  if (name.length > MAX_NAME_LENGTH) return `friendly_name must be at most ${MAX_NAME_LENGTH} characters`;
  if (name.startsWith('/') || name.endsWith('/')) return 'friendly_name is not allowed to end or start with /';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the check is for control characters
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'friendly_name is not allowed to contain control char';
  if (/\/\d*$/.test(name)) return `friendly_name cannot end with a "/DIGIT" ('${name}')`;
  if (name.includes('#') || name.includes('+')) return `MQTT wildcard (+ and #) not allowed in friendly_name ('${name}')`;
  if (/^\d+$/.test(name)) return `friendly_name must not be a number ('${name}'): it would read as a group id`;
  return undefined;
}

export class ZigbeeGroups {
  private readonly live = new Map<number, GroupEntity>();
  /** Member entity id to the groups drawn from it: a state change looks up only its own groups. */
  private readonly byMember = new Map<string, Set<GroupEntity>>();
  private off: (() => void) | undefined;

  constructor(private readonly driver: ZigbeeHost) {}

  /** The groups in herdsman's database get their entities (after the devices', which are their members). */
  async loadFrom(controller: Controller): Promise<void> {
    this.listen();
    // After a reconnect herdsman has new Group objects: the entities are made again on them.
    const seen = new Set<number>();
    for (const group of controller.getGroupsIterator()) {
      seen.add(group.groupID);
      const old = this.live.get(group.groupID);
      if (old?.group === group) continue;
      old?.remove();
      this.live.set(group.groupID, new GroupEntity(this.driver, group));
    }
    for (const [id, g] of this.live) {
      if (seen.has(id)) continue;
      g.remove();
      this.live.delete(id);
    }
    this.index();
    // One group that cannot be read costs only its own entity, never the network's start.
    for (const g of this.live.values()) await this.resync(g);
  }

  private listen(): void {
    if (this.off !== undefined) return;
    const { core, owner } = this.driver.ctx;
    // A device interviewed again has its entities made anew: the groups it is in look for them.
    const offInterview = core.bus.on(owner, 'zigbee_device_interviewed', (event) => {
      const ieee = (event.data as JsonObject).ieee_address;
      if (typeof ieee === 'string') void this.deviceChanged(ieee);
    });
    const offState = core.bus.on(owner, 'state_changed', (event: HubEvent<'state_changed'>) => {
      const groups = this.byMember.get(event.data.entity_id);
      if (groups === undefined) return;
      for (const g of [...groups]) {
        // A member's entity went (its device removed or re-made): its group looks again.
        if (event.data.new_state === null) void this.resync(g);
        else g.render();
      }
    });
    this.off = () => {
      offInterview();
      offState();
    };
  }

  /** A device's entities came or went (paired, interviewed again, removed): groups it belongs to look again. */
  async deviceChanged(ieee: string): Promise<void> {
    for (const g of this.live.values())
      if (g.group.members.some((m) => m.getDevice().ieeeAddr === ieee) || g.members.some((m) => m.ieee === ieee)) await this.resync(g);
  }

  private async resync(g: GroupEntity): Promise<void> {
    await g.sync().catch((err: unknown) => this.driver.ctx.log.error({ err }, `Zigbee group ${g.name} could not be read again`));
    this.index();
  }

  /** Rebuilt after each change of membership (rare), so a member's state change is one lookup. */
  private index(): void {
    this.byMember.clear();
    for (const g of this.live.values()) {
      for (const m of g.members) {
        if (m.entityId === undefined) continue;
        const set = this.byMember.get(m.entityId) ?? new Set<GroupEntity>();
        set.add(g);
        this.byMember.set(m.entityId, set);
      }
    }
  }

  /** The adapter went away: the group entities show it through their members; nothing else to do until it is back. */
  offline(): void {
    for (const g of this.live.values()) g.render();
  }

  stop(): void {
    this.off?.();
    this.off = undefined;
  }

  list(): JsonValue[] {
    const out: JsonValue[] = [];
    for (const g of this.live.values()) out.push(this.describe(g));
    out.sort((a, b) => ((a as JsonObject).id as number) - ((b as JsonObject).id as number));
    return out;
  }

  describe(g: GroupEntity): JsonObject {
    return {
      id: g.id,
      friendly_name: g.name,
      entity_id: g.entityId ?? null,
      members: g.group.members.map((e) => ({
        ieee_address: e.deviceIeeeAddress,
        friendly_name: this.driver.devices.nameOf(e.deviceIeeeAddress),
        endpoint: e.ID,
      })),
    };
  }

  /** A group by id (a number or its digits) or friendly name (case-insensitive). */
  find(controller: Controller, ref: unknown): GroupEntity {
    const asNumber = typeof ref === 'number' ? ref : typeof ref === 'string' && /^\d+$/.test(ref.trim()) ? Number(ref.trim()) : undefined;
    if (asNumber !== undefined) {
      const g = this.live.get(asNumber);
      if (g !== undefined && controller.getGroupByID(asNumber) !== undefined) return g;
    } else if (typeof ref === 'string') {
      const wanted = ref.trim().toLowerCase();
      for (const g of this.live.values()) if (g.name.toLowerCase() === wanted) return g;
    }
    throw new HubError(
      'not_found',
      `Zigbee group ${JSON.stringify(ref)} does not exist: give the id or friendly name of one (zigbee/group/list lists them)`,
    );
  }

  private nameTaken(name: string, except?: number): string | undefined {
    const lower = name.toLowerCase();
    for (const g of this.live.values()) if (g.id !== except && g.name.toLowerCase() === lower) return `group ${g.id}`;
    const controller = this.driver.running;
    for (const d of controller?.getDevicesIterator((x) => x.type !== 'Coordinator') ?? [])
      if (this.driver.devices.nameOf(d.ieeeAddr).toLowerCase() === lower) return `device ${d.ieeeAddr}`;
    return undefined;
  }

  private checkName(name: string, except?: number): void {
    const problem = groupNameProblem(name);
    if (problem !== undefined) throw new HubError('service_validation', problem);
    const taken = this.nameTaken(name, except);
    if (taken !== undefined) throw new HubError('service_validation', `friendly_name '${name}' is already in use (by ${taken})`);
  }

  /** bridge/request/group/add: the given id, or the lowest free one. */
  async create(controller: Controller, name: string, id: number | undefined): Promise<JsonObject> {
    this.checkName(name);
    if (id !== undefined && (!Number.isInteger(id) || id < 1 || id > MAX_GROUP_ID))
      throw new HubError('service_validation', `group_id must be a whole number from 1 to ${MAX_GROUP_ID}, got ${id}`);
    if (id !== undefined && controller.getGroupByID(id) !== undefined)
      throw new HubError('service_validation', `Group ID '${id}' is already in use`);
    if (this.live.size >= MAX_GROUPS)
      throw new HubError('service_validation', `a hub holds at most ${MAX_GROUPS} Zigbee groups; remove one first`);
    let chosen = id ?? 1;
    while (id === undefined && controller.getGroupByID(chosen) !== undefined) chosen += 1;
    const group = controller.createGroup(chosen);
    group.meta.friendly_name = name;
    group.save();
    const g = new GroupEntity(this.driver, group);
    this.live.set(chosen, g);
    this.listen();
    await this.resync(g);
    this.driver.ctx.log.info(`Zigbee group ${name} (${chosen}) created`);
    return this.describe(g);
  }

  rename(g: GroupEntity, name: string): JsonObject {
    const from = g.name;
    if (name !== from) this.checkName(name, g.id);
    g.group.meta.friendly_name = name;
    g.group.save();
    g.rename(name);
    return { id: g.id, from, to: name };
  }

  /** bridge/request/group/remove: each member told to leave the group, or with `force` only the database forgets it. */
  async remove(g: GroupEntity, force: boolean): Promise<JsonObject> {
    const group: ZigbeeGroup = g.group;
    if (force) group.removeFromDatabase();
    else {
      try {
        await group.removeFromNetwork();
      } catch (err) {
        throw new HubError(
          'hub_error',
          `removing Zigbee group ${g.name} failed: ${err instanceof Error ? err.message : String(err)} (a member did not answer; force: true removes it from the hub only)`,
        );
      }
    }
    this.live.delete(g.id);
    g.remove();
    this.index();
    this.driver.ctx.log.info(`Zigbee group ${g.name} (${g.id}) removed`);
    return { id: g.id, friendly_name: g.name, force };
  }

  /** bridge/request/group/members/add|remove: the endpoint told to join or leave the group (genGroups). */
  async member(g: GroupEntity, device: ZigbeeDevice, endpointRef: unknown, add: boolean): Promise<JsonObject> {
    const endpoint = typeof endpointRef === 'number' ? device.getEndpoint(endpointRef) : device.endpoints[0];
    const name = this.driver.devices.nameOf(device.ieeeAddr);
    if (endpoint === undefined)
      throw new HubError(
        'service_validation',
        `Device '${name}' does not have endpoint '${String(endpointRef)}': it has ${device.endpoints.map((e) => e.ID).join(', ') || 'none'}`,
      );
    try {
      if (add) await endpoint.addToGroup(g.group);
      else await endpoint.removeFromGroup(g.group);
    } catch (err) {
      throw new HubError(
        'hub_error',
        `Failed to ${add ? 'add to' : 'remove from'} group (${err instanceof Error ? err.message : String(err)}) (a battery device may need a button press to wake up)`,
      );
    }
    await this.resync(g);
    return { group: g.id, ieee_address: device.ieeeAddr, endpoint: endpoint.ID, members: this.describe(g).members ?? [] };
  }
}
