import type { HubConfig } from '../config/types.js';
import type { Component } from '../core/component.js';
import type { Core } from '../core/core.js';
import { slugify } from '../core/entity-id.js';
import { HubError } from '../core/errors.js';
import type { ValidData } from '../core/fields.js';
import type { Logger } from '../core/log.js';
import { parseDefaultConfig } from '../integration/default-config.js';
import { type Integration, optionalSection, type SectionParser } from '../integration/integration.js';
import { reloadSections } from '../integration/reload.js';
import { type GroupConfig, parseGroupSection } from './config.js';
import { Groups } from './groups.js';

export const GROUP_OWNER = 'group';

const OBJECT_ID = /^[a-z0-9_]+$/;

export interface GroupPartOptions {
  readonly core: Core;
  readonly log: Logger;
  readonly groups: readonly GroupConfig[];
  readonly reloadConfig: () => Promise<HubConfig>;
}

/** `group:`'s groups and the group.set, group.remove and group.reload services (group/__init__.py, services.py). */
export class GroupPart implements Component {
  readonly name = 'groups';
  readonly owner = GROUP_OWNER;
  readonly optional = true;
  private readonly groups: Groups;

  constructor(private readonly o: GroupPartOptions) {
    this.groups = new Groups(o.core, GROUP_OWNER);
  }

  async start(): Promise<void> {
    const { core } = this.o;
    this.addAll(this.o.groups);
    const register = core.services.register.bind(core.services, GROUP_OWNER);
    register({
      domain: 'group',
      service: 'reload',
      name: 'Reload',
      description: 'Reloads group configuration, entities, and notify services from YAML-configuration.',
      schema: { fields: {} },
      handler: async () => {
        const { group } = await reloadSections({
          domain: 'group',
          sections: { group: parseGroupSection },
          itemOf: (path) => path.slice(0, 2),
          reloadConfig: this.o.reloadConfig,
          core,
          log: this.o.log,
        });
        // Groups made by group.set stay (HA re-adds the created_by_service ones).
        this.groups.clear(true);
        this.addAll(group);
      },
    });
    register({
      domain: 'group',
      service: 'set',
      name: 'Set',
      description: 'Creates/Updates a group.',
      schema: {
        fields: {
          object_id: {
            kind: 'text',
            required: true,
            maxLength: 190,
            description: 'Object ID of this group. This object ID is used as part of the entity ID.',
          },
          name: { kind: 'text', maxLength: 255, description: 'Name of the group.' },
          icon: { kind: 'text', maxLength: 255, description: 'Name of the icon for the group.' },
          entities: {
            kind: 'entities',
            description: 'List of all members in the group. Cannot be used in combination with `Add entities` or `Remove entities`.',
          },
          add_entities: { kind: 'entities', description: 'List of members to be added to the group.' },
          remove_entities: { kind: 'entities', description: 'List of members to be removed from a group.' },
          all: { kind: 'boolean', description: 'Enable this option if the group should only be used when all entities are in state `on`.' },
        },
        exclusive: [['entities', 'add_entities', 'remove_entities']],
      },
      handler: (call) => this.set(call.data),
    });
    register({
      domain: 'group',
      service: 'remove',
      name: 'Remove',
      description: 'Removes a group.',
      schema: { fields: { object_id: { kind: 'text', required: true, maxLength: 190, description: 'Object ID of this group.' } } },
      handler: (call) => {
        const entityId = `group.${String(call.data.object_id)}`;
        if (!this.groups.remove(entityId)) this.o.log.warn({ entity_id: entityId }, "group.remove: group '%s' doesn't exist", entityId);
      },
    });
  }

  private addAll(configs: readonly GroupConfig[]): void {
    for (const config of configs) {
      const entityId = `group.${config.objectId}`;
      if (this.o.core.entities.get(entityId) !== undefined) {
        this.o.log.error({ entity_id: entityId }, '%s is already provided by another part; the group is left out', entityId);
        continue;
      }
      this.groups.add(config, false);
    }
  }

  /** group.set: creates the group (made by the service) or changes its members, name, icon or mode. */
  private set(data: ValidData): void {
    const objectId = String(data.object_id);
    if (!OBJECT_ID.test(objectId)) {
      throw new HubError(
        'invalid_service_data',
        `invalid slug ${objectId} (try ${slugify(objectId)}) for dictionary value @ data['object_id']`,
      );
    }
    const entityId = `group.${objectId}`;
    const list = (key: string) => (Array.isArray(data[key]) ? (data[key] as string[]) : undefined);
    const group = this.groups.get(entityId);
    if (group === undefined) {
      this.groups.add(
        {
          objectId,
          name: typeof data.name === 'string' ? data.name : objectId,
          icon: typeof data.icon === 'string' ? data.icon : undefined,
          entityIds: list('entities') ?? list('add_entities') ?? [],
          all: data.all === true,
        },
        true,
      );
      return;
    }
    const add = list('add_entities');
    const remove = list('remove_entities');
    const entities = list('entities');
    if (add !== undefined) this.groups.setMembers(group, [...group.tracking, ...add]);
    if (remove !== undefined)
      this.groups.setMembers(
        group,
        group.tracking.filter((id) => !remove.includes(id)),
      );
    if (entities !== undefined) this.groups.setMembers(group, entities);
    if (typeof data.name === 'string') group.entity.setName(data.name);
    if (typeof data.icon === 'string') group.entity.setFixed({ ...group.entity.fixed, icon: data.icon });
    if (typeof data.all === 'boolean') group.all = data.all;
    this.groups.update(group);
  }

  async stop(): Promise<void> {
    const { core } = this.o;
    core.services.removeOwner(GROUP_OWNER);
    this.groups.clear(false);
    core.bus.removeOwner(GROUP_OWNER);
    core.entities.removeOwner(GROUP_OWNER);
  }
}

type GroupSections = { readonly group: SectionParser<GroupConfig[] | undefined>; readonly default_config: SectionParser<boolean> };

/**
 * `group:`: Home Assistant's old-style groups, with group.set, group.remove and group.reload; on with the section
 * (even empty) or `default_config:`. A broken group is left out alone.
 */
export const groupIntegration: Integration<GroupSections, GroupPart> = {
  name: GROUP_OWNER,
  sections: { group: optionalSection(parseGroupSection), default_config: parseDefaultConfig },
  itemOf: (path) => path.slice(0, 2),
  create: (ctx, { group, default_config }) =>
    group === undefined && !default_config
      ? undefined
      : new GroupPart({ core: ctx.core, log: ctx.log, groups: group ?? [], reloadConfig: ctx.reloadConfig }),
};
