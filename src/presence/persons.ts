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
  private off: (() => void) | undefined;

  constructor(
    private readonly core: Core,
    private readonly owner: string,
  ) {}

  start(configs: readonly PersonConfig[]): void {
    const taken = new Set<string>();
    for (const config of configs) {
      const base = slugify(config.name) || 'person';
      let objectId = base;
      for (let n = 2; taken.has(objectId) || this.core.entities.get(`person.${objectId}`) !== undefined; n++) objectId = `${base}_${n}`;
      taken.add(objectId);
      this.add(`person.${objectId}`, config);
    }
    this.off ??= this.core.bus.on(this.owner, 'state_changed', (event: HubEvent<'state_changed'>) => {
      const persons = this.byTracker.get(event.data.entity_id);
      if (persons !== undefined) for (const p of persons) this.update(p);
    });
  }

  private add(entityId: string, config: PersonConfig): void {
    const model: PersonModel = {
      id: config.id,
      editable: false,
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
  }
}
