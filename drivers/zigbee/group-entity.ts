import type { Definition, Tz } from 'zigbee-herdsman-converters';
import type { Entity } from '../../src/core/entities.js';
import { slugify } from '../../src/core/entity-id.js';
import { HubError } from '../../src/core/errors.js';
import type { State } from '../../src/core/state.js';
import { addLight, capabilitiesOf, type LightCapabilities, type LightHandle } from '../../src/domains/light.js';
import { addSwitch } from '../../src/domains/switch.js';
import type { DeviceState } from './built-entity.js';
import type { EntitySpec } from './exposes.js';
import { type GroupKind, groupLightModel, reduceOnOff, unionCapabilities } from './group-state.js';
import type { ZigbeeHost } from './host.js';
import { COORDINATOR_ID } from './hub-entities.js';
import { turnOnMessage } from './light.js';
import { loadConverters } from './runtime.js';
import type { ZigbeeDevice } from './types.js';

/**
 * The entity of one Zigbee group (zigbee2mqtt's group entity): a light when a member is a light, else a switch when
 * one is a switch, none while it has neither. Its state is its members' as Home Assistant's light and switch groups
 * reduce them (group-state.ts); a command is one groupcast through herdsman's Group and the converters' generic
 * toZigbee, and the members then show what was sent at once (zigbee2mqtt's groupOptimistic), until they report.
 */

type LightEntitySpec = Extract<EntitySpec, { kind: 'light' }>;
export type ZigbeeGroup = NonNullable<ReturnType<NonNullable<ZigbeeHost['running']>['getGroupByID']>>;
type ZigbeeEndpoint = ZigbeeDevice['endpoints'][number];

export interface GroupMember {
  readonly endpoint: ZigbeeEndpoint;
  readonly ieee: string;
  /** The member's light or switch entity, when its device has one on that endpoint. */
  readonly entityId: string | undefined;
  readonly domain: GroupKind | undefined;
}

/** zigbee2mqtt's STATE_PROPERTIES: the keys a group command hands on to its members, when the member has them. */
function memberKeys(entity: Entity | undefined): Set<string> {
  const keys = new Set(['state']);
  if (entity?.domain !== 'light') return keys;
  const modes = capabilitiesOf(entity).supportedColorModes;
  if (modes.some((m) => m !== 'onoff')) keys.add('brightness');
  if (modes.includes('color_temp')) keys.add('color_temp');
  if (modes.includes('xy') || modes.includes('hs')) keys.add('color');
  return keys;
}

/** The group light as the converters' generic keys name its parts (what turnOnMessage builds a message from). */
const GROUP_LIGHT: LightEntitySpec = {
  kind: 'light',
  key: 'light',
  label: undefined,
  endpoint: undefined,
  properties: [],
  light: {
    state: 'state',
    brightness: 'brightness',
    colorTemp: { property: 'color_temp', minMireds: 0, maxMireds: 0 },
    color: { property: 'color', space: 'xy' },
    colorMode: 'color_mode',
  },
};

export class GroupEntity {
  members: GroupMember[] = [];
  private entity: Entity | undefined;
  private light: LightHandle | undefined;
  private reportSwitch: ((on: boolean | null) => void) | undefined;
  private shape = '';
  private deviceId = '';
  private definitions: Definition[] = [];
  /** The converters' view of the group's state (meta.state): what the last command set. */
  private readonly state: DeviceState = {};
  private removed = false;

  constructor(
    private readonly driver: ZigbeeHost,
    readonly group: ZigbeeGroup,
  ) {}

  get id(): number {
    return this.group.groupID;
  }

  get name(): string {
    const n = this.group.meta.friendly_name;
    return typeof n === 'string' && n !== '' ? n : `Group ${this.group.groupID}`;
  }

  get entityId(): string | undefined {
    return this.entity?.id;
  }

  private get core() {
    return this.driver.ctx.core;
  }

  /** Reads the members again (after a change of membership or of a member's entities) and remakes the entity if its kind changed. */
  async sync(): Promise<void> {
    if (this.removed) return;
    const zhc = await loadConverters();
    const members: GroupMember[] = [];
    const definitions: Definition[] = [];
    for (const endpoint of this.group.members) {
      const device = endpoint.getDevice();
      const definition = await zhc.findByDevice(device).catch(() => undefined);
      if (definition !== undefined && !definitions.includes(definition)) definitions.push(definition);
      members.push({
        endpoint,
        ieee: device.ieeeAddr,
        ...memberEntity(this.core.entities, device, endpoint.ID, definition),
      });
    }
    if (this.removed) return;
    this.members = members;
    this.definitions = definitions;
    const kind: GroupKind | undefined = members.some((m) => m.domain === 'light')
      ? 'light'
      : members.some((m) => m.domain === 'switch')
        ? 'switch'
        : undefined;
    const caps = kind === 'light' ? unionCapabilities(this.memberEntities('light').map(capabilitiesOf)) : undefined;
    const shape = kind === undefined ? '' : `${kind}:${JSON.stringify(caps ?? null)}`;
    if (shape !== this.shape) {
      this.dropEntity();
      this.shape = shape;
      if (kind !== undefined) this.makeEntity(kind, caps);
    }
    this.render();
  }

  private memberEntities(domain: GroupKind): Entity[] {
    return this.members
      .filter((m) => m.domain === domain && m.entityId !== undefined)
      .map((m) => this.core.entities.get(m.entityId as string))
      .filter((e): e is Entity => e !== undefined);
  }

  private makeEntity(kind: GroupKind, caps: LightCapabilities | undefined): void {
    const { core, owner } = this.driver.ctx;
    const entry = core.devices.register({
      identifiers: [['zigbee', `group_${this.id}`]],
      name: this.name,
      owner,
      manufacturer: 'Zigbee',
      model: 'Group',
      via_device: COORDINATOR_ID,
    });
    this.deviceId = entry.id;
    const init = {
      entityId: `${kind}.${slugify(this.name)}`,
      name: this.name,
      uniqueId: `zigbee_group_${this.id}_${kind}`,
      deviceId: entry.id,
      owner,
      // The members keep their own state across a restart; the group's is drawn from theirs.
      restore: false,
    };
    if (kind === 'light' && caps !== undefined) {
      const light = addLight(core, {
        ...init,
        capabilities: caps,
        platform: {
          turnOn: (params) => this.send(turnOnMessage(GROUP_LIGHT, params, this.entity?.state === 'on')),
          turnOff: (params) =>
            this.send(params.transition === undefined ? { state: 'OFF' } : { state: 'OFF', transition: params.transition }),
        },
      });
      this.light = light;
      this.entity = light.entity;
    } else {
      const sw = addSwitch(core, {
        ...init,
        platform: { turnOn: () => this.send({ state: 'ON' }), turnOff: () => this.send({ state: 'OFF' }) },
      });
      this.reportSwitch = sw.report;
      this.entity = sw.entity;
    }
  }

  /** A member's state changed (or the membership did): the group's is drawn again. */
  render(): void {
    const entity = this.entity;
    if (entity === undefined || this.removed) return;
    const states: (State | undefined)[] = this.members.map((m) =>
      m.entityId === undefined ? undefined : this.core.states.get(m.entityId),
    );
    const reading = reduceOnOff(states);
    if (reading.kind === 'unavailable') {
      // The adapter gone: a call fails with why rather than being skipped.
      entity.markUnavailable(undefined, this.driver.connected ? undefined : this.driver.adapterGone);
      return;
    }
    const on = reading.kind === 'known' ? reading.on : null;
    if (this.light !== undefined) this.light.report(on === null ? null : groupLightModel(states, this.light.capabilities, on));
    else this.reportSwitch?.(on);
  }

  /** One groupcast through the converters' generic light or switch toZigbee (zigbee2mqtt's publish to a group). */
  async send(message: Record<string, unknown>): Promise<void> {
    if (!this.driver.connected) throw new HubError('hub_error', this.driver.adapterGone);
    const { toZigbee } = await loadConverters();
    const converters: Tz.Converter[] =
      this.light !== undefined ? [toZigbee.light_onoff_brightness, toZigbee.light_colortemp, toZigbee.light_color] : [toZigbee.on_off];
    const used = new Set<Tz.Converter>();
    const result: DeviceState = {};
    for (const [key, value] of Object.entries(message)) {
      const converter = converters.find((c) => c.key?.includes(key));
      if (converter === undefined || used.has(converter) || converter.convertSet === undefined) continue;
      used.add(converter);
      const meta = {
        message: { ...message },
        options: {},
        state: this.state,
        mapped: this.definitions,
        endpoint_name: undefined,
        device: undefined,
        publish: () => {},
      } as unknown as Tz.Meta;
      try {
        const out = await converter.convertSet(this.group as never, key, value, meta);
        if (out?.state) Object.assign(result, out.state);
      } catch (err) {
        throw new HubError(
          'hub_error',
          `Zigbee group ${this.name} (${this.id}) did not take ${key}: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
    Object.assign(this.state, result);
    this.handOn(result);
  }

  /** zigbee2mqtt's groupOptimistic: each member shows what the group was sent (the keys it has), until it reports. */
  private handOn(result: DeviceState): void {
    for (const m of this.members) {
      const keys = memberKeys(m.entityId === undefined ? undefined : this.core.entities.get(m.entityId));
      const payload: DeviceState = {};
      for (const [k, v] of Object.entries(result)) if (keys.has(k) || (k === 'color_mode' && keys.has('color'))) payload[k] = v;
      if (Object.keys(payload).length > 0) this.driver.devices.get(m.ieee)?.groupCommanded?.(payload, m.endpoint.ID);
    }
  }

  rename(name: string): void {
    this.entity?.setName(name);
    if (this.deviceId !== '')
      this.core.devices.register({ identifiers: [['zigbee', `group_${this.id}`]], name, owner: this.driver.ctx.owner });
  }

  private dropEntity(): void {
    if (this.entity !== undefined) this.core.entities.remove(this.entity.id);
    if (this.deviceId !== '') this.core.devices.remove(this.deviceId);
    this.entity = undefined;
    this.light = undefined;
    this.reportSwitch = undefined;
    this.deviceId = '';
  }

  /** The group is gone: its entity and registry entry go. */
  remove(): void {
    this.removed = true;
    this.dropEntity();
  }
}

/** The member device's light (else switch) entity on that endpoint: unique id `<ieee>_light_<endpoint name>` or `<ieee>_light`. */
function memberEntity(
  entities: { ofDomain(domain: string): ReadonlySet<Entity> },
  device: ZigbeeDevice,
  endpointId: number,
  definition: Definition | undefined,
): { entityId: string | undefined; domain: GroupKind | undefined } {
  let names: string[] = [];
  try {
    const map = definition?.endpoint?.(device) ?? {};
    names = Object.keys(map).filter((n) => map[n] === endpointId);
  } catch {
    // A definition whose endpoint map needs more of the device than it has: the plain key is tried.
  }
  const first = device.endpoints[0]?.ID === endpointId;
  for (const domain of ['light', 'switch'] as const) {
    const wanted = new Set(names.map((n) => `${device.ieeeAddr}_${domain}_${n}`));
    if (first || names.length === 0) wanted.add(`${device.ieeeAddr}_${domain}`);
    for (const e of entities.ofDomain(domain)) if (e.uniqueId !== undefined && wanted.has(e.uniqueId)) return { entityId: e.id, domain };
  }
  return { entityId: undefined, domain: undefined };
}
