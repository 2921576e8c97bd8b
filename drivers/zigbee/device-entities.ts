import type { Definition, Expose } from 'zigbee-herdsman-converters';
import type { Entity } from '../../src/core/entities.js';
import { HubError } from '../../src/core/errors.js';
import { isJsonObject } from '../../src/core/json.js';
import type { Logger } from '../../src/core/log.js';
import { ownValue, setOwn } from '../../src/core/own-keys.js';
import { templateText } from '../../src/util/log-bounds.js';
import { addOrRefuse } from '../common/add-or-refuse.js';
import type { BuiltEntity, DeviceState } from './built-entity.js';
import { parseZigbeeSection } from './config.js';
import { DeviceStateView } from './device-state.js';
import { buildEntity } from './entities.js';
import { type EntitySpec, LINKQUALITY_SPEC, mapExposes } from './exposes.js';
import { cachedMessages, convertFromZigbee } from './from-zigbee.js';
import { entityIdFor, entityName, firmwareOf } from './naming.js';
import { DeviceOta } from './ota.js';
import { type Converters, coordinatorEndpoint, loadConverters } from './runtime.js';
import { convertToZigbee } from './to-zigbee.js';
import type { DeviceEntities, DeviceEntitiesFactory, DeviceEntitiesHost, ZigbeeDevice, ZigbeeMessage } from './types.js';

/** The event a button or remote fires for each action (RWL021 `on_press`, `off_hold_release`). */
export const ZIGBEE_ACTION_EVENT = 'zigbee_action';

/** One paired device: its registry entry, its entities, its state, messages in and commands out. */
class ZigbeeDeviceEntities implements DeviceEntities {
  readonly ieee: string;
  readonly model: string | undefined;
  readonly vendor: string | undefined;
  readonly description: string | undefined;
  readonly supported: boolean;
  private readonly built: BuiltEntity[] = [];
  private readonly view: DeviceStateView;
  private readonly log: Logger;
  private deviceId = '';
  private ota: DeviceOta | undefined;
  private removed = false;
  private exposesPending = false;
  /** Messages are converted one after another, so states follow the radio's order even when converters await. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly host: DeviceEntitiesHost,
    private readonly device: ZigbeeDevice,
    private name: string,
    private readonly definition: Definition | undefined,
    private readonly zhc: Converters,
  ) {
    this.ieee = device.ieeeAddr;
    this.model = definition?.model;
    this.vendor = definition?.vendor;
    this.description = definition?.description;
    this.supported = definition !== undefined;
    this.log = host.ctx.log.child({ zigbee: this.ieee });
    this.view = new DeviceStateView((action, rest) => this.fireAction(action, rest));
  }

  private get state(): DeviceState {
    return this.view.state;
  }

  private get core() {
    return this.host.ctx.core;
  }

  /**
   * The converters' options (zigbee2mqtt's flat device options): the device's config entry with its `options:`
   * mapping (temperature_precision, simulated_brightness, ...) spread over it.
   */
  private options(): DeviceState {
    const entry = this.host.deviceOptions(this.ieee);
    return isJsonObject(entry.options) ? { ...entry, ...entry.options } : { ...entry };
  }

  init(): void {
    const { core, owner } = this.host.ctx;
    const d = this.device;
    const area = this.host.deviceOptions(this.ieee).area;
    const entry = core.devices.register({
      identifiers: [['zigbee', this.ieee]],
      name: this.name,
      owner,
      manufacturer: this.vendor ?? d.manufacturerName,
      model: this.definition ? `${this.definition.description} (${this.definition.model})` : d.modelID,
      sw_version: firmwareOf(d),
      hw_version: d.hardwareVersion === undefined ? undefined : String(d.hardwareVersion),
      via_device: this.host.coordinator,
      suggested_area: typeof area === 'string' && area.trim() !== '' ? area : undefined,
    });
    this.deviceId = entry.id;
    if (this.definition === undefined) {
      this.log.warn(
        `Zigbee device ${this.name} (${this.ieee}, model ${d.modelID ?? 'unknown'} by ${d.manufacturerName ?? 'unknown'}) is not supported by zigbee-herdsman-converters: only its link quality is shown`,
      );
    }
    this.syncEntities();
    if (this.definition?.ota) {
      const config = this.host.ota ?? parseZigbeeSection({}, ['zigbee'], []).ota;
      this.ota = new DeviceOta(this.host, d, this.definition, this.log, this.name, this.deviceId, config);
    }
    // Definitions set themselves up here (custom clusters, polling), as zigbee2mqtt's onEvent extension starts them.
    if (this.definition !== undefined) void this.onEvent('start');
    this.seedFromCache();
  }

  /** After a restart a sleepy sensor shows its last reading, from herdsman's cache, rather than unknown until it wakes. */
  private seedFromCache(): void {
    if (this.definition === undefined) return;
    for (const message of cachedMessages(this.device)) this.handleMessage(message, true);
  }

  /** The converters' device lifecycle hook (zhc.onEvent and the definition's own); failures are logged. */
  private async onEvent(type: 'start' | 'stop'): Promise<void> {
    const definition = this.definition;
    if (definition === undefined) return;
    const event =
      type === 'stop'
        ? { type, data: { ieeeAddr: this.ieee } }
        : { type, data: { device: this.device, deviceExposesChanged: this.exposesChanged, state: this.state, options: this.options() } };
    try {
      await this.zhc.onEvent(event);
      await definition.onEvent?.(event);
    } catch (err) {
      this.log.error(
        { err },
        `${templateText(`${definition.model} ${type} of ${this.name}`)} failed: %s`,
        err instanceof Error ? err.message : String(err),
      );
    }
  }

  /** The driver stops: the definition's timers and polls end (its entities go with the driver's owner key). */
  async stop(): Promise<void> {
    await this.onEvent('stop');
  }

  /** Makes the entities the exposes call for and removes those they no longer do (keys are stable, so ids stay). */
  private syncEntities(): void {
    const specs =
      this.definition === undefined ? [LINKQUALITY_SPEC] : mapExposes(this.exposes(this.definition), this.definition.model).specs;
    const wanted = new Set(specs.map((s) => s.key));
    for (const b of [...this.built]) {
      if (wanted.has(b.spec.key)) continue;
      this.core.entities.remove(b.entity.id);
      this.built.splice(this.built.indexOf(b), 1);
    }
    const have = new Set(this.built.map((b) => b.spec.key));
    for (const spec of specs) if (!have.has(spec.key)) this.addEntity(spec);
    this.view.index(this.built);
  }

  /** Converters call this when a device turns out to expose other things (its exposes depend on its state or options). */
  private readonly exposesChanged = (): void => {
    if (this.exposesPending) return;
    this.exposesPending = true;
    // After the converter that noticed has returned, so its payload lands on the new entities.
    setImmediate(() => {
      this.exposesPending = false;
      if (!this.removed) this.syncEntities();
    });
  };

  private exposes(definition: Definition): Expose[] {
    try {
      return typeof definition.exposes === 'function' ? definition.exposes(this.device, this.options()) : definition.exposes;
    } catch (err) {
      this.log.error({ err }, `the exposes of ${definition.model} could not be read for ${this.name}`);
      return [];
    }
  }

  private addEntity(spec: EntitySpec): void {
    const { core, owner } = this.host.ctx;
    // Two devices may share a name: the second one's entities get _2, _3 (Entities.add); a duplicate is refused.
    const entityId = entityIdFor(spec, this.name);
    const identity = { entityId, name: entityName(spec, this.name), uniqueId: `${this.ieee}_${spec.key}`, deviceId: this.deviceId, owner };
    const built = addOrRefuse({ core, log: this.log }, `entity ${entityId} of ${this.name}`, () =>
      buildEntity(core, identity, spec, { send: (message, endpoint) => this.send(message, endpoint) }),
    );
    if (built === undefined) return;
    this.built.push(built);
    // A restored state stays until the device says otherwise (a sleepy sensor may report once an hour).
    if (core.states.get(built.entity.id) === undefined) built.render(this.state);
  }

  handleMessage(message: ZigbeeMessage, cached = false): void {
    this.queue = this.queue
      .then(() => this.process(message, cached))
      .catch((err: unknown) => this.log.error({ err }, `message from ${this.name} could not be handled`));
  }

  private async process(message: ZigbeeMessage, cached: boolean): Promise<void> {
    if (this.removed) return;
    let payload: DeviceState = {};
    if (this.definition !== undefined) {
      payload = await convertFromZigbee(
        {
          zhc: this.zhc,
          definition: this.definition,
          options: this.options(),
          state: this.state,
          publishLater: (p) => this.apply(p),
          exposesChanged: this.exposesChanged,
          log: this.log,
          // A cached value a converter cannot read is no news: the device's next report will say.
          quiet: cached,
        },
        message,
      );
    }
    if (Number.isFinite(message.linkquality)) payload.linkquality = message.linkquality;
    // A remote's last press replayed from the cache is not a press.
    if (cached) delete payload.action;
    this.apply(payload);
  }

  private apply(payload: DeviceState): void {
    if (!this.removed) this.view.apply(payload);
  }

  private fireAction(action: string, rest: DeviceState): void {
    const data: Record<string, string | number | boolean | null> = { device_ieee: this.ieee, device_name: this.name, action };
    for (const [k, v] of Object.entries(rest)) {
      if (k.startsWith('action_') && (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v === null)) data[k] = v;
    }
    this.core.bus.fire(ZIGBEE_ACTION_EVENT, data, this.core.newContext());
  }

  /** A service call's command: toZigbee converters; the state follows the converters' answer (or at once when optimistic). */
  async send(message: Record<string, unknown>, endpoint: string | undefined): Promise<void> {
    const definition = this.definition;
    if (definition === undefined || this.removed) {
      throw new HubError(
        'not_supported',
        `Zigbee device ${this.name} (${this.ieee}) is not supported by the converters; it takes no commands`,
      );
    }
    // A feature of an endpoint has its property suffixed (`state_left`); the converters take the plain key on that endpoint.
    const suffix = endpoint === undefined ? undefined : `_${endpoint}`;
    const plain = Object.fromEntries(
      Object.entries(message).map(([k, v]) => [suffix && k.endsWith(suffix) ? k.slice(0, -suffix.length) : k, v]),
    );
    const options = this.options();
    const optimistic = options.optimistic === true;
    const before: DeviceState = {};
    if (optimistic) {
      // A device that never answers: show what was asked at once, and put it back if sending fails.
      const asked = Object.fromEntries(Object.entries(plain).map(([k, v]) => [suffix ? `${k}${suffix}` : k, v]));
      for (const k of Object.keys(asked)) setOwn(before, k, ownValue(this.state, k));
      this.apply(asked);
    }
    const outcome = await convertToZigbee(
      { definition, device: this.device, options, state: this.state, publish: (p) => this.apply(p), exposesChanged: this.exposesChanged },
      plain,
      endpoint,
    );
    this.apply(outcome.state);
    if (outcome.unsupported && outcome.unsupported.length > 0) {
      this.log.warn({}, `${templateText(`${this.name} (${definition.model})`)} takes no %s; skipped`, outcome.unsupported);
    }
    if (outcome.failure) {
      if (optimistic) this.apply(before);
      const reason = outcome.failure.error instanceof Error ? outcome.failure.error.message : String(outcome.failure.error);
      throw new HubError('hub_error', `Zigbee device ${this.name} (${this.ieee}) did not accept ${outcome.failure.key}: ${reason}`);
    }
  }

  /** A group command reached this endpoint: the state the group's converters returned (zigbee2mqtt's groupOptimistic). */
  groupCommanded(payload: DeviceState, endpointId: number): void {
    const map = this.definition?.meta?.multiEndpoint ? (this.definition.endpoint?.(this.device) ?? {}) : {};
    const name = Object.keys(map).find((n) => map[n] === endpointId);
    this.apply(name === undefined ? payload : Object.fromEntries(Object.entries(payload).map(([k, v]) => [`${k}_${name}`, v])));
  }

  setAvailable(available: boolean, refusal?: string): void {
    if (this.removed) return;
    this.view.setAvailable(available, refusal);
    this.ota?.setAvailable(available, refusal);
  }

  get checkOta(): DeviceEntities['checkOta'] {
    const ota = this.ota;
    if (ota === undefined) return undefined;
    return async () => {
      const result = await ota.check();
      const latest = result.available ? result.availableMeta?.fileVersion : result.current.fileVersion;
      return { installed: String(result.current.fileVersion), latest: latest === undefined ? null : String(latest) };
    };
  }

  get configurable(): boolean {
    return this.definition?.configure !== undefined;
  }

  get definitionVersion(): string | undefined {
    return this.definition?.version;
  }

  async configure(): Promise<void> {
    const definition = this.definition;
    if (definition?.configure === undefined || this.removed) return;
    const coordinator = await coordinatorEndpoint();
    if (coordinator === undefined) throw new Error('the coordinator has no endpoint');
    await definition.configure(this.device, coordinator, definition);
    this.log.info(`configured ${templateText(`${this.name} (${definition.model})`)}`);
  }

  rename(name: string): void {
    if (this.removed) return;
    this.name = name;
    this.core.devices.register({ identifiers: [['zigbee', this.ieee]], name, owner: this.host.ctx.owner });
    for (const b of this.built) b.entity.setName(entityName(b.spec, name));
    this.ota?.rename(name);
  }

  remove(): void {
    if (this.removed) return;
    void this.onEvent('stop');
    this.removed = true;
    this.ota?.remove();
    for (const b of this.built) this.core.entities.remove(b.entity.id);
    this.built.length = 0;
    this.view.index([]);
    this.core.devices.remove(this.deviceId);
  }

  /** For tests and the dashboard: the entities made for this device. */
  get entities(): readonly Entity[] {
    const entities = this.built.map((b) => b.entity);
    const update = this.ota === undefined ? undefined : this.core.entities.get(this.ota.entityId);
    return update === undefined ? entities : [...entities, update];
  }

  /** Resolves when every message handed over so far has been converted. */
  settled(): Promise<void> {
    return this.queue;
  }
}

/** Makes a paired device's entities from its converters definition; see DeviceEntitiesFactory. */
export const createDeviceEntities: DeviceEntitiesFactory = async (host, device, name) => {
  const zhc = await loadConverters();
  let definition: Definition | undefined;
  try {
    definition = await zhc.findByDevice(device);
  } catch (err) {
    host.ctx.log.error({ err, zigbee: device.ieeeAddr }, `no definition could be found for ${name}`);
  }
  const entities = new ZigbeeDeviceEntities(host, device, name, definition, zhc);
  entities.init();
  return entities;
};

export type { ZigbeeDeviceEntities };
