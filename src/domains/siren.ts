import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import type { FieldSpec, ValidData } from '../core/fields.js';
import type { JsonValue } from '../core/json.js';
import { type Domain, dataOf, platformOf, registerEntityServices, validationError } from './domain.js';

/** SirenEntityFeature bits. */
export const SirenFeature = { TURN_ON: 1, TURN_OFF: 2, TONES: 4, VOLUME_SET: 8, DURATION: 16 } as const;

/** What siren.turn_on passes on, each only when the siren supports it (siren/__init__.py process_turn_on_params). */
export interface SirenTurnOn {
  readonly tone?: string;
  /** 0..1. */
  readonly volumeLevel?: number;
  /** Seconds. */
  readonly duration?: number;
}

/** What a siren driver implements. */
export interface SirenPlatform {
  turnOn(params: SirenTurnOn): void | Promise<void>;
  turnOff(): void | Promise<void>;
}

export interface SirenOptions extends Omit<EntityInit<SirenPlatform>, 'fixed'> {
  /** The tones turn_on accepts (the `available_tones` attribute); given, the siren supports TONES. */
  readonly availableTones?: readonly string[];
  readonly volumeSet?: boolean;
  readonly duration?: boolean;
  readonly icon?: string;
}

interface SirenData {
  readonly tones: readonly string[] | undefined;
}

export interface SirenHandle {
  readonly entity: Entity<SirenPlatform>;
  /** Whether it sounds; null when not known (`unknown`). */
  report(on: boolean | null): void;
}

export function addSiren(core: Core, options: SirenOptions): SirenHandle {
  const tones = options.availableTones !== undefined && options.availableTones.length > 0 ? options.availableTones : undefined;
  let features = SirenFeature.TURN_ON | SirenFeature.TURN_OFF;
  if (tones) features |= SirenFeature.TONES;
  if (options.volumeSet) features |= SirenFeature.VOLUME_SET;
  if (options.duration) features |= SirenFeature.DURATION;
  // Home Assistant's order: capability attributes (available_tones), then icon, then supported_features.
  const fixed: Record<string, JsonValue> = {};
  if (tones) fixed.available_tones = [...tones];
  if (options.icon) fixed.icon = options.icon;
  fixed.supported_features = features;
  const entity = core.entities.add<SirenPlatform, SirenData>({ ...options, fixed, data: { tones } });
  return {
    entity,
    report(on) {
      entity.report(on === null ? null : on ? 'on' : 'off');
    },
  };
}

/** process_turn_on_params: drops what the siren does not support, refuses a tone it does not have. */
function turnOnParams(e: Entity, data: ValidData): SirenTurnOn {
  const features = typeof e.fixed.supported_features === 'number' ? e.fixed.supported_features : 0;
  const out: { -readonly [K in keyof SirenTurnOn]: SirenTurnOn[K] } = {};
  if (features & SirenFeature.TONES && data.tone !== undefined) {
    const tone = String(data.tone);
    const tones = dataOf<SirenData>(e, 'siren')?.tones ?? [];
    if (!tones.includes(tone)) {
      throw validationError(`Invalid tone specified for entity ${e.id}: ${tone}, check the available_tones attribute for valid tones`);
    }
    out.tone = tone;
  }
  if (features & SirenFeature.VOLUME_SET && typeof data.volume_level === 'number') out.volumeLevel = data.volume_level;
  if (features & SirenFeature.DURATION && typeof data.duration === 'number') out.duration = data.duration;
  return out;
}

const TURN_ON_FIELDS: Readonly<Record<string, FieldSpec>> = {
  tone: { kind: 'text', description: 'The tone to emit. When `available_tones` is a map, either the key or the value can be used.' },
  volume_level: { kind: 'number', min: 0, max: 1, step: 0.05, description: 'The volume, 0 to 1.' },
  duration: { kind: 'number', min: 0, integer: true, unit: 's', description: 'Number of seconds the sound is played.' },
};

const platform = (e: Entity) => platformOf<SirenPlatform>(e, 'siren');

export const sirenDomain: Domain = {
  name: 'siren',
  registerServices(core: Core): void {
    registerEntityServices(core, 'siren', [
      {
        service: 'turn_on',
        name: 'Turn on',
        description: 'Turns the siren on.',
        feature: SirenFeature.TURN_ON,
        fields: TURN_ON_FIELDS,
        run: (e, data) => platform(e).turnOn(turnOnParams(e, data)),
      },
      {
        service: 'turn_off',
        name: 'Turn off',
        description: 'Turns the siren off.',
        feature: SirenFeature.TURN_OFF,
        run: (e) => platform(e).turnOff(),
      },
      {
        service: 'toggle',
        name: 'Toggle',
        description: 'Toggles the siren on/off.',
        feature: { all: SirenFeature.TURN_ON | SirenFeature.TURN_OFF },
        run: (e) => (e.state === 'on' ? platform(e).turnOff() : platform(e).turnOn({})),
      },
    ]);
  },
};
