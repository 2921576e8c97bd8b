import { join } from 'node:path';
import type { HubConfig } from '../config/types.js';
import type { Component } from '../core/component.js';
import { createContext } from '../core/context.js';
import type { Core } from '../core/core.js';
import type { RegistryAction } from '../core/event-bus.js';
import type { JsonValue } from '../core/json.js';
import type { Logger } from '../core/log.js';
import type { TargetSelector } from '../core/targets.js';
import { boundList } from '../util/log-bounds.js';
import { AreaRegistry } from './area-registry.js';
import { type RegistryConfig, readRegistryConfig } from './config.js';
import { DeviceRegistryView } from './device-registry.js';
import { EntityRegistry } from './entity-registry.js';
import { FloorRegistry } from './floor-registry.js';
import { LabelRegistry } from './label-registry.js';
import { RegistryFile, type WriteFile } from './store.js';
import { expandTarget } from './target-expansion.js';

/** The owner key of the registries' event listeners. */
const OWNER = 'registries';

export interface RegistriesOptions {
  readonly core: Core;
  /** The hub's data directory; the registries live in `<dataDir>/registry/<name>.json`. */
  readonly dataDir: string;
  /** The configuration's sections: `areas:`, `floors:`, `labels:` and `customize:` are read. */
  readonly sections: HubConfig['sections'];
  readonly log: Logger;
  /** How long a change waits before it is written (default 1 s); tests shorten it. */
  readonly saveDelayMs?: number;
  /** Replaces the atomic file write (tests count writes). */
  readonly writeFile?: WriteFile;
}

/**
 * The area, floor, label, entity and device registries of one hub, their files, and their hooks into the
 * core: Entities.add consults the entity registry (ids, names, disabled), drivers' devices get their
 * stored user settings, and service targets expand device_id/area_id/floor_id/label_id to entities.
 *
 * A component: started after the core exists and before drivers (their entities and devices get their stored
 * settings), stopped after drivers (writes what is pending).
 */
export class Registries implements Component {
  readonly name = 'registries';
  readonly floors: FloorRegistry;
  readonly labels: LabelRegistry;
  readonly areas: AreaRegistry;
  readonly entities: EntityRegistry;
  readonly devices: DeviceRegistryView;
  private readonly files: RegistryFile[] = [];
  private readonly core: Core;
  private readonly log: Logger;

  constructor(private readonly options: RegistriesOptions) {
    const { core } = options;
    this.core = core;
    this.log = options.log;
    const dir = join(options.dataDir, 'registry');
    const store = { dir, log: options.log, saveDelayMs: options.saveDelayMs, writeFile: options.writeFile };
    const file = (name: string, serialize: () => JsonValue[]): (() => void) => {
      const f = new RegistryFile(name, serialize, store);
      this.files.push(f);
      return () => f.schedule();
    };
    const context = () => createContext(core.clock.now());
    // Clearing what referred to a deleted item follows its remove event, as in Home Assistant.
    const fireFloor = (action: RegistryAction, id: string) => {
      core.bus.fire('floor_registry_updated', { action, floor_id: id }, context());
      if (action === 'remove') this.floorRemoved(id);
    };
    const fireLabel = (action: RegistryAction, id: string) => {
      core.bus.fire('label_registry_updated', { action, label_id: id }, context());
      if (action === 'remove') this.labelRemoved(id);
    };
    const fireArea = (action: RegistryAction, id: string) => {
      core.bus.fire('area_registry_updated', { action, area_id: id }, context());
      if (action === 'remove') this.areaRemoved(id);
    };
    const base = { clock: core.clock, log: options.log };
    this.floors = new FloorRegistry({ ...base, fire: fireFloor, changed: file('floors', () => this.floors.serialize()) });
    this.labels = new LabelRegistry({ ...base, fire: fireLabel, changed: file('labels', () => this.labels.serialize()) });
    this.areas = new AreaRegistry(
      { ...base, fire: fireArea, changed: file('areas', () => this.areas.serialize()) },
      { hasFloor: (id) => this.floors.has(id), hasLabel: (id) => this.labels.has(id) },
    );
    this.entities = new EntityRegistry({
      core,
      log: options.log,
      hasArea: (id) => this.areas.has(id),
      hasLabel: (id) => this.labels.has(id),
      findArea: (x) => this.areas.find(x),
      findLabel: (x) => this.labels.find(x),
      changed: file('entities', () => this.entities.serialize()),
    });
    this.devices = new DeviceRegistryView({
      core,
      log: options.log,
      hasArea: (id) => this.areas.has(id),
      hasLabel: (id) => this.labels.has(id),
      areaFor: (x) => this.areaFor(x),
      deviceDisabled: (id, disabled) => this.entities.deviceDisabled(id, disabled),
      changed: file('devices', () => this.devices.serialize()),
    });
  }

  /** Creates and starts the registries (tools and tests; the hub lists them as a component). */
  static async start(options: RegistriesOptions): Promise<Registries> {
    const registries = new Registries(options);
    await registries.start();
    return registries;
  }

  /** Loads the stored registries, applies the configuration file's items and attaches to the core. */
  async start(): Promise<void> {
    await this.load();
    this.applyConfig(readRegistryConfig(this.options.sections));
    this.attach();
  }

  /**
   * Hooks into the core: the entity registry into Entities.add, stored device settings into device
   * registration (and a listener that remembers devices as they change), target expansion into the
   * service registry. Entities added before this have no registry entry.
   */
  attach(): void {
    const { core } = this;
    core.entities.setRegistry(this.entities);
    core.devices.setHooks(this.devices);
    core.services.setTargetExpander((selector) => this.expandTarget(selector));
    core.bus.on(OWNER, 'device_registry_updated', (event) => {
      if (event.data.action !== 'remove') this.devices.remember(event.data.device_id);
    });
  }

  /** The entity ids a service target's device_id/area_id/floor_id/label_id select; logs missing references. */
  expandTarget(selector: TargetSelector): Set<string> {
    const { core } = this;
    const result = expandTarget(selector, {
      entityEntries: () => this.entities.entries(),
      devices: () => core.devices.all(),
      areas: () => this.areas.entries(),
      hasDevice: (id) => core.devices.get(id) !== undefined,
      hasArea: (id) => this.areas.has(id),
      hasFloor: (id) => this.floors.has(id),
      hasLabel: (id) => this.labels.has(id),
    });
    const m = result.missing;
    const parts = [
      m.floors.length > 0 ? `floors ${boundList(m.floors)}` : '',
      m.areas.length > 0 ? `areas ${boundList(m.areas)}` : '',
      m.devices.length > 0 ? `devices ${boundList(m.devices)}` : '',
      m.labels.length > 0 ? `labels ${boundList(m.labels)}` : '',
    ].filter((p) => p !== '');
    if (parts.length > 0) this.log.warn({ missing: m }, 'Referenced %s are missing or not currently available', parts.join(', '));
    return result.entityIds;
  }

  /** True while a write is scheduled (tests: a state change must never schedule one). */
  get savePending(): boolean {
    return this.files.some((f) => f.pending);
  }

  /** Writes whatever is pending now. */
  async flush(): Promise<void> {
    await Promise.all(this.files.map((f) => f.flush()));
  }

  /** Detaches from the core and writes what is pending. Call after the drivers stopped. */
  async stop(): Promise<void> {
    const { core } = this;
    core.bus.removeOwner(OWNER);
    core.entities.setRegistry(undefined);
    core.devices.setHooks(undefined);
    core.services.setTargetExpander(() => []);
    await this.flush();
  }

  private async load(): Promise<void> {
    const [floors, labels, areas, entities, devices] = await Promise.all(this.files.map((f) => f.load()));
    this.floors.load(floors ?? []);
    this.labels.load(labels ?? []);
    this.areas.load(areas ?? []);
    this.entities.load(entities ?? []);
    this.devices.load(devices ?? []);
  }

  /** The configuration file's floors, labels and areas (in that order: areas refer to both), and customize. */
  private applyConfig(config: RegistryConfig): void {
    this.floors.applyConfig(config.floors.map(({ id, ...fields }) => ({ id, fields })));
    this.labels.applyConfig(config.labels.map(({ id, ...fields }) => ({ id, fields })));
    this.areas.applyConfig(
      config.areas.map(({ id, floor, labels, ...rest }) => {
        const fields: { -readonly [K in keyof typeof rest]: (typeof rest)[K] } & { floor_id?: string; labels?: string[] } = { ...rest };
        if (floor !== undefined) {
          const floorId = this.floors.find(floor);
          if (floorId === undefined)
            this.log.warn({ area: rest.name, floor }, `areas: ${rest.name}: no floor ${floor}; the area is on no floor`);
          else fields.floor_id = floorId;
        }
        if (labels !== undefined) fields.labels = this.labelIds(labels, `areas: ${rest.name}`);
        return { id, fields };
      }),
    );
    this.entities.setCustomization(config.customize);
  }

  private floorRemoved(floorId: string): void {
    for (const area of [...this.areas.onFloor(floorId)]) this.areas.patch(area.id, { floor_id: null });
  }

  private labelRemoved(labelId: string): void {
    for (const area of [...this.areas.entries()]) {
      if (area.labels.includes(labelId)) this.areas.patch(area.id, { labels: area.labels.filter((l) => l !== labelId) });
    }
    this.devices.clearLabel(labelId);
    this.entities.clearLabel(labelId);
  }

  private areaRemoved(areaId: string): void {
    this.devices.clearArea(areaId);
    this.entities.clearArea(areaId);
  }

  private labelIds(names: readonly string[], where: string): string[] {
    const out: string[] = [];
    for (const name of names) {
      const id = this.labels.find(name);
      if (id === undefined) this.log.warn({ label: name }, `${where}: no label ${name}; not assigned`);
      else if (!out.includes(id)) out.push(id);
    }
    return out;
  }

  /** A driver's suggested area: found by id or name, else created. */
  private areaFor(idOrName: string): string | null {
    const found = this.areas.find(idOrName);
    if (found !== undefined) return found;
    try {
      return this.areas.create({ name: idOrName }).area_id as string;
    } catch (err) {
      this.log.warn({ err, area: idOrName }, `could not create the suggested area ${idOrName}`);
      return null;
    }
  }
}
