import type { Core } from '../core/core.js';
import type { Entity } from '../core/entities.js';
import { HubError } from '../core/errors.js';
import type { FieldSpec, ServiceSchema, ValidData } from '../core/fields.js';
import type { JsonValue } from '../core/json.js';
import type { ServiceCall } from '../core/services.js';
import {
  type ClimateCapabilities,
  ClimateFeature,
  type ClimatePlatform,
  type ClimateTemperatureParams,
  DEFAULT_MAX_HUMIDITY,
  DEFAULT_MAX_TEMP,
  DEFAULT_MIN_HUMIDITY,
  DEFAULT_MIN_TEMP,
  HVAC_MODES,
  type HvacMode,
} from './climate.js';
import { type Domain, dataOf, featuresOf, platformOf, registerEntityServices, supportsFeature, validationError } from './domain.js';

/** climate's service table and its Domain: Home Assistant's checks of modes and temperatures (the model and rendering are in climate.ts). */

function capabilitiesOf(e: Entity): ClimateCapabilities {
  return dataOf<ClimateCapabilities>(e, 'climate') ?? { hvacModes: [] };
}

/** See supportsFeature: explicitly named entities without the feature are refused, others skipped. */
function supports(e: Entity, call: ServiceCall, feature: number, service: string): boolean {
  return supportsFeature(e, call, feature, 'climate', service);
}

function platform(e: Entity): ClimatePlatform {
  return platformOf<ClimatePlatform>(e, 'climate');
}

function unsupported(e: Entity, what: string): HubError {
  return new HubError('not_supported', `${e.id} cannot ${what}`);
}

/** Python's str() of a float, as Home Assistant's messages print coerced temperatures ("40.0"). */
function pyFloat(n: number): string {
  return Number.isInteger(n) ? n.toFixed(1) : String(n);
}

const MODE_LABEL = {
  hvac: ['HVAC mode', 'HVAC modes'],
  preset: ['Preset mode', 'preset modes'],
  fan: ['Fan mode', 'fan modes'],
  swing: ['Swing mode', 'swing modes'],
} as const;

/** ClimateEntity._valid_mode_or_raise. */
function checkMode(kind: keyof typeof MODE_LABEL, mode: string, modes: readonly string[] | undefined): void {
  if (modes && modes.length > 0 && modes.includes(mode)) return;
  const [one, many] = MODE_LABEL[kind];
  throw validationError(`${one} ${mode} is not valid. Valid ${many} are: ${(modes ?? []).join(', ')}`);
}

/** ClimateEntity.async_turn_on without an override: the only other mode, else heat_cool, heat or cool. */
async function turnOn(e: Entity): Promise<void> {
  const p = platform(e);
  if (p.turnOn) return p.turnOn();
  const modes = capabilitiesOf(e).hvacModes;
  if (modes.length === 2 && modes.includes('off')) {
    const other = modes.find((m) => m !== 'off') as HvacMode;
    return p.setHvacMode(other);
  }
  const mode = (['heat_cool', 'heat', 'cool'] as const).find((m) => modes.includes(m));
  if (mode === undefined) throw unsupported(e, 'be turned on: it has no heat_cool, heat or cool mode');
  return p.setHvacMode(mode);
}

async function turnOff(e: Entity): Promise<void> {
  const p = platform(e);
  if (p.turnOff) return p.turnOff();
  if (!capabilitiesOf(e).hvacModes.includes('off')) throw unsupported(e, 'be turned off: it has no off mode');
  return p.setHvacMode('off');
}

const TEMPERATURE_KEYS = ['temperature', 'target_temp_low', 'target_temp_high'] as const;

/** async_service_temperature_set: feature checks, low <= high, and each temperature within min/max. */
function temperatureParams(e: Entity, data: ValidData): ClimateTemperatureParams {
  const caps = capabilitiesOf(e);
  const features = featuresOf(e);
  if (data.temperature !== undefined && !(features & ClimateFeature.TARGET_TEMPERATURE)) {
    throw validationError('Set temperature action was used with the target temperature parameter but the entity does not support it');
  }
  if (data.target_temp_low !== undefined && !(features & ClimateFeature.TARGET_TEMPERATURE_RANGE)) {
    throw validationError(
      'Set temperature action was used with the target temperature low/high parameter but the entity does not support it',
    );
  }
  const low = data.target_temp_low as number | undefined;
  const high = data.target_temp_high as number | undefined;
  if (low !== undefined && high !== undefined && low > high) {
    throw validationError("'Lower target temperature' cannot be higher than 'Upper target temperature'");
  }
  const min = caps.minTemp ?? DEFAULT_MIN_TEMP;
  const max = caps.maxTemp ?? DEFAULT_MAX_TEMP;
  for (const key of Object.keys(data)) {
    if (!(TEMPERATURE_KEYS as readonly string[]).includes(key)) continue;
    const t = data[key] as number;
    if (t < min || t > max) throw validationError(`Provided temperature ${pyFloat(t)} is not valid. Accepted range is ${min} to ${max}`);
  }
  const hvacMode = data.hvac_mode as HvacMode | undefined;
  if (hvacMode !== undefined) checkMode('hvac', hvacMode, caps.hvacModes);
  return {
    ...(typeof data.temperature === 'number' ? { temperature: data.temperature } : {}),
    ...(low !== undefined ? { targetTempLow: low } : {}),
    ...(high !== undefined ? { targetTempHigh: high } : {}),
    ...(hvacMode !== undefined ? { hvacMode } : {}),
  };
}

const TEMP_FIELD = { kind: 'number', unit: '°C' } as const;
const HVAC_MODE_FIELD: FieldSpec = { kind: 'select', options: HVAC_MODES, description: 'HVAC operation mode.' };
const SET_TEMPERATURE_SCHEMA: ServiceSchema = {
  fields: {
    temperature: { ...TEMP_FIELD, description: 'The temperature setpoint.' },
    target_temp_high: { ...TEMP_FIELD, description: 'The max temperature setpoint (with target_temp_low).' },
    target_temp_low: { ...TEMP_FIELD, description: 'The min temperature setpoint (with target_temp_high).' },
    hvac_mode: HVAC_MODE_FIELD,
  },
  exclusive: [
    ['temperature', 'target_temp_low'],
    ['temperature', 'target_temp_high'],
  ],
  inclusive: [['target_temp_low', 'target_temp_high']],
  atLeastOne: [...TEMPERATURE_KEYS],
};

function modeSchema(key: string, description: string): ServiceSchema {
  return { fields: { [key]: { kind: 'text', required: true, maxLength: 255, description } satisfies FieldSpec } };
}

export const climateDomain: Domain = {
  name: 'climate',
  restored: true,
  published: true,
  adopted: true,
  significantAttributes: true,
  needsAttributes: true,
  registerServices(core: Core): void {
    const reg = (
      service: string,
      name: string,
      description: string,
      schema: ServiceSchema,
      entity: (e: Entity, data: ValidData, call: ServiceCall) => unknown,
    ) => registerEntityServices(core, 'climate', [{ service, name, description, schema, run: entity }]);
    const none = { fields: {} };

    reg('turn_on', 'Turn on', 'Turns climate device on.', none, (e, _d, call) =>
      supports(e, call, ClimateFeature.TURN_ON, 'turn_on') ? turnOn(e) : undefined,
    );
    reg('turn_off', 'Turn off', 'Turns climate device off.', none, (e, _d, call) =>
      supports(e, call, ClimateFeature.TURN_OFF, 'turn_off') ? turnOff(e) : undefined,
    );
    reg('toggle', 'Toggle', 'Toggles climate device, from on to off, or off to on.', none, (e, _d, call) => {
      if (!supports(e, call, ClimateFeature.TURN_ON | ClimateFeature.TURN_OFF, 'toggle')) return undefined;
      return e.state === 'off' ? turnOn(e) : turnOff(e);
    });
    reg(
      'set_hvac_mode',
      'Set HVAC mode',
      'Sets HVAC operation mode.',
      { fields: { hvac_mode: { ...HVAC_MODE_FIELD, required: true } } },
      (e, data) => {
        const mode = data.hvac_mode as HvacMode;
        checkMode('hvac', mode, capabilitiesOf(e).hvacModes);
        return platform(e).setHvacMode(mode);
      },
    );
    reg('set_temperature', 'Set target temperature', 'Sets the temperature setpoint.', SET_TEMPERATURE_SCHEMA, (e, data, call) => {
      const mask = ClimateFeature.TARGET_TEMPERATURE | ClimateFeature.TARGET_TEMPERATURE_RANGE;
      if (!supports(e, call, mask, 'set_temperature')) return undefined;
      return platform(e).setTemperature(temperatureParams(e, data));
    });
    reg(
      'set_humidity',
      'Set target humidity',
      'Sets target humidity.',
      { fields: { humidity: { kind: 'number', integer: true, required: true, unit: '%', description: 'Target humidity.' } } },
      (e, data, call) => {
        if (!supports(e, call, ClimateFeature.TARGET_HUMIDITY, 'set_humidity')) return undefined;
        const caps = capabilitiesOf(e);
        const h = data.humidity as number;
        const min = caps.minHumidity ?? DEFAULT_MIN_HUMIDITY;
        const max = caps.maxHumidity ?? DEFAULT_MAX_HUMIDITY;
        if (h < min || h > max) throw validationError(`Provided humidity ${h} is not valid. Accepted range is ${min} to ${max}`);
        const p = platform(e);
        if (!p.setHumidity) throw unsupported(e, 'set a target humidity');
        return p.setHumidity(h);
      },
    );
    reg('set_preset_mode', 'Set preset mode', 'Sets preset mode.', modeSchema('preset_mode', 'Preset mode.'), (e, data, call) => {
      if (!supports(e, call, ClimateFeature.PRESET_MODE, 'set_preset_mode')) return undefined;
      const mode = data.preset_mode as string;
      checkMode('preset', mode, capabilitiesOf(e).presetModes);
      const p = platform(e);
      if (!p.setPresetMode) throw unsupported(e, 'set a preset mode');
      return p.setPresetMode(mode);
    });
    reg('set_fan_mode', 'Set fan mode', 'Sets fan operation mode.', modeSchema('fan_mode', 'Fan operation mode.'), (e, data, call) => {
      if (!supports(e, call, ClimateFeature.FAN_MODE, 'set_fan_mode')) return undefined;
      const mode = data.fan_mode as string;
      checkMode('fan', mode, capabilitiesOf(e).fanModes);
      const p = platform(e);
      if (!p.setFanMode) throw unsupported(e, 'set a fan mode');
      return p.setFanMode(mode);
    });
    reg(
      'set_swing_mode',
      'Set swing mode',
      'Sets swing operation mode.',
      modeSchema('swing_mode', 'Swing operation mode.'),
      (e, data, call) => {
        if (!supports(e, call, ClimateFeature.SWING_MODE, 'set_swing_mode')) return undefined;
        const mode = data.swing_mode as string;
        checkMode('swing', mode, capabilitiesOf(e).swingModes);
        const p = platform(e);
        if (!p.setSwingMode) throw unsupported(e, 'set a swing mode');
        return p.setSwingMode(mode);
      },
    );
  },

  /** climate/reproduce_state.py: mode first, then preset, temperatures, humidity, fan and swing. */
  async reproduceState(core, entityId, desired, context) {
    const call = (service: string, data: Record<string, JsonValue>) =>
      core.services.call('climate', service, { entity_id: entityId, ...data }, { context });
    const a = desired.attributes;
    if ((HVAC_MODES as readonly string[]).includes(desired.state)) await call('set_hvac_mode', { hvac_mode: desired.state });
    if (typeof a.preset_mode === 'string') await call('set_preset_mode', { preset_mode: a.preset_mode });
    const temps: Record<string, JsonValue> = {};
    for (const key of TEMPERATURE_KEYS) if (typeof a[key] === 'number') temps[key] = a[key];
    // A single target and a range are exclusive in the schema; a state that has both uses the one the mode needs.
    if (temps.temperature !== undefined && temps.target_temp_low !== undefined) {
      if (desired.state === 'heat_cool') delete temps.temperature;
      else {
        delete temps.target_temp_low;
        delete temps.target_temp_high;
      }
    }
    if (temps.target_temp_low === undefined || temps.target_temp_high === undefined) {
      delete temps.target_temp_low;
      delete temps.target_temp_high;
    }
    if (Object.keys(temps).length > 0) await call('set_temperature', temps);
    if (typeof a.humidity === 'number') await call('set_humidity', { humidity: a.humidity });
    if (typeof a.fan_mode === 'string') await call('set_fan_mode', { fan_mode: a.fan_mode });
    if (typeof a.swing_mode === 'string') await call('set_swing_mode', { swing_mode: a.swing_mode });
  },
};
