import { isoFromMicros, type Micros } from '../../src/core/clock.js';
import type { DeviceIdentifier } from '../../src/core/devices.js';
import { addSensor, type SensorHandle } from '../../src/domains/sensor.js';
import { addSwitch } from '../../src/domains/switch.js';
import type { DriverContext } from '../driver.js';

export const COORDINATOR_ID: DeviceIdentifier = ['zigbee', 'coordinator'];

/**
 * The network's own entities: the coordinator in the device registry, `switch.zigbee_permit_join` (its `ends_at`
 * attribute lets a page count down without an update per second) and `sensor.zigbee_coordinator_backup`.
 */
export class HubEntities {
  readonly coordinatorDeviceId: string;
  private readonly permitJoin;
  private readonly backup: SensorHandle;
  private permitted = false;
  private endsAt: Micros | undefined;
  private lastBackup: Micros | undefined;

  constructor(
    private readonly ctx: DriverContext,
    setPermitJoin: (on: boolean) => Promise<void>,
  ) {
    const { core, owner } = ctx;
    const entry = core.devices.register({
      identifiers: [COORDINATOR_ID],
      name: 'Zigbee coordinator',
      owner,
      manufacturer: 'Zigbee',
      model: 'Coordinator',
    });
    this.coordinatorDeviceId = entry.id;
    this.permitJoin = addSwitch(core, {
      entityId: 'switch.zigbee_permit_join',
      name: 'Zigbee permit join',
      owner,
      uniqueId: 'zigbee-permit-join',
      deviceId: entry.id,
      icon: 'mdi:zigbee',
      restore: false,
      platform: { turnOn: () => setPermitJoin(true), turnOff: () => setPermitJoin(false) },
    });
    this.backup = addSensor(core, {
      entityId: 'sensor.zigbee_coordinator_backup',
      name: 'Zigbee coordinator backup',
      owner,
      uniqueId: 'zigbee-coordinator-backup',
      deviceId: entry.id,
      deviceClass: 'timestamp',
      entityCategory: 'diagnostic',
      restore: false,
    });
    this.permitJoin.entity.markUnavailable();
    this.backup.entity.markUnavailable();
  }

  /** What the stick said it is: its firmware type (zStack3x0, EmberZNet...) and revision, and its IEEE address. */
  describeCoordinator(ieee: string | undefined, version: { type: string; meta: Record<string, string | number> } | undefined): void {
    const revision = version?.meta.revision ?? version?.meta.version;
    this.ctx.core.devices.register({
      identifiers: [COORDINATOR_ID],
      name: 'Zigbee coordinator',
      owner: this.ctx.owner,
      manufacturer: 'Zigbee',
      model: version?.type ?? 'Coordinator',
      ...(revision === undefined ? {} : { sw_version: String(revision) }),
      ...(ieee === undefined ? {} : { serial_number: ieee }),
    });
  }

  /** The coordinator answers: permit join and the last backup are known again. */
  online(): void {
    this.renderPermitJoin();
    this.backup.report(this.lastBackup === undefined ? null : isoFromMicros(this.lastBackup));
  }

  offline(): void {
    this.permitted = false;
    this.endsAt = undefined;
    this.permitJoin.entity.markUnavailable();
    this.backup.entity.markUnavailable();
  }

  setPermitJoin(permitted: boolean, seconds: number | undefined): void {
    this.permitted = permitted;
    this.endsAt = permitted && seconds !== undefined ? this.ctx.core.clock.now() + seconds * 1_000_000 : undefined;
    this.renderPermitJoin();
  }

  get permitJoinEndsAt(): Micros | undefined {
    return this.endsAt;
  }

  backupWritten(at: Micros): void {
    this.lastBackup = at;
    this.backup.report(isoFromMicros(at));
  }

  private renderPermitJoin(): void {
    const endsAt = this.endsAt === undefined ? null : isoFromMicros(this.endsAt);
    this.permitJoin.entity.report(this.permitted ? 'on' : 'off', { ends_at: endsAt });
  }
}
