import type { Context } from '../core/context.js';
import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import { HubError } from '../core/errors.js';
import type { JsonValue } from '../core/json.js';
import { type Domain, dataOf, platformOf, registerEntityServices } from './domain.js';

/**
 * Home Assistant's `update` domain (homeassistant/components/update): a firmware or software that may have a newer
 * version. The state is `on` when the latest version is newer than the installed one and not skipped, `off`
 * otherwise, unknown while either version is. `update.skip` remembers the latest version as skipped (the state turns
 * `off` until a newer one appears); `update.install` asks the platform to install, refused as Home Assistant refuses.
 */

/** UpdateEntityFeature. */
export const UpdateFeature = { INSTALL: 1, SPECIFIC_VERSION: 2, PROGRESS: 4, BACKUP: 8, RELEASE_NOTES: 16 } as const;

export const UPDATE_DEVICE_CLASSES = ['firmware'] as const;
export type UpdateDeviceClass = (typeof UPDATE_DEVICE_CLASSES)[number];

/** What an update's provider implements: installing a version (the latest when null). */
export interface UpdatePlatform {
  install(version: string | null, backup: boolean, context: Context): void | Promise<void>;
  /** With RELEASE_NOTES: the notes of the latest version (Markdown), or null. */
  releaseNotes?(): string | null | Promise<string | null>;
}

/** What the provider reports. */
export interface UpdateModel {
  readonly installedVersion: string | null;
  readonly latestVersion: string | null;
  /** With PROGRESS: whether an install runs now. */
  readonly inProgress?: boolean;
  /** With PROGRESS: 0-100 while installing. */
  readonly updatePercentage?: number | null;
  readonly releaseSummary?: string | null;
  readonly releaseUrl?: string | null;
  readonly title?: string | null;
  readonly autoUpdate?: boolean;
  readonly displayPrecision?: number;
}

/** The domain's record: the last report, the user's skipped version, and an install the domain itself tracks. */
export interface UpdateData {
  model: UpdateModel;
  skipped: string | null;
  /** Without PROGRESS, Home Assistant shows in_progress itself while async_install runs. */
  installing: boolean;
  readonly features: number;
}

export interface UpdateOptions extends Omit<EntityInit<UpdatePlatform>, 'fixed' | 'data'> {
  readonly features: number;
  readonly deviceClass?: UpdateDeviceClass;
  readonly icon?: string;
}

const NONE: UpdateModel = { installedVersion: null, latestVersion: null };

/** Numbers of a version ("1.2.3", "0x0102", "268513281") for comparison; undefined when it has none. */
function versionParts(v: string): number[] | undefined {
  if (/^0x[0-9a-f]+$/i.test(v)) return [Number.parseInt(v, 16)];
  const m = v.match(/^v?(\d+(?:\.\d+)*)/i);
  return m?.[1]?.split('.').map(Number);
}

/** AwesomeVersion's `>` for the versions firmware uses; undefined when they cannot be compared. */
export function versionIsNewer(latest: string, installed: string): boolean | undefined {
  const a = versionParts(latest);
  const b = versionParts(installed);
  if (a === undefined || b === undefined) return undefined;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x > y;
  }
  return false;
}

/** UpdateEntity.state. */
function stateOf(d: UpdateData): string | null {
  const { installedVersion: installed, latestVersion: latest } = d.model;
  if (installed === null || latest === null) return null;
  if (latest === d.skipped || latest === installed) return 'off';
  return versionIsNewer(latest, installed) === false ? 'off' : 'on';
}

/** UpdateEntity.state_attributes, in its order. */
function attributesOf(d: UpdateData): Record<string, JsonValue> {
  const m = d.model;
  const progress = (d.features & UpdateFeature.PROGRESS) !== 0;
  const inProgress = progress ? m.inProgress === true : d.installing;
  // A skipped version is forgotten once it is installed or the latest version moved on.
  const installed = m.installedVersion;
  if (
    d.skipped !== null &&
    ((installed !== null && (d.skipped === installed || versionIsNewer(d.skipped, installed) === false)) || m.latestVersion !== d.skipped)
  )
    d.skipped = null;
  const summary = m.releaseSummary ?? null;
  return {
    auto_update: m.autoUpdate ?? false,
    display_precision: m.displayPrecision ?? 0,
    installed_version: installed,
    in_progress: inProgress,
    latest_version: m.latestVersion,
    release_summary: summary === null ? null : summary.slice(0, 255),
    release_url: m.releaseUrl ?? null,
    skipped_version: d.skipped,
    title: m.title ?? null,
    update_percentage: progress && inProgress ? (m.updatePercentage ?? null) : null,
  };
}

export function addUpdate(core: Core, options: UpdateOptions) {
  const { features, deviceClass, icon, ...init } = options;
  const fixed: Record<string, JsonValue> = {};
  if (deviceClass !== undefined) fixed.device_class = deviceClass;
  if (icon !== undefined) fixed.icon = icon;
  fixed.supported_features = features;
  const data: UpdateData = { model: NONE, skipped: null, installing: false, features };
  const entity = core.entities.add<UpdatePlatform, UpdateData>({ ...init, fixed, data });
  return {
    entity,
    data,
    report(model: UpdateModel): void {
      data.model = model;
      render(entity, data);
    },
  };
}

function render(entity: Entity, d: UpdateData, context?: Context): void {
  const attributes = attributesOf(d);
  entity.report(stateOf(d), attributes, context);
}

function dataFor(e: Entity): UpdateData {
  const d = dataOf<UpdateData>(e, 'update');
  if (d === undefined) throw new Error(`${e.id} was added without its update data (use addUpdate)`);
  return d;
}

const p = (e: Entity) => platformOf<UpdatePlatform>(e, 'update');
const refused = (message: string) => new HubError('hub_error', message);

/** update's async_install checks, in their words, then the install (in_progress shown by the domain without PROGRESS). */
async function install(e: Entity, version: string | null, backup: boolean, context: Context): Promise<void> {
  const d = dataFor(e);
  const { installedVersion, latestVersion } = d.model;
  if (version === null && (installedVersion === latestVersion || latestVersion === null)) throw refused(`No update available for ${e.id}`);
  if (version !== null && (d.features & UpdateFeature.SPECIFIC_VERSION) === 0)
    throw refused(`Installing a specific version is not supported for ${e.id}`);
  if (backup && (d.features & UpdateFeature.BACKUP) === 0) throw refused(`Backup is not supported for ${e.id}`);
  const progress = (d.features & UpdateFeature.PROGRESS) !== 0;
  if (progress ? d.model.inProgress === true : d.installing) throw refused(`Update installation already in progress for ${e.id}`);
  if (progress) {
    await p(e).install(version, backup, context);
    return;
  }
  d.installing = true;
  render(e, d, context);
  try {
    await p(e).install(version, backup, context);
  } finally {
    d.installing = false;
    render(e, d, context);
  }
}

export const updateDomain: Domain = {
  name: 'update',
  registerServices(core: Core): void {
    registerEntityServices(core, 'update', [
      {
        service: 'install',
        name: 'Install update',
        description: 'Installs an update for a device or service.',
        feature: UpdateFeature.INSTALL,
        fields: {
          version: { kind: 'text', description: 'The version to install. If omitted, the latest version will be installed.' },
          backup: {
            kind: 'boolean',
            default: false,
            description: 'If supported by the integration, this creates a backup before starting the update.',
          },
        },
        run: (e, d, c) => install(e, typeof d.version === 'string' ? d.version : null, d.backup === true, c.context),
      },
      {
        service: 'skip',
        name: 'Skip update',
        description: 'Marks currently available update as skipped.',
        run: (e, _d, c) => {
          const d = dataFor(e);
          if (d.model.autoUpdate) throw refused(`Skipping update is not supported for ${e.id}`);
          d.skipped = d.model.latestVersion;
          render(e, d, c.context);
        },
      },
      {
        service: 'clear_skipped',
        name: 'Clear skipped update',
        description: 'Removes the skipped version marker from an update.',
        run: (e, _d, c) => {
          const d = dataFor(e);
          if (d.model.autoUpdate) throw refused(`Clearing skipped update is not supported for ${e.id}`);
          d.skipped = null;
          render(e, d, c.context);
        },
      },
    ]);
  },
  // What a user set here is the skipped version; the rest is the provider's to report.
  restoreState(entity, stored, context) {
    const d = dataFor(entity);
    const skipped = stored.attributes.skipped_version;
    if (typeof skipped !== 'string' || d.skipped !== null) return;
    d.skipped = skipped;
    if (entity.state !== undefined) render(entity, d, context);
  },
};

/** The release notes of an update entity (the `update/release_notes` WebSocket command's answer). */
export async function releaseNotes(e: Entity): Promise<string | null> {
  const d = dataFor(e);
  const notes = p(e).releaseNotes;
  if ((d.features & UpdateFeature.RELEASE_NOTES) === 0 || notes === undefined)
    throw new HubError('not_supported', 'Entity does not support release notes');
  return notes.call(p(e));
}
