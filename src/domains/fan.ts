import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import type { FieldSpec, ValidData } from '../core/fields.js';
import type { JsonObject, JsonValue } from '../core/json.js';
import {
  addCapable,
  type CapableHandle,
  callOptional,
  type Domain,
  dataOf,
  type EntityServiceSpec,
  featuresOf,
  platformOf,
  registerEntityServices,
  validationError,
} from './domain.js';

/** FanEntityFeature bits, as Home Assistant numbers them. */
export const FanFeature = {
  SET_SPEED: 1,
  OSCILLATE: 2,
  DIRECTION: 4,
  PRESET_MODE: 8,
  TURN_OFF: 16,
  TURN_ON: 32,
} as const;

export type FanDirection = 'forward' | 'reverse';
export const FAN_DIRECTIONS: readonly FanDirection[] = ['forward', 'reverse'];

/** turn_on after validation: percentage (1-100) and preset mode, each only when the fan supports it. */
export interface FanTurnOnParams {
  readonly percentage?: number;
  readonly presetMode?: string;
}

/** What a fan driver implements; the optional methods belong to feature bits. */
export interface FanPlatform {
  turnOn(params: FanTurnOnParams): void | Promise<void>;
  turnOff(): void | Promise<void>;
  /** 1-100; 0 never reaches the platform (it turns the fan off). */
  setPercentage?(percentage: number): void | Promise<void>;
  setPresetMode?(mode: string): void | Promise<void>;
  oscillate?(oscillating: boolean): void | Promise<void>;
  setDirection?(direction: FanDirection): void | Promise<void>;
}

export interface FanModel {
  /** null when not known (`unknown`). */
  readonly on: boolean | null;
  readonly percentage?: number | null;
  readonly presetMode?: string | null;
  readonly oscillating?: boolean | null;
  readonly direction?: FanDirection | null;
}

export interface FanCapabilities {
  /** Number of discrete speeds (percentage_step = 100 / speedCount); absent for an on/off fan. */
  readonly speedCount?: number;
  readonly presetModes?: readonly string[];
  readonly oscillate?: boolean;
  readonly direction?: boolean;
  /** Defaults to what the rest of the capabilities imply. */
  readonly supportedFeatures?: number;
}

export interface FanOptions extends Omit<EntityInit<FanPlatform>, 'fixed'> {
  readonly capabilities: FanCapabilities;
  readonly icon?: string;
}

export function fanFeatures(caps: FanCapabilities): number {
  if (caps.supportedFeatures !== undefined) return caps.supportedFeatures;
  let f = FanFeature.TURN_ON | FanFeature.TURN_OFF;
  if (caps.speedCount !== undefined && caps.speedCount > 0) f |= FanFeature.SET_SPEED;
  if (caps.presetModes && caps.presetModes.length > 0) f |= FanFeature.PRESET_MODE;
  if (caps.oscillate) f |= FanFeature.OSCILLATE;
  if (caps.direction) f |= FanFeature.DIRECTION;
  return f;
}

function speedCountOf(caps: FanCapabilities): number {
  return caps.speedCount !== undefined && caps.speedCount > 0 ? caps.speedCount : 100;
}

export function fanFixedAttributes(caps: FanCapabilities, features: number, icon: string | undefined): JsonObject {
  const out: Record<string, JsonValue> = {};
  if (features & (FanFeature.SET_SPEED | FanFeature.PRESET_MODE)) out.preset_modes = caps.presetModes ? [...caps.presetModes] : null;
  if (icon) out.icon = icon;
  out.supported_features = features;
  return out;
}

/** FanEntity.state_attributes: only the keys of the features the fan has. */
export function fanStateAttributes(caps: FanCapabilities, features: number, model: FanModel): JsonObject {
  const out: Record<string, JsonValue> = {};
  if (features & FanFeature.DIRECTION) out.direction = model.direction ?? null;
  if (features & FanFeature.OSCILLATE) out.oscillating = model.oscillating ?? null;
  if (features & FanFeature.SET_SPEED) {
    out.percentage = model.percentage ?? null;
    out.percentage_step = 100 / speedCountOf(caps);
  }
  if (features & (FanFeature.SET_SPEED | FanFeature.PRESET_MODE)) out.preset_mode = model.presetMode ?? null;
  return out;
}

export type FanHandle = CapableHandle<FanPlatform, FanCapabilities, FanModel>;

export function addFan(core: Core, options: FanOptions): FanHandle {
  const caps = options.capabilities;
  const features = fanFeatures(caps);
  return addCapable(core, options, fanFixedAttributes(caps, features, options.icon), (model: FanModel) => [
    model.on === null ? null : model.on ? 'on' : 'off',
    fanStateAttributes(caps, features, model),
  ]);
}

/** Home Assistant's percentage_to_ranged_value / ranged_value_to_percentage for speeds 1..count. */
export function speedOfPercentage(count: number, percentage: number): number {
  return Math.ceil((count * percentage) / 100);
}
export function percentageOfSpeed(count: number, speed: number): number {
  return Math.floor((speed * 100) / count);
}

function capabilitiesOf(e: Entity): FanCapabilities {
  return dataOf<FanCapabilities>(e, 'fan') ?? {};
}

function platform(e: Entity): FanPlatform {
  return platformOf<FanPlatform>(e, 'fan');
}

/** FanEntity._valid_preset_mode_or_raise (NotValidPresetModeError). */
function checkPreset(e: Entity, mode: string): void {
  const modes = capabilitiesOf(e).presetModes;
  if (modes?.includes(mode)) return;
  throw validationError(`Preset mode ${mode} is not valid, valid preset modes are: ${(modes ?? []).join(', ')}`);
}

/** FanEntity.async_set_percentage: 0 turns the fan off. */
function setPercentage(e: Entity, percentage: number): void | Promise<void> {
  const p = platform(e);
  if (percentage === 0) return p.turnOff();
  return p.setPercentage ? p.setPercentage(percentage) : p.turnOn({ percentage });
}

/** FanEntity._async_adjust_speed: one speed (or percentage_step) up or down, clamped to 0-100. */
function adjustSpeed(e: Entity, direction: 1 | -1, step: number | undefined): void | Promise<void> {
  const current = typeof e.attributes?.percentage === 'number' ? e.attributes.percentage : 0;
  let next: number;
  if (step !== undefined) next = current + step * direction;
  else {
    const count = speedCountOf(capabilitiesOf(e));
    next = percentageOfSpeed(count, speedOfPercentage(count, current) + direction);
  }
  return setPercentage(e, Math.max(0, Math.min(100, next)));
}

function turnOn(e: Entity, data: ValidData): void | Promise<void> {
  const features = featuresOf(e);
  const params: { percentage?: number; presetMode?: string } = {};
  if (typeof data.preset_mode === 'string') {
    checkPreset(e, data.preset_mode);
    params.presetMode = data.preset_mode;
  }
  if (typeof data.percentage === 'number' && features & FanFeature.SET_SPEED) {
    if (data.percentage === 0 && params.presetMode === undefined) return platform(e).turnOff();
    if (data.percentage > 0) params.percentage = data.percentage;
  }
  return platform(e).turnOn(params);
}

function optional<A extends unknown[]>(e: Entity, fn: ((...args: A) => void | Promise<void>) | undefined, what: string, ...args: A) {
  return callOptional(e, platform(e), fn, what, ...args);
}

const PERCENTAGE: FieldSpec = {
  kind: 'number',
  integer: true,
  min: 0,
  max: 100,
  unit: '%',
  description: 'Speed of the fan; 0 turns it off.',
};
const PRESET_MODE: FieldSpec = { kind: 'text', maxLength: 255, description: 'Preset mode.' };

const SERVICES: readonly EntityServiceSpec[] = [
  {
    service: 'turn_on',
    name: 'Turn on',
    description: 'Turns fan on.',
    feature: FanFeature.TURN_ON,
    fields: { percentage: PERCENTAGE, preset_mode: PRESET_MODE },
    run: turnOn,
  },
  { service: 'turn_off', name: 'Turn off', description: 'Turns fan off.', feature: FanFeature.TURN_OFF, run: (e) => platform(e).turnOff() },
  {
    service: 'toggle',
    name: 'Toggle',
    description: 'Toggles a fan on/off.',
    feature: FanFeature.TURN_ON | FanFeature.TURN_OFF,
    run: (e) => (e.state === 'on' ? platform(e).turnOff() : platform(e).turnOn({})),
  },
  {
    service: 'set_percentage',
    name: 'Set speed',
    description: 'Sets the fan speed.',
    feature: FanFeature.SET_SPEED,
    fields: { percentage: { ...PERCENTAGE, required: true } },
    run: (e, data) => setPercentage(e, data.percentage as number),
  },
  {
    service: 'increase_speed',
    name: 'Increase speed',
    description: 'Increases the speed of a fan.',
    feature: FanFeature.SET_SPEED,
    fields: { percentage_step: { ...PERCENTAGE, description: 'Percentage step by which the speed should be increased.' } },
    run: (e, data) => adjustSpeed(e, 1, data.percentage_step as number | undefined),
  },
  {
    service: 'decrease_speed',
    name: 'Decrease speed',
    description: 'Decreases the speed of a fan.',
    feature: FanFeature.SET_SPEED,
    fields: { percentage_step: { ...PERCENTAGE, description: 'Percentage step by which the speed should be decreased.' } },
    run: (e, data) => adjustSpeed(e, -1, data.percentage_step as number | undefined),
  },
  {
    service: 'set_preset_mode',
    name: 'Set preset mode',
    description: 'Sets preset fan mode.',
    feature: FanFeature.PRESET_MODE,
    fields: { preset_mode: { ...PRESET_MODE, required: true } },
    run: (e, data) => {
      const mode = data.preset_mode as string;
      checkPreset(e, mode);
      const p = platform(e);
      return p.setPresetMode ? p.setPresetMode(mode) : p.turnOn({ presetMode: mode });
    },
  },
  {
    service: 'oscillate',
    name: 'Oscillate',
    description: 'Controls the oscillation of a fan.',
    feature: FanFeature.OSCILLATE,
    fields: { oscillating: { kind: 'boolean', required: true, description: 'Turns oscillation on/off.' } },
    run: (e, data) => optional(e, platform(e).oscillate, 'oscillate', data.oscillating as boolean),
  },
  {
    service: 'set_direction',
    name: 'Set direction',
    description: 'Sets a fan’s rotation direction.',
    feature: FanFeature.DIRECTION,
    fields: { direction: { kind: 'select', options: FAN_DIRECTIONS, required: true, description: 'Direction of the fan rotation.' } },
    run: (e, data) => optional(e, platform(e).setDirection, 'change direction', data.direction as FanDirection),
  },
];

export const fanDomain: Domain = {
  name: 'fan',
  restored: true,
  published: true,
  adopted: true,
  registerServices(core: Core): void {
    registerEntityServices(core, 'fan', SERVICES);
  },

  /** fan/reproduce_state.py: off turns off; on turns on (with preset or speed), then oscillation and direction. */
  async reproduceState(core, entityId, desired, context) {
    const call = (service: string, data: Record<string, JsonValue> = {}) =>
      core.services.call('fan', service, { entity_id: entityId, ...data }, { context });
    const entity = core.entities.get(entityId);
    if (entity === undefined) return;
    if (desired.state === 'off') {
      if (entity.state !== 'off') await call('turn_off');
      return;
    }
    if (desired.state !== 'on') return;
    const features = featuresOf(entity);
    const a = desired.attributes;
    const current = entity.attributes ?? {};
    if (typeof a.preset_mode === 'string' && features & FanFeature.PRESET_MODE) {
      if (entity.state !== 'on' || current.preset_mode !== a.preset_mode) await call('turn_on', { preset_mode: a.preset_mode });
    } else if (typeof a.percentage === 'number' && a.percentage > 0 && features & FanFeature.SET_SPEED) {
      if (entity.state !== 'on' || current.percentage !== a.percentage) await call('turn_on', { percentage: a.percentage });
    } else if (entity.state !== 'on') await call('turn_on');
    if (typeof a.oscillating === 'boolean' && features & FanFeature.OSCILLATE && current.oscillating !== a.oscillating) {
      await call('oscillate', { oscillating: a.oscillating });
    }
    if ((a.direction === 'forward' || a.direction === 'reverse') && features & FanFeature.DIRECTION && current.direction !== a.direction) {
      await call('set_direction', { direction: a.direction });
    }
  },
};
