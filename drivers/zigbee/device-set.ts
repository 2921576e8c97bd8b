import type { Controller } from 'zigbee-herdsman';
import type { JsonObject } from '../../src/core/json.js';
import { type ConfigureOutcome, Configurer } from './configurer.js';
import type { ZigbeeHost } from './host.js';
import type { DeviceEntities, DeviceEntitiesFactory, DeviceEntitiesHost, ZigbeeDevice, ZigbeeMessage } from './types.js';

type InterviewStatus = 'started' | 'successful' | 'failed';

/** herdsman's power source text ("Mains (single phase)", "Battery", "DC Source") as mains or not. */
export function isMains(device: ZigbeeDevice): boolean {
  if (device.type === 'Router') return true;
  const source = device.powerSource ?? '';
  return /mains|dc source/i.test(source);
}

/**
 * The paired devices' entities: made by the factory for each interviewed device (at start and after a pairing),
 * fed their messages, removed when the device leaves, and the network's events on the bus.
 */
export class DeviceSet {
  private readonly entities = new Map<string, DeviceEntities>();
  private readonly making = new Map<string, Promise<DeviceEntities | undefined>>();
  private readonly configurer: Configurer;

  constructor(
    private readonly driver: ZigbeeHost,
    private readonly factory: DeviceEntitiesFactory,
    private readonly host: DeviceEntitiesHost,
  ) {
    this.configurer = new Configurer({
      clock: driver.ctx.core.clock,
      scheduler: driver.scheduler,
      log: driver.ctx.log,
      nameOf: (ieee) => this.nameOf(ieee),
    });
  }

  get(ieee: string): DeviceEntities | undefined {
    return this.entities.get(ieee);
  }

  /** The name a device goes by: the config's friendly_name, else a rename or import, else its IEEE address (as zigbee2mqtt). */
  nameOf(ieee: string): string {
    const configured = this.driver.config.devices.get(ieee)?.friendly_name;
    if (typeof configured === 'string' && configured.trim() !== '') return configured;
    return this.driver.names.get(ieee) ?? ieee;
  }

  /** After a start: every device herdsman knows, its entities made (once; they survive adapter reconnects). */
  async loadFrom(controller: Controller): Promise<void> {
    const made: Promise<unknown>[] = [];
    for (const device of controller.getDevicesIterator((d) => d.type !== 'Coordinator')) {
      this.driver.availability.track(device.ieeeAddr, isMains(device), device.lastSeen);
      if (device.interviewState === 'SUCCESSFUL') made.push(this.ensure(device));
    }
    await Promise.all(made);
    for (const [ieee, entities] of this.entities) entities.setAvailable(this.driver.availability.isAvailable(ieee));
    // Routers that never finished their configure (zigbee2mqtt does this at start); sleepy devices on their next message.
    for (const device of controller.getDevicesIterator((d) => d.type === 'Router')) void this.configureSoon(device);
  }

  /** Configures the device if it still needs it (after a failure, only once the backoff allows). */
  configureSoon(device: ZigbeeDevice): Promise<ConfigureOutcome> {
    const entities = this.entities.get(device.ieeeAddr);
    if (entities === undefined) return Promise.resolve('not_needed');
    return this.configurer.run(device, entities);
  }

  /** `zigbee.reconfigure_device`: runs configure now, whatever was tried before; throws its failure. */
  async configure(device: ZigbeeDevice): Promise<void> {
    const entities = this.entities.get(device.ieeeAddr);
    if (entities === undefined) throw new Error('the device has not finished its interview');
    await this.configurer.run(device, entities, true);
  }

  joined(device: ZigbeeDevice): void {
    this.configurer.reset(device);
    this.driver.availability.track(device.ieeeAddr, isMains(device), undefined);
    this.driver.availability.seen(device.ieeeAddr);
    this.fire('zigbee_device_joined', device, { network_address: device.networkAddress });
  }

  interviewed(device: ZigbeeDevice, status: InterviewStatus): void {
    this.driver.availability.track(device.ieeeAddr, isMains(device), undefined);
    if (status !== 'successful') {
      this.fire('zigbee_device_interviewed', device, { status });
      return;
    }
    void this.ensure(device).then(async (entities) => {
      this.fire('zigbee_device_interviewed', device, {
        status,
        supported: entities?.supported ?? false,
        description: entities?.description ?? null,
      });
      await this.configureSoon(device);
    });
  }

  message(message: ZigbeeMessage): void {
    const ieee = message.device.ieeeAddr;
    this.driver.availability.seen(ieee);
    const entities = this.entities.get(ieee);
    if (entities === undefined) return;
    // zigbee2mqtt configures a device that still needs it when it is heard from (a sleepy one is awake now).
    void this.configureSoon(message.device);
    try {
      entities.handleMessage(message);
    } catch (err) {
      this.driver.ctx.log.error({ err, ieee, cluster: message.cluster }, `Zigbee message from ${this.nameOf(ieee)} could not be handled`);
    }
  }

  /** The device left (its announcement, or a removal): its entities go and `zigbee_device_left` is fired once. */
  left(ieee: string, reason: 'left' | 'removed'): void {
    const entities = this.entities.get(ieee);
    const known = entities !== undefined || this.driver.availability.lastSeen(ieee) !== undefined;
    this.entities.delete(ieee);
    this.driver.availability.forget(ieee);
    this.configurer.forget(ieee);
    if (!known) return;
    entities?.remove();
    const data: JsonObject = {
      ieee_address: ieee,
      friendly_name: this.nameOf(ieee),
      model: entities?.model ?? null,
      vendor: entities?.vendor ?? null,
      reason,
    };
    this.driver.ctx.core.bus.fire('zigbee_device_left', data, this.driver.ctx.core.newContext());
  }

  rename(ieee: string, name: string): void {
    this.entities.get(ieee)?.rename(name);
  }

  /** The driver stops: every device's definition timers and polls end; a failing one does not keep the others running. */
  async stop(): Promise<void> {
    this.configurer.stop();
    await Promise.all(
      [...this.entities.values()].map((d) =>
        d.stop().catch((err: unknown) => this.host.ctx.log.debug({ err, ieee_address: d.ieee }, 'Zigbee device stop failed')),
      ),
    );
  }

  /** The adapter is gone: every entity unavailable, and a call naming one fails with `refusal`. */
  setAllUnavailable(refusal: string): void {
    for (const entities of this.entities.values()) entities.setAvailable(false, refusal);
  }

  private ensure(device: ZigbeeDevice): Promise<DeviceEntities | undefined> {
    const ieee = device.ieeeAddr;
    const existing = this.entities.get(ieee);
    if (existing !== undefined) return Promise.resolve(existing);
    const pending = this.making.get(ieee);
    if (pending !== undefined) return pending;
    const made = this.factory(this.host, device, this.nameOf(ieee))
      .then((entities) => {
        this.entities.set(ieee, entities);
        if (this.driver.connected) entities.setAvailable(this.driver.availability.isAvailable(ieee));
        else entities.setAvailable(false, this.driver.adapterGone);
        return entities;
      })
      .catch((err: unknown) => {
        this.driver.ctx.log.error(
          { err, ieee },
          `Zigbee device ${this.nameOf(ieee)} (${device.modelID ?? 'unknown model'}) has no entities: ${String(err)}`,
        );
        return undefined;
      })
      .finally(() => this.making.delete(ieee));
    this.making.set(ieee, made);
    return made;
  }

  private fire(type: string, device: ZigbeeDevice, extra: JsonObject): void {
    const entities = this.entities.get(device.ieeeAddr);
    const data: JsonObject = {
      ieee_address: device.ieeeAddr,
      friendly_name: this.nameOf(device.ieeeAddr),
      model: entities?.model ?? null,
      vendor: entities?.vendor ?? null,
      model_id: device.modelID ?? null,
      manufacturer: device.manufacturerName ?? null,
      ...extra,
    };
    this.driver.ctx.core.bus.fire(type, data, this.driver.ctx.core.newContext());
  }
}
