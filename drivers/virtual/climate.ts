import type { ConfigReader } from '../../src/config/reader.js';
import { isJsonObject } from '../../src/core/json.js';
import {
  addClimate,
  type ClimateModel,
  type ClimateTemperatureParams,
  DEFAULT_MAX_HUMIDITY,
  DEFAULT_MAX_TEMP,
  DEFAULT_MIN_HUMIDITY,
  DEFAULT_MIN_TEMP,
  HVAC_MODES,
  type HvacAction,
  type HvacMode,
} from '../../src/domains/climate.js';
import type { VirtualPlatform } from './types.js';

interface VirtualClimateOptions {
  readonly hvacModes: HvacMode[];
  readonly hvacMode: HvacMode;
  readonly temperature: number;
  readonly targetTempLow: number;
  readonly targetTempHigh: number;
  readonly currentTemperature: number;
  /** Where the room drifts to when nothing heats or cools it. */
  readonly ambient: number;
  readonly minTemp: number;
  readonly maxTemp: number;
  readonly step: number;
  /** °C per minute while heating or cooling. */
  readonly heatRate: number;
  /** °C per minute towards ambient while idle. */
  readonly driftRate: number;
  /** How far below (above) the target the room may fall (rise) before heating (cooling) starts again. */
  readonly tolerance: number;
  /** Seconds between simulation steps. */
  readonly interval: number;
  readonly fanModes: string[] | undefined;
  readonly swingModes: string[] | undefined;
  readonly presets: string[] | undefined;
  /** The starting preset; the first one when not given. */
  readonly presetMode: string | undefined;
  /** Target temperatures that selecting a preset applies. */
  readonly presetTemperatures: Readonly<Record<string, number>>;
  readonly currentHumidity: number | undefined;
  readonly targetHumidity: number | undefined;
  readonly minHumidity: number;
  readonly maxHumidity: number;
}

/** `presets` is a list of names, or a mapping of name to the target temperature the preset sets. */
function readPresets(r: ConfigReader, min: number, max: number): { names: string[] | undefined; temps: Record<string, number> } {
  const raw = r.value.presets;
  if (isJsonObject(raw)) {
    const child = r.child('presets');
    // Looked up by the preset a client sets: no prototype, so a preset named `constructor` has no temperature.
    const temps = Object.create(null) as Record<string, number>;
    for (const name of Object.keys(raw)) {
      if (raw[name] === null) continue;
      const t = child?.number(name, { min, max });
      if (t !== undefined) temps[name] = t;
    }
    return { names: Object.keys(raw), temps };
  }
  return { names: r.stringList('presets'), temps: Object.create(null) as Record<string, number> };
}

function nonEmpty(r: ConfigReader, key: string, list: string[] | undefined): string[] | undefined {
  if (list !== undefined && list.length === 0) {
    r.problem(key, 'must list at least one mode');
    return undefined;
  }
  return list;
}

/** What the heating or cooling does, with hysteresis: it runs until the target is reached, restarts past the tolerance. */
function thermostatAction(mode: HvacMode, was: HvacAction, current: number, s: SimState, tolerance: number): HvacAction {
  const heatTo = (target: number): boolean => (was === 'heating' ? current < target : current <= target - tolerance);
  const coolTo = (target: number): boolean => (was === 'cooling' ? current > target : current >= target + tolerance);
  switch (mode) {
    case 'off':
      return 'off';
    case 'dry':
      return 'drying';
    case 'fan_only':
      return 'fan';
    case 'heat':
      return heatTo(s.target) ? 'heating' : 'idle';
    case 'cool':
      return coolTo(s.target) ? 'cooling' : 'idle';
    case 'auto':
      return heatTo(s.target) ? 'heating' : coolTo(s.target) ? 'cooling' : 'idle';
    case 'heat_cool':
      return heatTo(s.low) ? 'heating' : coolTo(s.high) ? 'cooling' : 'idle';
  }
}

interface SimState {
  mode: HvacMode;
  lastOnMode: HvacMode;
  action: HvacAction;
  current: number;
  target: number;
  low: number;
  high: number;
  humidity: number | undefined;
  targetHumidity: number | undefined;
  fan: string | undefined;
  preset: string | undefined;
  swing: string | undefined;
}

/**
 * A room thermostat: heats or cools the room toward its target at a steady rate, with hysteresis, and
 * otherwise lets the room drift toward the ambient temperature with a little noise.
 */
export const virtualClimate: VirtualPlatform<VirtualClimateOptions> = {
  domain: 'climate',
  parse(r) {
    const hvacModes = (nonEmpty(r, 'hvac_modes', r.stringList('hvac_modes', { options: HVAC_MODES })) as HvacMode[] | undefined) ?? [
      'off',
      'heat',
    ];
    const firstOn = hvacModes.includes('heat') ? 'heat' : (hvacModes.find((m) => m !== 'off') ?? hvacModes[0] ?? 'off');
    let hvacMode = r.oneOf('hvac_mode', HVAC_MODES, firstOn);
    if (!hvacModes.includes(hvacMode)) {
      r.problem('hvac_mode', `${JSON.stringify(hvacMode)} is not allowed: expected one of hvac_modes (${hvacModes.join(', ')})`);
      hvacMode = firstOn;
    }
    const minTemp = r.number('min_temp', { min: -50, max: 100, default: DEFAULT_MIN_TEMP });
    let maxTemp = r.number('max_temp', { min: -50, max: 100, default: DEFAULT_MAX_TEMP });
    if (maxTemp <= minTemp) {
      r.problem('max_temp', `must be above min_temp (${minTemp})`);
      maxTemp = minTemp + 1;
    }
    const target = { min: minTemp, max: maxTemp };
    const targetTempLow = r.number('target_temp_low', { ...target, default: Math.max(minTemp, Math.min(maxTemp, 19)) });
    let targetTempHigh = r.number('target_temp_high', { ...target, default: Math.max(minTemp, Math.min(maxTemp, 24)) });
    if (targetTempHigh < targetTempLow) {
      r.problem('target_temp_high', `must not be below target_temp_low (${targetTempLow})`);
      targetTempHigh = targetTempLow;
    }
    const presets = readPresets(r, minTemp, maxTemp);
    let presetMode = r.string('preset_mode');
    if (presetMode !== undefined && !presets.names?.includes(presetMode)) {
      r.problem(
        'preset_mode',
        `${JSON.stringify(presetMode)} is not allowed: expected one of presets (${(presets.names ?? []).join(', ')})`,
      );
      presetMode = undefined;
    }
    // A starting preset with a temperature sets the starting target, unless one is given.
    const presetTemp = presetMode === undefined ? undefined : presets.temps[presetMode];
    const minHumidity = r.number('min_humidity', { min: 0, max: 100, default: DEFAULT_MIN_HUMIDITY });
    const maxHumidity = r.number('max_humidity', { min: 0, max: 100, default: DEFAULT_MAX_HUMIDITY });
    return {
      hvacModes,
      hvacMode,
      temperature: r.number('temperature', { ...target, default: presetTemp ?? Math.max(minTemp, Math.min(maxTemp, 21)) }),
      targetTempLow,
      targetTempHigh,
      currentTemperature: r.number('current_temperature', { min: -50, max: 100, default: 19.5 }),
      ambient: r.number('ambient', { min: -50, max: 100, default: 17 }),
      minTemp,
      maxTemp,
      step: r.number('target_temp_step', { min: 0.1, max: 5, default: 0.5 }),
      heatRate: r.number('heat_rate', { min: 0.001, max: 100_000, default: 0.6 }),
      driftRate: r.number('drift_rate', { min: 0, max: 100_000, default: 0.1 }),
      tolerance: r.number('tolerance', { min: 0, max: 10, default: 0.3 }),
      interval: r.number('interval', { min: 0.01, max: 3600, default: 5 }),
      fanModes: nonEmpty(r, 'fan_modes', r.stringList('fan_modes')),
      swingModes: nonEmpty(r, 'swing_modes', r.stringList('swing_modes')),
      presets: nonEmpty(r, 'presets', presets.names),
      presetMode,
      presetTemperatures: presets.temps,
      currentHumidity: r.number('current_humidity', { min: 0, max: 100 }),
      targetHumidity: r.number('target_humidity', { min: minHumidity, max: maxHumidity, integer: true }),
      minHumidity,
      maxHumidity,
    };
  },

  create(ctx, { entityId, name }, o) {
    const s: SimState = {
      mode: o.hvacMode,
      lastOnMode: o.hvacMode !== 'off' ? o.hvacMode : (o.hvacModes.find((m) => m !== 'off') ?? 'off'),
      action: 'idle',
      current: o.currentTemperature,
      target: o.temperature,
      low: o.targetTempLow,
      high: o.targetTempHigh,
      humidity: o.currentHumidity,
      targetHumidity: o.targetHumidity,
      fan: o.fanModes?.[0],
      preset: o.presetMode ?? o.presets?.[0],
      swing: o.swingModes?.[0],
    };
    const usesRange = (mode: HvacMode) => mode === 'heat_cool';
    const model = (): ClimateModel => ({
      hvacMode: s.mode,
      hvacAction: s.action,
      currentTemperature: s.current,
      targetTemperature: s.mode === 'off' || usesRange(s.mode) ? null : s.target,
      targetTempLow: usesRange(s.mode) ? s.low : null,
      targetTempHigh: usesRange(s.mode) ? s.high : null,
      currentHumidity: s.humidity === undefined ? null : Math.round(s.humidity),
      targetHumidity: s.targetHumidity ?? null,
      fanMode: s.fan ?? null,
      presetMode: s.preset ?? null,
      swingMode: s.swing ?? null,
    });
    const decide = () => {
      s.action = thermostatAction(s.mode, s.action, s.current, s, o.tolerance);
    };
    const update = () => {
      decide();
      climate.report(model());
    };
    const setMode = (mode: HvacMode) => {
      s.mode = mode;
      if (mode !== 'off') s.lastOnMode = mode;
      update();
    };
    // A manual setpoint leaves a temperature preset for "none", when the device has that preset.
    const leavePreset = () => {
      if (s.preset !== undefined && o.presetTemperatures[s.preset] !== undefined && o.presets?.includes('none')) s.preset = 'none';
    };

    const climate = addClimate(ctx.core, {
      entityId,
      name,
      owner: ctx.owner,
      capabilities: {
        hvacModes: o.hvacModes,
        minTemp: o.minTemp,
        maxTemp: o.maxTemp,
        targetTempStep: o.step,
        humidity: o.targetHumidity !== undefined,
        minHumidity: o.minHumidity,
        maxHumidity: o.maxHumidity,
        fanModes: o.fanModes,
        presetModes: o.presets,
        swingModes: o.swingModes,
      },
      platform: {
        setHvacMode: setMode,
        setTemperature(p: ClimateTemperatureParams) {
          if (p.hvacMode !== undefined) {
            s.mode = p.hvacMode;
            if (p.hvacMode !== 'off') s.lastOnMode = p.hvacMode;
          }
          if (p.temperature !== undefined) s.target = p.temperature;
          if (p.targetTempLow !== undefined) s.low = p.targetTempLow;
          if (p.targetTempHigh !== undefined) s.high = p.targetTempHigh;
          leavePreset();
          update();
        },
        setHumidity(h) {
          s.targetHumidity = h;
          update();
        },
        setFanMode(mode) {
          s.fan = mode;
          update();
        },
        setSwingMode(mode) {
          s.swing = mode;
          update();
        },
        setPresetMode(mode) {
          s.preset = mode;
          const t = o.presetTemperatures[mode];
          if (t !== undefined) s.target = t;
          update();
        },
        turnOn() {
          setMode(s.lastOnMode);
        },
        turnOff() {
          setMode('off');
        },
      },
    });

    const perStep = o.interval / 60;
    const tick = () => {
      decide();
      if (s.action === 'heating') s.current += o.heatRate * perStep;
      else if (s.action === 'cooling') s.current -= o.heatRate * perStep;
      else {
        // Idle rooms drift toward ambient; the noise keeps the reading from looking canned.
        const gap = o.ambient - s.current;
        const drift = Math.min(Math.abs(gap), o.driftRate * perStep * (0.5 + ctx.random()));
        s.current += Math.sign(gap) * drift;
      }
      // Heating stops on reaching the target, so the reading settles on it rather than overshooting.
      const heatTarget = s.mode === 'heat_cool' ? s.low : s.target;
      const coolTarget = s.mode === 'heat_cool' ? s.high : s.target;
      if (s.action === 'heating' && s.current > heatTarget) s.current = heatTarget;
      if (s.action === 'cooling' && s.current < coolTarget) s.current = coolTarget;
      if (s.humidity !== undefined) {
        const pull = s.action === 'drying' ? -2 * perStep : 0;
        s.humidity = Math.min(95, Math.max(15, s.humidity + pull + (ctx.random() - 0.5) * 0.4));
      }
      update();
    };
    ctx.timers.interval(tick, o.interval * 1000);
    update();
  },
};
