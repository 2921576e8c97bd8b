import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import type { FieldSpec } from '../core/fields.js';
import type { JsonObject, JsonValue } from '../core/json.js';
import { callOptional, type Domain, dataOf, type EntityServiceSpec, featuresOf, platformOf, registerEntityServices } from './domain.js';

/** CoverEntityFeature bits, as Home Assistant numbers them. */
export const CoverFeature = {
  OPEN: 1,
  CLOSE: 2,
  SET_POSITION: 4,
  STOP: 8,
  OPEN_TILT: 16,
  CLOSE_TILT: 32,
  STOP_TILT: 64,
  SET_TILT_POSITION: 128,
} as const;

export const COVER_DEVICE_CLASSES = [
  'awning',
  'blind',
  'curtain',
  'damper',
  'door',
  'garage',
  'gate',
  'shade',
  'shutter',
  'window',
] as const;
export type CoverDeviceClass = (typeof COVER_DEVICE_CLASSES)[number];

/** What a cover driver implements; the optional methods belong to feature bits. Positions: 0 closed, 100 open. */
export interface CoverPlatform {
  openCover(): void | Promise<void>;
  closeCover(): void | Promise<void>;
  stopCover?(): void | Promise<void>;
  setCoverPosition?(position: number): void | Promise<void>;
  openCoverTilt?(): void | Promise<void>;
  closeCoverTilt?(): void | Promise<void>;
  stopCoverTilt?(): void | Promise<void>;
  setCoverTiltPosition?(tiltPosition: number): void | Promise<void>;
}

/** What a cover is. The state follows Home Assistant: opening, closing, else closed or open (unknown when closed is null). */
export interface CoverModel {
  readonly closed: boolean | null;
  readonly opening?: boolean;
  readonly closing?: boolean;
  /** 0 (closed) to 100 (open); left out when the cover does not know its position. */
  readonly position?: number | null;
  readonly tiltPosition?: number | null;
}

export interface CoverOptions extends Omit<EntityInit<CoverPlatform>, 'fixed'> {
  readonly deviceClass?: CoverDeviceClass;
  /** Defaults to the features the platform's methods provide. */
  readonly supportedFeatures?: number;
  readonly icon?: string;
}

/** The feature bits a platform's methods provide. */
export function coverFeaturesOf(p: CoverPlatform): number {
  let f = CoverFeature.OPEN | CoverFeature.CLOSE;
  if (p.stopCover) f |= CoverFeature.STOP;
  if (p.setCoverPosition) f |= CoverFeature.SET_POSITION;
  if (p.openCoverTilt) f |= CoverFeature.OPEN_TILT;
  if (p.closeCoverTilt) f |= CoverFeature.CLOSE_TILT;
  if (p.stopCoverTilt) f |= CoverFeature.STOP_TILT;
  if (p.setCoverTiltPosition) f |= CoverFeature.SET_TILT_POSITION;
  return f;
}

export function coverState(model: CoverModel): string | null {
  if (model.opening) return 'opening';
  if (model.closing) return 'closing';
  if (model.closed === null) return null;
  return model.closed ? 'closed' : 'open';
}

export function coverStateAttributes(model: CoverModel): JsonObject {
  const out: Record<string, JsonValue> = {};
  if (model.position !== null && model.position !== undefined) out.current_position = model.position;
  if (model.tiltPosition !== null && model.tiltPosition !== undefined) out.current_tilt_position = model.tiltPosition;
  return out;
}

export interface CoverHandle {
  readonly entity: Entity<CoverPlatform>;
  /** Writes what the cover is; null when nothing is known (`unknown`). */
  report(model: CoverModel | null): void;
}

/**
 * Which way each cover last moved, for toggle: Home Assistant records it whenever it renders
 * opening/closing, and a cover stopped part-way toggles the other way.
 */
interface CoverData {
  lastMovedOpen: boolean;
}

export function addCover(core: Core, options: CoverOptions): CoverHandle {
  const fixed: Record<string, JsonValue> = {};
  if (options.deviceClass) fixed.device_class = options.deviceClass;
  if (options.icon) fixed.icon = options.icon;
  fixed.supported_features = options.supportedFeatures ?? coverFeaturesOf(options.platform);
  const data: CoverData = { lastMovedOpen: true };
  const entity = core.entities.add({ ...options, fixed, data });
  return {
    entity,
    report(model) {
      if (model === null) {
        entity.report(null);
        return;
      }
      if (model.opening) data.lastMovedOpen = true;
      else if (model.closing) data.lastMovedOpen = false;
      entity.report(coverState(model), coverStateAttributes(model));
    },
  };
}

type Action = 'open' | 'close' | 'stop';

/** CoverEntity._get_toggle_function. */
function toggleAction(e: Entity): Action {
  const state = e.state;
  if (featuresOf(e) & CoverFeature.STOP && (state === 'opening' || state === 'closing')) return 'stop';
  if (state === 'closed' || state === 'closing') return 'open';
  if ((dataOf<CoverData>(e, 'cover')?.lastMovedOpen ?? true) || state === 'opening') return 'close';
  return 'open';
}

function platform(e: Entity): CoverPlatform {
  return platformOf<CoverPlatform>(e, 'cover');
}

/** Calls an optional platform method; a driver that claims a feature without the method is a driver bug. */
function invoke<A extends unknown[]>(e: Entity, fn: ((...args: A) => void | Promise<void>) | undefined, what: string, ...args: A) {
  return callOptional(e, platform(e), fn, what, ...args);
}

function act(e: Entity, action: Action): void | Promise<void> {
  const p = platform(e);
  if (action === 'open') return p.openCover();
  if (action === 'close') return p.closeCover();
  return invoke(e, p.stopCover, 'stop');
}

function actTilt(e: Entity, action: Action): void | Promise<void> {
  const p = platform(e);
  if (action === 'open') return invoke(e, p.openCoverTilt, 'open its tilt');
  if (action === 'close') return invoke(e, p.closeCoverTilt, 'close its tilt');
  return invoke(e, p.stopCoverTilt, 'stop its tilt');
}

const POSITION_SCHEMA = {
  fields: {
    position: {
      kind: 'number',
      integer: true,
      min: 0,
      max: 100,
      required: true,
      unit: '%',
      description: 'Target position, 0 (closed) to 100 (open).',
    } satisfies FieldSpec,
  },
};
const TILT_POSITION_SCHEMA = {
  fields: {
    tilt_position: {
      kind: 'number',
      integer: true,
      min: 0,
      max: 100,
      required: true,
      unit: '%',
      description: 'Target tilt position, 0 (closed) to 100 (open).',
    } satisfies FieldSpec,
  },
};

const SERVICES: readonly EntityServiceSpec[] = [
  { service: 'open_cover', name: 'Open', description: 'Opens a cover.', feature: CoverFeature.OPEN, run: (e) => act(e, 'open') },
  { service: 'close_cover', name: 'Close', description: 'Closes a cover.', feature: CoverFeature.CLOSE, run: (e) => act(e, 'close') },
  { service: 'stop_cover', name: 'Stop', description: 'Stops the cover movement.', feature: CoverFeature.STOP, run: (e) => act(e, 'stop') },
  {
    service: 'toggle',
    name: 'Toggle',
    description: 'Toggles a cover open/closed.',
    feature: CoverFeature.OPEN | CoverFeature.CLOSE,
    run: (e) => act(e, toggleAction(e)),
  },
  {
    service: 'set_cover_position',
    name: 'Set position',
    description: 'Moves a cover to a specific position.',
    feature: CoverFeature.SET_POSITION,
    schema: POSITION_SCHEMA,
    run: (e, data) => invoke(e, platform(e).setCoverPosition, 'set its position', data.position as number),
  },
  {
    service: 'open_cover_tilt',
    name: 'Open tilt',
    description: 'Tilts a cover open.',
    feature: CoverFeature.OPEN_TILT,
    run: (e) => actTilt(e, 'open'),
  },
  {
    service: 'close_cover_tilt',
    name: 'Close tilt',
    description: 'Tilts a cover to close.',
    feature: CoverFeature.CLOSE_TILT,
    run: (e) => actTilt(e, 'close'),
  },
  {
    service: 'stop_cover_tilt',
    name: 'Stop tilt',
    description: 'Stops a tilting cover movement.',
    feature: CoverFeature.STOP_TILT,
    run: (e) => actTilt(e, 'stop'),
  },
  {
    service: 'toggle_cover_tilt',
    name: 'Toggle tilt',
    description: 'Toggles a cover tilt open/closed.',
    feature: CoverFeature.OPEN_TILT | CoverFeature.CLOSE_TILT,
    // CoverEntity.async_toggle_tilt: open when fully closed, else close.
    run: (e) => actTilt(e, e.attributes?.current_tilt_position === 0 ? 'open' : 'close'),
  },
  {
    service: 'set_cover_tilt_position',
    name: 'Set tilt position',
    description: 'Moves a cover tilt to a specific position.',
    feature: CoverFeature.SET_TILT_POSITION,
    schema: TILT_POSITION_SCHEMA,
    run: (e, data) => invoke(e, platform(e).setCoverTiltPosition, 'set its tilt position', data.tilt_position as number),
  },
];

export const coverDomain: Domain = {
  name: 'cover',
  restored: true,
  published: true,
  adopted: true,
  registerServices(core: Core): void {
    registerEntityServices(core, 'cover', SERVICES);
  },

  /** Moves only what differs: position (or open/close), then tilt, with the services the cover supports. */
  async reproduceState(core, entityId, desired, context) {
    const entity = core.entities.get(entityId);
    if (entity === undefined) return;
    const features = featuresOf(entity);
    const current = entity.attributes ?? {};
    const call = (service: string, data: Record<string, JsonValue> = {}) =>
      core.services.call('cover', service, { entity_id: entityId, ...data }, { context });
    const a = desired.attributes;
    const position = typeof a.current_position === 'number' ? a.current_position : undefined;
    if (desired.state === 'open' || desired.state === 'opening') {
      if (position !== undefined && features & CoverFeature.SET_POSITION) {
        if (current.current_position !== position) await call('set_cover_position', { position });
      } else if (entity.state !== 'open' && entity.state !== 'opening') await call('open_cover');
    } else if (desired.state === 'closed' || desired.state === 'closing') {
      if (entity.state !== 'closed' && entity.state !== 'closing') await call('close_cover');
    }
    const tilt = typeof a.current_tilt_position === 'number' ? a.current_tilt_position : undefined;
    if (tilt === undefined || current.current_tilt_position === tilt) return;
    if (features & CoverFeature.SET_TILT_POSITION) await call('set_cover_tilt_position', { tilt_position: tilt });
    else if (tilt === 100 && features & CoverFeature.OPEN_TILT) await call('open_cover_tilt');
    else if (tilt === 0 && features & CoverFeature.CLOSE_TILT) await call('close_cover_tilt');
  },
};
