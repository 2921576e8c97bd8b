import type { Core } from '../core/core.js';
import type { Entity } from '../core/entities.js';
import { slugify } from '../core/entity-id.js';
import type { HubEvent } from '../core/event-bus.js';
import type { State } from '../core/state.js';
import type { DesiredState } from '../domains/domain.js';
import { addPerson, type PersonModel, type PersonSource, personAttributes } from '../domains/person.js';
import type { PersonConfig } from './config.js';

/** Tracker states that say nothing of where the person is (person/__init__.py IGNORE_STATES). */
const IGNORE_STATES: ReadonlySet<string> = new Set(['unknown', 'unavailable']);

interface LivePerson {
  readonly entity: Entity;
  readonly model: PersonModel;
  source: PersonSource | null;
}

function latest(prev: State | undefined, curr: State): State {
  return prev === undefined || curr.lastUpdatedUs > prev.lastUpdatedUs ? curr : prev;
}

/**
 * The `person:` entities, as Home Assistant's person integration decides their state (Person._update_state): of
 * the person's device trackers, the latest non-GPS one at home wins, else the latest GPS one, else the latest
 * non-GPS one away; without any, `unknown` (or the state from before the restart until a tracker reports).
 */
export class Persons {
  private readonly persons = new Map<string, LivePerson>();
  private readonly byTracker = new Map<string, Set<LivePerson>>();
  /** The YAML persons: their ids and entity ids (person.reload replaces only them). */
  private readonly yaml = new Map<string, string>();
  /** The persons made in the app: their id to their entity id. */
  private readonly stored = new Map<string, string>();
  private off: (() => void) | undefined;

  constructor(
    private readonly core: Core,
    private readonly owner: string,
  ) {}

  /** `person.<slug of the name>`, or with _2, _3... when that is taken. */
  private freeEntityId(name: string): string {
    const base = slugify(name) || 'person';
    let objectId = base;
    for (let n = 2; this.persons.has(`person.${objectId}`) || this.core.entities.get(`person.${objectId}`) !== undefined; n++)
      objectId = `${base}_${n}`;
    return `person.${objectId}`;
  }

  start(configs: readonly PersonConfig[]): void {
    for (const config of configs) {
      const entityId = this.freeEntityId(config.name);
      this.yaml.set(config.id, entityId);
      this.add(entityId, config, false);
    }
    this.off ??= this.core.bus.on(this.owner, 'state_changed', (event: HubEvent<'state_changed'>) => {
      const persons = this.byTracker.get(event.data.entity_id);
      if (persons !== undefined) for (const p of persons) this.update(p);
    });
  }

  /** person.reload: the YAML persons again; those made in the app stay. */
  reloadYaml(configs: readonly PersonConfig[]): void {
    for (const entityId of this.yaml.values()) this.removePerson(entityId);
    this.yaml.clear();
    this.start(configs);
  }

  /** The ids the YAML persons hold, and the users they are. */
  yamlIds(): ReadonlySet<string> {
    return new Set(this.yaml.keys());
  }

  yamlUsers(): string[] {
    return [...this.yaml.values()].flatMap((e) => this.persons.get(e)?.model.userId ?? []);
  }

  addStored(config: PersonConfig): void {
    const entityId = this.freeEntityId(config.name);
    this.stored.set(config.id, entityId);
    this.add(entityId, config, true);
  }

  /** New settings of a person made in the app: the same entity id, its trackers followed anew. */
  updateStored(config: PersonConfig): void {
    const entityId = this.stored.get(config.id);
    if (entityId === undefined) return;
    this.removePerson(entityId);
    this.add(entityId, config, true);
  }

  removeStored(id: string): void {
    const entityId = this.stored.get(id);
    if (entityId === undefined) return;
    this.stored.delete(id);
    this.removePerson(entityId);
  }

  private removePerson(entityId: string): void {
    const p = this.persons.get(entityId);
    if (p === undefined) return;
    this.persons.delete(entityId);
    for (const [tracker, set] of this.byTracker) {
      set.delete(p);
      if (set.size === 0) this.byTracker.delete(tracker);
    }
    this.core.entities.remove(entityId);
  }

  private add(entityId: string, config: PersonConfig, editable: boolean): void {
    const model: PersonModel = {
      id: config.id,
      editable,
      deviceTrackers: config.deviceTrackers,
      userId: config.userId,
      picture: config.picture,
    };
    const restoreState = (stored: DesiredState): void => {
      const p = this.persons.get(entityId);
      if (p === undefined || p.source !== null || IGNORE_STATES.has(stored.state)) return;
      const a = stored.attributes;
      this.write(p, {
        state: stored.state,
        source: typeof a.source === 'string' ? a.source : undefined,
        latitude: a.latitude,
        longitude: a.longitude,
        gpsAccuracy: a.gps_accuracy,
      });
    };
    const entity = addPerson(this.core, {
      entityId,
      owner: this.owner,
      name: config.name,
      uniqueId: config.id,
      picture: config.picture,
      platform: { restoreState },
    });
    const person: LivePerson = { entity, model, source: null };
    this.persons.set(entityId, person);
    for (const tracker of config.deviceTrackers) {
      const set = this.byTracker.get(tracker) ?? new Set<LivePerson>();
      set.add(person);
      this.byTracker.set(tracker, set);
    }
    this.update(person);
  }

  /** Every device tracker the persons follow. */
  trackers(): IterableIterator<string> {
    return this.byTracker.keys();
  }

  private update(p: LivePerson): void {
    let home: State | undefined;
    let away: State | undefined;
    let gps: State | undefined;
    for (const id of p.model.deviceTrackers) {
      const state = this.core.states.get(id);
      if (state === undefined || IGNORE_STATES.has(state.state)) continue;
      if (state.attributes.source_type === 'gps') gps = latest(gps, state);
      else if (state.state === 'home') home = latest(home, state);
      else if (state.state === 'not_home') away = latest(away, state);
    }
    const decides = home ?? gps ?? away;
    if (decides === undefined) {
      // Nothing known yet: a restored state stays until a tracker reports.
      if (p.source === null) p.entity.report(null, personAttributes(p.model, null));
      return;
    }
    const a = decides.attributes;
    this.write(p, {
      state: decides.state,
      source: decides.entity_id,
      latitude: a.latitude,
      longitude: a.longitude,
      gpsAccuracy: a.gps_accuracy,
    });
  }

  private write(p: LivePerson, source: PersonSource): void {
    p.source = source;
    p.entity.report(source.state, personAttributes(p.model, source));
  }

  stop(): void {
    this.off?.();
    this.off = undefined;
    for (const id of this.persons.keys()) this.core.entities.remove(id);
    this.persons.clear();
    this.byTracker.clear();
    this.yaml.clear();
    this.stored.clear();
  }
}
