import { chmod, stat } from 'node:fs/promises';
import type { Controller } from 'zigbee-herdsman';
import type { Component } from '../../src/core/component.js';
import type { JsonObject, JsonValue } from '../../src/core/json.js';
import { type Scheduler, timersScheduler } from '../../src/util/scheduler.js';
import { type BackoffOptions, backoffDelay } from '../common/device-poller.js';
import type { DriverContext } from '../driver.js';
import { describeStartFailure } from './adapter-errors.js';
import { Availability } from './availability.js';
import type { ZigbeeConfig } from './config.js';
import { DeviceSet } from './device-set.js';
import { registerGroupServices } from './group-services.js';
import { ZigbeeGroups } from './groups.js';
import { type Herdsman, loadHerdsman } from './herdsman.js';
import { type ZigbeeHost, ZigbeeUnavailableError } from './host.js';
import { COORDINATOR_ID, HubEntities } from './hub-entities.js';
import { NameStore } from './names.js';
import { checkDatabase, loadNetwork, type StoredNetwork, zigbeePaths } from './network.js';
import { listDevices, registerZigbeeServices } from './services.js';
import type { DeviceEntitiesFactory, ZigbeeDevice } from './types.js';

export interface ZigbeeDriverOptions {
  /** Makes a paired device's entities (device-entities.ts in the hub; tests may pass their own). */
  readonly factory: DeviceEntitiesFactory;
  readonly scheduler?: Scheduler;
  /** Reconnect delays after the adapter fails or is lost: 1 s doubling to 5 min unless told. */
  readonly backoff?: BackoffOptions;
  readonly backupIntervalMs?: number;
}

/** A file's inode and modification time: a rename over it (an atomic write) changes the inode. */
async function fileIdentity(path: string): Promise<string | undefined> {
  try {
    const s = await stat(path);
    return `${s.ino}:${s.mtimeMs}`;
  } catch {
    return undefined;
  }
}

export const ZIGBEE_BACKOFF: BackoffOptions = { initialMs: 1000, maxMs: 5 * 60_000 };
const DAY_MS = 24 * 3600_000;
const STOP_WAIT_MS = 2000;

/**
 * The Zigbee network: herdsman's Controller on the configured stick, started in the background so the hub never
 * waits for it. Joins, interviews and leaves become bus events and device entities (through the factory); a lost
 * or failing adapter makes every entity unavailable and is retried with backoff inside the process, forever.
 */
export class ZigbeeDriver implements Component, ZigbeeHost {
  readonly name = 'zigbee';
  readonly paths;
  readonly names;
  readonly devices: DeviceSet;
  readonly availability: Availability;
  readonly groups: ZigbeeGroups;
  hub: HubEntities | undefined;
  private controller: Controller | undefined;
  private herdsman: Herdsman | undefined;
  private network: StoredNetwork | undefined;
  readonly scheduler: Scheduler;
  private failures = 0;
  private failing = false;
  private stopped = false;
  private retryTimer: unknown;
  private backupTimer: unknown;
  private otaTimer: unknown;
  private attempt: Promise<void> | undefined;
  private backupUnsupportedLogged = false;
  offlineDevices: readonly JsonValue[] = [];
  /** Aborts a start in progress when the hub stops (a real stick can take many seconds to answer). */
  private readonly abort = new AbortController();

  /** What it registers goes under its integration's owner key. */
  get owner(): string {
    return this.ctx.owner;
  }

  constructor(
    readonly ctx: DriverContext,
    readonly config: ZigbeeConfig,
    private readonly options: ZigbeeDriverOptions,
  ) {
    this.paths = zigbeePaths(ctx.dataDir);
    this.names = new NameStore(this.paths.names, ctx.log);
    this.scheduler = options.scheduler ?? ctx.scheduler ?? timersScheduler((err) => ctx.log.error({ err }, 'Zigbee timer failed'));
    this.availability = new Availability({
      mainsTimeoutMs: config.mainsTimeoutMs,
      batteryTimeoutMs: config.batteryTimeoutMs,
      clock: ctx.core.clock,
      scheduler: this.scheduler,
      log: ctx.log,
      ping: (ieee) => this.ping(ieee),
      changed: (ieee, available) =>
        this.connected ? this.devices.get(ieee)?.setAvailable(available) : this.devices.get(ieee)?.setAvailable(false, this.adapterGone),
    });
    this.devices = new DeviceSet(this, options.factory, {
      ctx,
      coordinator: COORDINATOR_ID,
      deviceOptions: (ieee): JsonObject => config.devices.get(ieee) ?? {},
      ota: config.ota,
    });
    this.groups = new ZigbeeGroups(this);
  }

  /** The running Controller, or undefined while the adapter is away. */
  get running(): Controller | undefined {
    return this.controller;
  }

  get connected(): boolean {
    return this.controller !== undefined;
  }

  /** What the stick is, for messages: "zstack on /dev/ttyACM0". */
  get adapterLabel(): string {
    return `${this.config.adapter ?? this.network?.adapter ?? 'auto-detected'} on ${this.config.port ?? this.network?.port ?? 'the auto-detected port'}`;
  }

  get adapterGone(): string {
    return `the Zigbee adapter (${this.adapterLabel}) is not connected, so the device cannot be reached; try again when it is back`;
  }

  async start(): Promise<void> {
    await this.names.load();
    this.hub = new HubEntities(this.ctx, (on) => this.permitJoin(on ? 254 : 0));
    registerZigbeeServices(this);
    registerGroupServices(this, this.groups);
    this.attempt = this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.scheduler.stopAll();
    this.availability.stop();
    this.abort.abort();
    // Within the hub's stop budget even if the adapter hangs inside a step the abort signal does not reach.
    await Promise.race([this.attempt, new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref())]);
    const controller = this.controller;
    this.controller = undefined;
    if (controller !== undefined) await this.stopController(controller);
    this.groups.stop();
    await this.devices.stop();
    await this.names.stop();
  }

  /** Opens or closes pairing; `router` lets only that router's neighbourhood join. */
  async permitJoin(seconds: number, router?: ZigbeeDevice): Promise<void> {
    const controller = this.requireController();
    await controller.permitJoin(seconds, router);
  }

  requireController(): Controller {
    if (this.controller === undefined) throw new ZigbeeUnavailableError(`the Zigbee adapter (${this.adapterLabel}) is not connected`);
    return this.controller;
  }

  /**
   * Saves the database and writes coordinator_backup.json (herdsman writes a temp file and renames it), and shows its
   * time. False when the adapter makes no coordinator backups (deCONZ): the file did not change.
   */
  async backup(): Promise<boolean> {
    // The controller it began on: a stick pulled meanwhile must not show a backup time while every entity is unavailable.
    const controller = this.requireController();
    const before = await fileIdentity(this.paths.coordinatorBackup);
    await controller.backup();
    const after = await fileIdentity(this.paths.coordinatorBackup);
    if (this.controller !== controller)
      throw new ZigbeeUnavailableError(`the Zigbee adapter (${this.adapterLabel}) went away during the backup`);
    if (after !== undefined && after !== before) {
      // It holds the network key; herdsman writes it with the default mode (the 0700 directory guards it too).
      await chmod(this.paths.coordinatorBackup, 0o600).catch(() => {});
      this.hub?.backupWritten(this.ctx.core.clock.now());
      return true;
    }
    if (!this.backupUnsupportedLogged)
      this.ctx.log.info(`Zigbee adapter ${this.adapterLabel} makes no coordinator backups; database.db is saved`);
    this.backupUnsupportedLogged = true;
    return false;
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    let controller: Controller | undefined;
    try {
      this.herdsman ??= await loadHerdsman(this.ctx.log);
      if (this.network === undefined) {
        await checkDatabase(this.paths, this.ctx.log);
        this.network = (await loadNetwork(this.paths, this.config, this.ctx.log)).network;
      }
      controller = new this.herdsman.Controller(this.controllerOptions(this.network));
      this.listen(controller);
      await controller.start(this.abort.signal);
      if (this.stopped) {
        await this.stopController(controller);
        return;
      }
      this.controller = controller;
      await this.onStarted();
    } catch (err) {
      if (controller !== undefined && this.controller === controller) this.controller = undefined;
      if (controller !== undefined) await this.stopController(controller);
      if (!this.stopped) this.failed(err);
    }
  }

  private controllerOptions(network: StoredNetwork): ConstructorParameters<Herdsman['Controller']>[0] {
    const c = this.config;
    return {
      network: {
        panID: c.panId ?? network.pan_id,
        extendedPanID: [...(c.extPanId ?? network.ext_pan_id)],
        networkKey: [...(c.networkKey ?? network.network_key)],
        channelList: [c.channel ?? network.channel ?? 11],
      },
      serialPort: {
        path: c.port ?? network.port,
        adapter: (c.adapter ?? network.adapter) as 'zstack' | undefined,
        baudRate: c.baudRate ?? network.baud_rate,
        rtscts: c.rtscts ?? network.rtscts,
      },
      databasePath: this.paths.database,
      databaseBackupPath: this.paths.databaseBackup,
      backupPath: this.paths.coordinatorBackup,
      adapter: { disableLED: false },
      acceptJoiningDeviceHandler: async () => true,
    };
  }

  private listen(controller: Controller): void {
    const current = (): boolean => this.controller === controller;
    controller.on('adapterDisconnected', () => current() && this.lost(controller));
    controller.on('permitJoinChanged', (e) => current() && this.hub?.setPermitJoin(e.permitted, e.time));
    controller.on('deviceJoined', (e) => current() && this.devices.joined(e.device));
    controller.on('deviceInterview', (e) => current() && this.devices.interviewed(e.device, e.status));
    controller.on('deviceLeave', (e) => current() && this.devices.left(e.ieeeAddr, 'left'));
    controller.on('deviceAnnounce', (e) => {
      if (!current()) return;
      this.availability.seen(e.device.ieeeAddr);
      void this.devices.configureSoon(e.device);
    });
    controller.on('lastSeenChanged', (e) => current() && this.availability.seen(e.device.ieeeAddr));
    controller.on('message', (e) => current() && this.devices.message(e));
  }

  private async onStarted(): Promise<void> {
    const controller = this.requireController();
    if (this.failing)
      this.ctx.log.info(
        `Zigbee adapter ${this.adapterLabel} is back after ${this.failures} failed attempt${this.failures === 1 ? '' : 's'}`,
      );
    else this.ctx.log.info(`Zigbee network started on ${this.adapterLabel}`);
    this.failing = false;
    this.failures = 0;
    this.hub?.online();
    const version = await controller.getCoordinatorVersion().catch(() => undefined);
    this.hub?.describeCoordinator(controller.getDevicesByType('Coordinator')[0]?.ieeeAddr, version);
    await this.devices.loadFrom(controller);
    await this.groups.loadFrom(controller);
    this.availability.start();
    this.scheduleOtaChecks();
    await this.backupNow();
  }

  private async backupNow(): Promise<void> {
    const controller = this.controller;
    if (this.stopped || controller === undefined) return;
    try {
      await this.backup();
    } catch (err) {
      // Lost during the backup: the loss is the one error a user sees, and the next start backs up again.
      if (this.controller !== controller) {
        this.ctx.log.debug({ err }, `Zigbee coordinator backup stopped: the adapter ${this.adapterLabel} went away`);
        return;
      }
      this.ctx.log.error({ err }, `Zigbee coordinator backup to ${this.paths.coordinatorBackup} failed`);
    }
    this.scheduler.clear(this.backupTimer);
    this.backupTimer = this.scheduler.timeout(() => void this.backupNow(), this.options.backupIntervalMs ?? DAY_MS);
  }

  /**
   * Firmware checks of mains-powered devices every `ota.check_interval` hours (a sleeping device answers no
   * imageNotify; it is checked on request). One device at a time, so the radio is not flooded.
   */
  private scheduleOtaChecks(): void {
    const hours = this.config.ota.checkIntervalHours;
    this.scheduler.clear(this.otaTimer);
    if (hours <= 0 || this.stopped) return;
    this.otaTimer = this.scheduler.timeout(() => {
      void this.checkRouters().finally(() => this.scheduleOtaChecks());
    }, hours * 3600_000);
  }

  private async checkRouters(): Promise<void> {
    const controller = this.controller;
    if (controller === undefined) return;
    for (const device of controller.getDevicesIterator((d) => d.type === 'Router')) {
      const check = this.devices.get(device.ieeeAddr)?.checkOta;
      if (check === undefined || this.controller !== controller) continue;
      await check().catch((err: unknown) =>
        this.ctx.log.debug({ err, ieee: device.ieeeAddr }, 'Zigbee firmware check of %s failed', this.devices.nameOf(device.ieeeAddr)),
      );
    }
  }

  /** The adapter reported its loss (unplugged, crashed): everything unavailable, then reconnect. */
  private lost(controller: Controller): void {
    this.controller = undefined;
    this.ctx.log.error(
      `Zigbee adapter ${this.adapterLabel} disconnected; every Zigbee entity is unavailable until it is back (retrying with backoff)`,
    );
    this.failing = true;
    this.failures = 0;
    this.offlineDevices = listDevices(this, controller).map((d) => ({ ...(d as JsonObject), available: false, link_quality: null }));
    this.offline();
    void this.stopController(controller);
    this.retry();
  }

  private failed(err: unknown): void {
    const message =
      err instanceof Error && err.name === 'NetworkSettingsError'
        ? err.message
        : describeStartFailure(err, this.config.adapter ?? this.network?.adapter, this.config.port ?? this.network?.port);
    if (!this.failing) this.ctx.log.error({ err: err instanceof Error ? err.message : String(err) }, message);
    else this.ctx.log.debug({ attempt: this.failures + 1 }, message);
    this.failing = true;
    this.offline();
    this.retry();
  }

  private retry(): void {
    if (this.stopped) return;
    this.failures += 1;
    const delay = backoffDelay(this.failures, this.options.backoff ?? ZIGBEE_BACKOFF);
    this.scheduler.clear(this.retryTimer);
    this.retryTimer = this.scheduler.timeout(() => {
      this.attempt = this.connect();
    }, delay);
  }

  private offline(): void {
    this.availability.stop();
    this.scheduler.clear(this.backupTimer);
    this.scheduler.clear(this.otaTimer);
    this.hub?.offline();
    this.devices.setAllUnavailable(this.adapterGone);
    this.groups.offline();
  }

  private async ping(ieee: string): Promise<boolean> {
    const device = this.controller?.getDeviceByIeeeAddr(ieee);
    if (device === undefined) return false;
    try {
      await device.ping();
      return true;
    } catch {
      return false;
    }
  }

  /** Stops a Controller quietly: pairing closed (herdsman's own countdown timer cleared), database saved. */
  private async stopController(controller: Controller): Promise<void> {
    await controller.permitJoin(0).catch(() => {});
    await controller.stop().catch((err: unknown) => this.ctx.log.debug({ err }, 'Zigbee controller stop failed'));
  }
}
