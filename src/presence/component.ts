import type { HubConfig } from '../config/types.js';
import type { Component } from '../core/component.js';
import type { Core } from '../core/core.js';
import type { Logger } from '../core/log.js';
import type { ZoneModel } from '../domains/zone.js';
import type { LastState } from '../integration/integration.js';
import { reloadSections } from '../integration/reload.js';
import type { PersonConfig } from './config.js';
import { type IgnoredTracker, parsePersonSection, parseZoneSection } from './config.js';
import { Persons } from './persons.js';
import { StoredCollection } from './store.js';
import { personKind, zoneKind } from './stored-kinds.js';
import { Trackers } from './trackers.js';
import { homeZone, Zones } from './zones.js';

export const PRESENCE_OWNER = 'presence';

export interface PresenceOptions {
  readonly core: Core;
  readonly log: Logger;
  readonly hub: { readonly name: string; readonly latitude: number; readonly longitude: number };
  readonly zones: readonly ZoneModel[];
  readonly persons: readonly PersonConfig[];
  readonly ignoredTrackers: readonly IgnoredTracker[];
  readonly lastState: (entityId: string) => LastState | undefined;
  readonly reloadConfig: () => Promise<HubConfig>;
  /** Where `.storage/zone` and `.storage/person` (the zones and persons made in the app) are kept. */
  readonly dataDir: string;
}

/**
 * Zones, persons and device trackers, as Home Assistant's zone, person and device_tracker integrations: zone.home
 * from the hub's location and the YAML zones, the persons following their trackers, `device_tracker.see`, and
 * `zone.reload` and `person.reload`, each re-reading only its section (a broken zone or person is left out alone).
 */
export class Presence implements Component {
  readonly name = 'presence';
  readonly owner = PRESENCE_OWNER;
  readonly optional = true;
  private readonly zones: Zones;
  private readonly persons: Persons;
  private readonly trackers: Trackers;
  private readonly storedZones: StoredCollection<ZoneModel>;
  private readonly storedPersons: StoredCollection<PersonConfig>;

  constructor(private readonly o: PresenceOptions) {
    this.zones = new Zones(o.core, PRESENCE_OWNER);
    this.persons = new Persons(o.core, PRESENCE_OWNER);
    this.trackers = new Trackers(o.core, PRESENCE_OWNER);
    this.storedZones = new StoredCollection(zoneKind(this.zones), { dataDir: o.dataDir, log: o.log });
    const restoreTrackers = (ids: readonly string[]) => this.trackers.restore(ids, o.lastState);
    this.storedPersons = new StoredCollection(personKind(this.persons, restoreTrackers), { dataDir: o.dataDir, log: o.log });
  }

  /** The zones or persons made in the app, as the WebSocket's `zone/*` and `person/*` commands change them. */
  collection(domain: 'zone' | 'person'): StoredCollection<ZoneModel> | StoredCollection<PersonConfig> {
    return domain === 'zone' ? this.storedZones : this.storedPersons;
  }

  async start(): Promise<void> {
    const { core, log } = this.o;
    for (const t of this.o.ignoredTrackers) {
      log.warn(
        { platform: t.platform },
        'device_tracker[%s] (platform: %s) is ignored: hearth has no %s integration',
        String(t.index),
        t.platform,
        t.platform,
      );
    }
    this.zones.start(homeZone(this.o.hub), this.o.zones);
    await this.storedZones.load();
    // Trackers the persons follow come back with their last state before the persons decide.
    this.trackers.restore(new Set(this.o.persons.flatMap((p) => p.deviceTrackers)), this.o.lastState);
    this.persons.start(this.o.persons);
    await this.storedPersons.load();
    const register = core.services.register.bind(core.services, PRESENCE_OWNER);
    register({
      domain: 'device_tracker',
      service: 'see',
      name: 'See',
      description: 'Manually update the records of a seen legacy device tracker in the entity registry.',
      schema: { fields: Trackers.fields, atLeastOne: ['mac', 'dev_id'] },
      handler: (call) => this.trackers.see(call.data, call.context),
    });
    register({
      domain: 'zone',
      service: 'reload',
      name: 'Reload',
      description: 'Reloads zones from the YAML-configuration.',
      schema: { fields: {} },
      handler: async () => {
        const { zone } = await reloadSections({ ...this.reloadSpec('zone'), sections: { zone: parseZoneSection } });
        this.zones.reload(homeZone(this.o.hub), zone);
      },
    });
    register({
      domain: 'person',
      service: 'reload',
      name: 'Reload',
      description: 'Reloads persons from the YAML-configuration.',
      schema: { fields: {} },
      handler: async () => {
        const { person } = await reloadSections({ ...this.reloadSpec('person'), sections: { person: parsePersonSection } });
        this.persons.reloadYaml(person);
      },
    });
  }

  private reloadSpec(domain: string) {
    return {
      domain,
      itemOf: (path: readonly (string | number)[]) => path.slice(0, 2),
      reloadConfig: this.o.reloadConfig,
      core: this.o.core,
      log: this.o.log,
    };
  }

  async stop(): Promise<void> {
    const { core } = this.o;
    core.services.removeOwner(PRESENCE_OWNER);
    await Promise.all([this.storedZones.stop(), this.storedPersons.stop()]);
    this.persons.stop();
    this.zones.stop();
    this.trackers.stop();
    core.bus.removeOwner(PRESENCE_OWNER);
    core.entities.removeOwner(PRESENCE_OWNER);
  }
}
