import type { Context } from '../core/context.js';
import type { Core } from '../core/core.js';
import { domainOf, slugify } from '../core/entity-id.js';
import { HubError } from '../core/errors.js';
import type { JsonValue } from '../core/json.js';
import type { Logger } from '../core/log.js';
import { domainByName } from '../domains/index.js';
import { addScene, type SceneHandle, type ScenePlatform } from '../domains/scene.js';
import { isObjectId } from './config-values.js';
import type { SceneDefinition, SceneEntityState } from './model.js';
import { parseSceneEntities } from './parse-sections.js';

export const SCENE_OWNER = 'scene';

/** `scene.create` is client input: at most this many created scenes exist at once. */
export const MAX_DYNAMIC_SCENES = 256;

/**
 * Brings entities to their desired states through each domain's reproduceState, all with the caller's
 * context (so the changes show up in the REST answer). An entity that is missing, or whose domain cannot
 * reproduce states, is logged and skipped; every entity is tried before the first failure is thrown.
 */
export async function applyStates(core: Core, log: Logger, states: ReadonlyMap<string, SceneEntityState>, context: Context): Promise<void> {
  const work: Promise<void>[] = [];
  for (const [entityId, desired] of states) {
    const domain = domainByName(domainOf(entityId));
    if (!core.states.has(entityId)) {
      log.warn({ entity_id: entityId }, 'Unable to find entity %s', entityId);
    } else if (domain?.reproduceState === undefined) {
      log.warn(
        { entity_id: entityId },
        'Unable to reproduce state for %s: the %s domain does not support it',
        entityId,
        domainOf(entityId),
      );
    } else {
      work.push(domain.reproduceState(core, entityId, desired, context));
    }
  }
  const results = await Promise.allSettled(work);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
}

/** Scene entities as service data gives them; problems become a service error naming the key. */
export function sceneEntitiesFromData(value: JsonValue | undefined, key: string): Map<string, SceneEntityState> {
  const issues: { path: readonly (string | number)[]; message: string }[] = [];
  const states = parseSceneEntities(value, [key], issues);
  const first = issues[0];
  if (first !== undefined) {
    const where = first.path.map((p) => `[${JSON.stringify(p).replaceAll('"', "'")}]`).join('');
    throw new HubError('invalid_service_data', `${first.message} @ data${where}`);
  }
  return states;
}

class Scene implements ScenePlatform {
  private readonly handle: SceneHandle;

  constructor(
    private readonly set: SceneSet,
    private readonly def: SceneDefinition,
    readonly dynamic: boolean,
  ) {
    this.handle = addScene(set.core, {
      entityId: `scene.${def.objectId}`,
      owner: SCENE_OWNER,
      name: def.name,
      icon: def.icon,
      uniqueId: def.uniqueId,
      entityIds: [...def.entities.keys()],
      platform: this,
    });
    this.handle.report(null);
  }

  get entityId(): string {
    return this.handle.entity.id;
  }

  /** The state is written first (the activation time), then the entities are set, as Home Assistant does. */
  async activate(context: Context): Promise<void> {
    this.handle.report(this.set.core.clock.now(), context);
    await applyStates(this.set.core, this.set.log, this.def.entities, context);
  }

  remove(context: Context): void {
    this.set.forget(this);
    this.set.core.entities.remove(this.entityId, context);
  }
}

/** Configured scenes plus those made by `scene.create`; `scene.reload` replaces them all. */
export class SceneSet {
  private readonly items = new Map<string, Scene>();

  constructor(
    readonly core: Core,
    readonly log: Logger,
  ) {}

  start(definitions: readonly SceneDefinition[]): void {
    for (const def of definitions) {
      try {
        const scene = new Scene(this, def, false);
        this.items.set(scene.entityId, scene);
      } catch (err) {
        this.log.error({ err, scene: def.objectId }, `scene.${def.objectId} could not be set up`);
      }
    }
  }

  /** scene.create: a scene named by `scene_id`, replacing an earlier created one of that id. */
  create(sceneId: string, entities: ReadonlyMap<string, SceneEntityState>, snapshot: readonly string[], context: Context): void {
    if (!isObjectId(sceneId)) {
      throw new HubError('invalid_service_data', `invalid slug ${sceneId} (try ${slugify(sceneId)}) @ data['scene_id']`);
    }
    const overlap = snapshot.filter((id) => entities.has(id));
    if (overlap.length > 0) {
      throw new HubError('invalid_service_data', `entities and snapshot_entities must not overlap (${overlap.join(', ')})`);
    }
    const states = new Map(entities);
    for (const id of snapshot) {
      const state = this.core.states.get(id);
      if (state === undefined) {
        this.log.warn({ entity_id: id }, 'Entity %s does not exist and therefore cannot be snapshotted', id);
        continue;
      }
      states.set(id, { state: state.state, attributes: state.attributes });
    }
    const entityId = `scene.${sceneId}`;
    const old = this.items.get(entityId);
    if (old !== undefined && !old.dynamic) {
      this.log.warn({ entity_id: entityId }, 'The scene %s already exists', entityId);
      return;
    }
    if (old === undefined && this.dynamicCount() >= MAX_DYNAMIC_SCENES) {
      throw new HubError('service_validation', `Validation error: at most ${MAX_DYNAMIC_SCENES} scenes can be created; delete one first`);
    }
    old?.remove(context);
    const scene = new Scene(this, { objectId: sceneId, name: sceneId, entities: states }, true);
    this.items.set(scene.entityId, scene);
  }

  forget(scene: Scene): void {
    if (this.items.get(scene.entityId) === scene) this.items.delete(scene.entityId);
  }

  stop(): void {
    for (const scene of this.items.values()) this.core.entities.remove(scene.entityId);
    this.items.clear();
  }

  private dynamicCount(): number {
    let n = 0;
    for (const scene of this.items.values()) if (scene.dynamic) n++;
    return n;
  }
}
