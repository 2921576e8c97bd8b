import type { Definition } from 'zigbee-herdsman-converters';
import { slugify } from '../../src/core/entity-id.js';
import { HubError } from '../../src/core/errors.js';
import type { Logger } from '../../src/core/log.js';
import { addUpdate, UpdateFeature } from '../../src/domains/update.js';
import { templateText } from '../../src/util/log-bounds.js';
import type { ZigbeeOtaConfig } from './config.js';
import type { DeviceEntitiesHost, ZigbeeDevice } from './types.js';

/**
 * A device's firmware as Home Assistant's `update` entity, through herdsman's OTA (Device.checkOta/updateOta) and the
 * converters' OTA metadata (`definition.ota`), as zigbee2mqtt's OTA extension and its `update.<device>` entity: the
 * check asks the device its image (imageNotify → queryNextImageRequest) and looks it up in the index; an install
 * serves the image block by block with progress as `update_percentage`. A device that refuses an image keeps its
 * firmware and its entities; the install fails with the device's reason.
 */

type OtaResult = Awaited<ReturnType<ZigbeeDevice['checkOta']>>;

/** The file version as zigbee2mqtt shows it (a number). */
const versionOf = (v: number | undefined): string | null => (v === undefined ? null : String(v));

export class DeviceOta {
  private readonly handle;
  private installed: string | null = null;
  private latest: string | null = null;
  private percentage: number | null = null;
  private installing = false;
  private checking: Promise<OtaResult> | undefined;
  private releaseNotes: string | null = null;

  constructor(
    private readonly host: DeviceEntitiesHost,
    private readonly device: ZigbeeDevice,
    private readonly definition: Definition,
    private readonly log: Logger,
    private name: string,
    deviceId: string,
    private readonly config: ZigbeeOtaConfig,
  ) {
    const { core, owner } = host.ctx;
    let entityId = `update.${slugify(name)}`;
    for (let n = 2; n < 100 && core.entities.find(entityId) !== undefined; n++) entityId = `update.${slugify(name)}_${n}`;
    this.handle = addUpdate(core, {
      entityId,
      owner,
      name,
      uniqueId: `${device.ieeeAddr}_update`,
      deviceId,
      deviceClass: 'firmware',
      entityCategory: 'config',
      features: UpdateFeature.INSTALL | UpdateFeature.PROGRESS | UpdateFeature.RELEASE_NOTES,
      // The skipped version is the user's; the versions are asked of the device again.
      restore: true,
      platform: { install: () => this.install(), releaseNotes: () => this.releaseNotes },
    });
    this.render();
  }

  get entityId(): string {
    return this.handle.entity.id;
  }

  private get extraMetas() {
    return typeof this.definition.ota === 'object' ? this.definition.ota : {};
  }

  private get source() {
    return { url: this.config.indexUrl, downgrade: false };
  }

  private render(): void {
    this.handle.report({
      installedVersion: this.installed,
      latestVersion: this.latest,
      inProgress: this.installing,
      updatePercentage: this.installing ? this.percentage : null,
      releaseSummary: this.releaseNotes,
    });
  }

  /** Asks the device its firmware and the index for a newer one; one check at a time. */
  check(): Promise<OtaResult> {
    if (this.installing) return Promise.reject(new HubError('hub_error', `an update of ${this.name} is in progress`));
    this.checking ??= this.device
      .checkOta(this.source, undefined, this.extraMetas)
      .then((result) => {
        this.installed = versionOf(result.current.fileVersion);
        // No image in the index for it: up to date, as zigbee2mqtt shows it.
        this.latest = result.available ? versionOf(result.availableMeta?.fileVersion) : this.installed;
        this.releaseNotes = result.available ? (result.availableMeta?.releaseNotes ?? null) : null;
        this.render();
        return result;
      })
      .finally(() => {
        this.checking = undefined;
      });
    return this.checking;
  }

  private async install(): Promise<void> {
    if (this.installing) throw new HubError('hub_error', `an update of ${this.name} is already in progress`);
    this.installing = true;
    this.percentage = 0;
    this.render();
    try {
      const [, to] = await this.device.updateOta(
        this.source,
        undefined,
        undefined,
        this.extraMetas,
        (percentage) => {
          this.percentage = Math.round(percentage * 100) / 100;
          this.render();
        },
        { requestTimeout: this.config.requestTimeoutMs, responseDelay: this.config.responseDelayMs, baseSize: this.config.blockSize },
      );
      if (to === undefined) throw new Error('the index has no newer image for it');
      this.installed = versionOf(to.fileVersion);
      this.latest = this.installed;
      this.releaseNotes = null;
      this.log.info(`firmware of ${templateText(this.name)} updated to ${to.fileVersion}`);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      this.log.error({ ieee: this.device.ieeeAddr }, 'firmware update of %s failed: %s; it keeps its firmware', this.name, reason);
      throw new HubError('hub_error', `Firmware update of ${this.name} failed: ${reason}; the device keeps its firmware`);
    } finally {
      this.installing = false;
      this.percentage = null;
      this.render();
    }
  }

  rename(name: string): void {
    this.name = name;
    this.handle.entity.setName(name);
  }

  setAvailable(available: boolean, refusal?: string): void {
    if (available) this.render();
    else this.handle.entity.markUnavailable(undefined, refusal);
  }

  remove(): void {
    if (this.installing) this.device.abortOta();
    this.host.ctx.core.entities.remove(this.handle.entity.id);
  }
}
