import { isoFromMicros, type Micros } from '../core/clock.js';
import type { Context } from '../core/context.js';
import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import { HubError } from '../core/errors.js';
import type { JsonValue } from '../core/json.js';
import { DOMAIN_OWNER, type Domain, platformOf } from './domain.js';

/** What the scene engine implements for each scene entity. */
export interface ScenePlatform {
  /** Brings every entity of the scene to its state, with the call's context. */
  activate(context: Context, transition: number | undefined): Promise<void>;
  /** True for scenes made by `scene.create`; only those can be deleted. */
  readonly dynamic: boolean;
  remove(context: Context): void;
}

export interface SceneOptions extends Omit<EntityInit<ScenePlatform>, 'fixed' | 'name'> {
  readonly name: string;
  readonly icon?: string;
  /** The entities the scene sets (the `entity_id` attribute). */
  readonly entityIds: readonly string[];
}

export interface SceneHandle {
  readonly entity: Entity<ScenePlatform>;
  /** The state is the time of the last activation, or `unknown` before the first. */
  report(lastActivatedUs: Micros | null, context?: Context): void;
}

/** Attributes in Home Assistant's order: entity_id, id, icon, then friendly_name. */
export function addScene(core: Core, options: SceneOptions): SceneHandle {
  const { name, icon, entityIds, ...init } = options;
  const fixed: Record<string, JsonValue> = { entity_id: [...entityIds] };
  if (init.uniqueId !== undefined) fixed.id = init.uniqueId;
  if (icon !== undefined) fixed.icon = icon;
  fixed.friendly_name = name;
  const entity = core.entities.add({ ...init, fixed });
  return {
    entity,
    report(lastActivatedUs, context) {
      entity.report(lastActivatedUs === null ? null : isoFromMicros(lastActivatedUs), undefined, context);
    },
  };
}

const platform = (e: Entity) => platformOf<ScenePlatform>(e, 'scene');

export const sceneDomain: Domain = {
  name: 'scene',
  registerServices(core: Core): void {
    core.services.register(DOMAIN_OWNER, {
      domain: 'scene',
      service: 'turn_on',
      name: 'Activate',
      description: 'Activates a scene.',
      schema: {
        fields: {
          transition: {
            kind: 'number',
            min: 0,
            max: 300,
            unit: 'seconds',
            description: 'Time it takes the devices to transition into the states defined in the scene.',
          },
        },
      },
      entity: (e, data, call) => platform(e).activate(call.context, typeof data.transition === 'number' ? data.transition : undefined),
    });
    core.services.register(DOMAIN_OWNER, {
      domain: 'scene',
      service: 'delete',
      name: 'Delete',
      description: 'Deletes a dynamically created scene.',
      schema: { fields: { entity_id: { kind: 'entities', domain: ['scene'], required: true, description: 'The scenes to delete.' } } },
      handler(call) {
        const ids = call.target.entity_id ?? [];
        // Check every id first, so a bad one deletes nothing.
        const entities = ids.map((id) => {
          const entity = core.entities.get(id);
          if (entity === undefined || entity.domain !== 'scene' || !platform(entity).dynamic) {
            throw new HubError('service_validation', `${id} is not a valid scene entity_id`);
          }
          return entity;
        });
        for (const entity of entities) platform(entity).remove(call.context);
      },
    });
  },
};
