import type { Core } from '../core/core.js';
import { slugify } from '../core/entity-id.js';
import type { HubEvent } from '../core/event-bus.js';
import type { State } from '../core/state.js';
import { addZone, DEFAULT_ZONE_RADIUS, ZONE_HOME, type ZoneHandle, type ZoneModel } from '../domains/zone.js';

/** The hub's location as Home Assistant's home zone (zone/__init__.py _home_conf). */
export function homeZone(hub: { readonly name: string; readonly latitude: number; readonly longitude: number }): ZoneModel {
  return {
    name: hub.name,
    latitude: hub.latitude,
    longitude: hub.longitude,
    radius: DEFAULT_ZONE_RADIUS,
    icon: 'mdi:home',
    passive: false,
  };
}

/**
 * The zones: zone.home from the hub's location (unless a YAML zone is named Home, as in Home Assistant, where
 * zone.home is made only when no zone took that id), and the YAML ones, `zone.<slug of the name>`. A zone's state is
 * how many persons are in it: those whose state is its name (`home` for zone.home), Zone._state_is_in_zone.
 */
export class Zones {
  private readonly zones = new Map<string, ZoneHandle>();
  /** The zones made in the app: their item id to their entity id (a zone.reload leaves them alone). */
  private readonly stored = new Map<string, string>();
  private off: (() => void) | undefined;
  /** The hub's home zone as last made (zone.home unless a YAML zone took its id). */
  private home: ZoneModel | undefined;

  constructor(
    private readonly core: Core,
    private readonly owner: string,
  ) {}

  /** `zone.<slug>`, or with _2, _3... when that is taken. */
  private freeEntityId(name: string): string {
    const base = slugify(name) || 'zone';
    let objectId = base;
    for (let n = 2; this.zones.has(`zone.${objectId}`) || this.core.entities.get(`zone.${objectId}`) !== undefined; n++)
      objectId = `${base}_${n}`;
    return `zone.${objectId}`;
  }

  start(home: ZoneModel, yaml: readonly ZoneModel[]): void {
    for (const model of yaml) {
      const entityId = this.freeEntityId(model.name);
      this.zones.set(entityId, addZone(this.core, { entityId, owner: this.owner, model, editable: false }));
    }
    if (!this.zones.has(ZONE_HOME) && this.core.entities.get(ZONE_HOME) === undefined) {
      this.zones.set(ZONE_HOME, addZone(this.core, { entityId: ZONE_HOME, owner: this.owner, model: home, editable: true }));
      this.home = home;
    }
    this.recount();
    this.off ??= this.core.bus.on(this.owner, 'state_changed', (event: HubEvent<'state_changed'>) => {
      if (event.data.entity_id.startsWith('person.')) this.recount();
    });
  }

  private isIn(entityId: string, zone: ZoneHandle, person: State): boolean {
    const s = person.state;
    if (s === 'not_home' || s === 'unknown' || s === 'unavailable') return false;
    return s.toLowerCase() === zone.model.name.toLowerCase() || (s === 'home' && entityId === ZONE_HOME);
  }

  /** Counts the persons in each zone again and writes the zones whose count changed (and at start all). */
  private recount(): void {
    const persons = [...this.core.entities.ofDomain('person')]
      .map((e) => this.core.states.get(e.id))
      .filter((s): s is State => s !== undefined);
    for (const [entityId, zone] of this.zones) {
      const inside = persons
        .filter((p) => this.isIn(entityId, zone, p))
        .map((p) => p.entity_id)
        .sort();
      const current = this.core.states.get(entityId)?.attributes.persons;
      if (Array.isArray(current) && current.length === inside.length && current.every((id, i) => id === inside[i])) continue;
      zone.report(inside);
    }
  }

  /** A zone made in the app (editable), `zone.<slug of its id>` as Home Assistant names it at creation. */
  addStored(id: string, model: ZoneModel): void {
    const entityId = this.freeEntityId(id);
    this.zones.set(entityId, addZone(this.core, { entityId, owner: this.owner, model, editable: true, uniqueId: id }));
    this.stored.set(id, entityId);
    this.recount();
  }

  /** New settings of a zone made in the app: the same entity, its name and circle changed. */
  updateStored(id: string, model: ZoneModel): void {
    const zone = this.zones.get(this.stored.get(id) ?? '');
    if (zone === undefined) return;
    zone.update(model);
    const persons = this.core.states.get(zone.entity.id)?.attributes.persons;
    zone.report(Array.isArray(persons) ? persons.filter((p): p is string => typeof p === 'string') : []);
    this.recount();
  }

  removeStored(id: string): void {
    const entityId = this.stored.get(id);
    if (entityId === undefined) return;
    this.stored.delete(id);
    this.zones.delete(entityId);
    this.core.entities.remove(entityId);
  }

  /** zone.reload: the YAML zones again; the hub's own zone.home and the zones made in the app stay as they are (HA reloads with skip_reset). */
  reload(home: ZoneModel, yaml: readonly ZoneModel[]): void {
    const own = this.zones.get(ZONE_HOME);
    const keepHome = own !== undefined && own.model === this.home && !yaml.some((z) => slugify(z.name) === 'home');
    const storedIds = new Set(this.stored.values());
    for (const id of [...this.zones.keys()]) {
      if ((keepHome && id === ZONE_HOME) || storedIds.has(id)) continue;
      this.core.entities.remove(id);
      this.zones.delete(id);
    }
    this.start(home, yaml);
  }

  stop(): void {
    this.off?.();
    this.off = undefined;
    for (const id of this.zones.keys()) this.core.entities.remove(id);
    this.zones.clear();
    this.stored.clear();
  }
}
