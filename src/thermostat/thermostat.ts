import type { Core } from '../core/core.js';
import { UNAVAILABLE, UNKNOWN } from '../core/entities.js';
import { slugify } from '../core/entity-id.js';
import type { JsonObject } from '../core/json.js';
import type { Logger } from '../core/log.js';
import type { State } from '../core/state.js';
import {
  addClimate,
  type ClimateHandle,
  type ClimatePlatform,
  type ClimateTemperatureParams,
  DEFAULT_MAX_TEMP,
  DEFAULT_MIN_TEMP,
  type HvacMode,
} from '../domains/climate.js';
import type { Scheduler } from '../util/scheduler.js';
import type { ThermostatConfig } from './config.js';

const PRESET_NONE = 'none';

export interface ThermostatEnv {
  readonly core: Core;
  readonly log: Logger;
  readonly scheduler: Scheduler;
  readonly owner: string;
  /** The restore-state store's last state of an entity (Home Assistant's async_get_last_state). */
  readonly lastState: (entityId: string) => { readonly state: string; readonly attributes?: JsonObject } | undefined;
}

interface ControlOptions {
  /** A user changed the mode, target or preset: min_cycle_duration does not hold the switch. */
  readonly force?: boolean;
  /** The keep_alive interval: the current command is sent again. */
  readonly keepAlive?: boolean;
}

/**
 * One generic_thermostat (Home Assistant's generic_thermostat/climate.py): a climate entity that switches a heater
 * (or, with ac_mode, a cooler) through homeassistant.turn_on/turn_off from a temperature sensor. Heating starts when
 * the temperature is at or below target - cold_tolerance and stops at or above target + hot_tolerance.
 * Control runs one at a time (Home Assistant's _temp_lock), since each switch command is awaited.
 */
export class Thermostat {
  readonly entityId: string;
  private readonly handle: ClimateHandle;
  private readonly minTemp: number;
  private readonly maxTemp: number;
  private readonly presets: ReadonlyMap<string, number>;
  private readonly presetOf = new Map<number, string>();
  private mode: HvacMode = 'off';
  private target: number | null;
  private savedTarget: number | null;
  private preset = PRESET_NONE;
  private current: number | null = null;
  /** Both a temperature and a target have been known: until then nothing is switched. */
  private active = false;
  /** Why the sensor gives no temperature (unavailable, unknown, stalled); logged once per fault. */
  private fault: string | undefined;
  private checkTimer: unknown;
  private keepAliveTimer: unknown;
  private staleTimer: unknown;
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly env: ThermostatEnv,
    private readonly config: ThermostatConfig,
  ) {
    this.minTemp = config.minTemp ?? DEFAULT_MIN_TEMP;
    this.maxTemp = config.maxTemp ?? DEFAULT_MAX_TEMP;
    this.presets = new Map(config.presets);
    // Home Assistant's _presets_inv: a later preset with the same temperature wins.
    for (const [name, t] of config.presets) this.presetOf.set(t, name);
    this.target = config.targetTemp ?? null;
    this.savedTarget = config.targetTemp ?? config.presets[0]?.[1] ?? null;
    const precision = config.precision ?? 0.1;
    const platform: ClimatePlatform & { restoreState(): void } = {
      setHvacMode: (mode) => this.serial(async () => this.applyMode(mode)),
      setTemperature: (params) => this.serial(() => this.applyTemperature(params)),
      setPresetMode: (preset) => this.serial(() => this.applyPreset(preset)),
      // The last state was read at start (as Home Assistant does before the first write): nothing more to restore.
      restoreState: () => undefined,
    };
    this.handle = addClimate(env.core, {
      entityId: `climate.${slugify(config.name) || 'generic_thermostat'}`,
      owner: env.owner,
      platform,
      name: config.name,
      uniqueId: config.uniqueId,
      capabilities: {
        hvacModes: config.acMode ? ['cool', 'off'] : ['heat', 'off'],
        minTemp: this.minTemp,
        maxTemp: this.maxTemp,
        precision,
        targetTempStep: config.targetTempStep ?? precision,
        presetModes: config.presets.length > 0 ? [PRESET_NONE, ...this.presets.keys()] : undefined,
      },
    });
    this.entityId = this.handle.entity.id;
  }

  /** Restores the last target, preset and mode, reads the sensor and the switch, and starts the timers. */
  start(): void {
    const { core } = this.env;
    this.restore();
    const sensor = core.states.get(this.config.sensor);
    if (sensor !== undefined) this.readSensor(sensor);
    this.armStale();
    if (this.config.keepAliveMs !== undefined) this.armKeepAlive(this.config.keepAliveMs);
    this.write();
    const heater = core.states.get(this.config.heater);
    if (heater !== undefined && heater.state !== UNAVAILABLE && heater.state !== UNKNOWN)
      void this.serial(() => this.checkSwitchInitialState());
    // Home Assistant waits for the next sensor change; deciding now brings a restored thermostat back to work at once.
    void this.serial(() => this.control());
  }

  stop(): Promise<void> {
    this.stopped = true;
    const { scheduler } = this.env;
    for (const timer of [this.checkTimer, this.keepAliveTimer, this.staleTimer]) if (timer !== undefined) scheduler.clear(timer);
    return this.queue;
  }

  /** A state changed: the sensor's drives control, the switch's changes hvac_action. */
  stateChanged(entityId: string, next: State | null, previous: State | null): void {
    if (this.stopped) return;
    if (entityId === this.config.sensor) {
      this.armStale();
      this.readSensor(next);
      void this.serial(() => this.control());
      this.write();
    }
    if (entityId === this.config.heater && next !== null) {
      if (previous === null) void this.serial(() => this.checkSwitchInitialState());
      this.write();
    }
  }

  /** Home Assistant's async_added_to_hass: configured values win over the stored ones. */
  private restore(): void {
    const stored = this.env.lastState(this.entityId);
    const fallback = this.config.acMode ? this.maxTemp : this.minTemp;
    if (stored !== undefined) {
      if (this.target === null) {
        const t = stored.attributes?.temperature;
        if (typeof t === 'number') this.target = t;
        else {
          this.target = fallback;
          this.env.log.warn({ entity_id: this.entityId }, `Undefined target temperature, falling back to ${fallback}`);
        }
      }
      const preset = stored.attributes?.preset_mode;
      if (typeof preset === 'string' && (preset === PRESET_NONE || this.presets.has(preset))) this.preset = preset;
      const modes = this.handle.capabilities.hvacModes as readonly string[];
      if (this.config.initialHvacMode === undefined && modes.includes(stored.state)) this.mode = stored.state as HvacMode;
    } else if (this.target === null) {
      this.target = fallback;
      this.env.log.warn({ entity_id: this.entityId }, `No previously saved temperature, setting to ${fallback}`);
    }
    if (this.config.initialHvacMode !== undefined) this.mode = this.config.initialHvacMode;
  }

  private serial(fn: () => Promise<void>): Promise<void> {
    const run = this.queue.then(fn);
    this.queue = run.catch((err: unknown) => this.env.log.error({ err, entity_id: this.entityId }, 'thermostat control failed'));
    return run;
  }

  private async applyMode(mode: HvacMode): Promise<void> {
    await this.setMode(mode);
    this.write();
  }

  private async setMode(mode: HvacMode): Promise<void> {
    this.mode = mode;
    if (mode === 'off') {
      if (this.heaterOn()) await this.switchHeater(false);
    } else await this.control({ force: true });
  }

  private async applyTemperature(params: ClimateTemperatureParams): Promise<void> {
    if (params.hvacMode !== undefined) await this.setMode(params.hvacMode);
    const t = params.temperature;
    if (t !== undefined) {
      this.preset = this.presetOf.get(t) ?? PRESET_NONE;
      this.target = t;
      await this.control({ force: true });
    }
    this.write();
  }

  private async applyPreset(preset: string): Promise<void> {
    if (preset === this.preset) return;
    if (preset === PRESET_NONE) this.target = this.savedTarget;
    else {
      if (this.preset === PRESET_NONE) this.savedTarget = this.target;
      this.target = this.presets.get(preset) ?? this.target;
    }
    this.preset = preset;
    await this.control({ force: true });
    this.write();
  }

  /** Home Assistant's _async_update_temp; a sensor without a number is a fault that turns the heater off. */
  private readSensor(state: State | null): void {
    if (state === null || state.state === UNAVAILABLE || state.state === UNKNOWN) {
      this.sensorFault(state === null ? 'removed' : state.state);
      return;
    }
    const text = state.state.trim();
    const n = text === '' ? Number.NaN : Number(text);
    if (!Number.isFinite(n)) {
      this.sensorFault(`not a temperature (${JSON.stringify(state.state)})`);
      return;
    }
    if (this.fault !== undefined) this.env.log.info({ entity_id: this.entityId }, `${this.config.sensor} reports a temperature again`);
    this.fault = undefined;
    this.current = n;
  }

  private sensorFault(reason: string): void {
    this.current = null;
    if (this.fault === undefined) {
      this.env.log.warn(
        { entity_id: this.entityId, sensor: this.config.sensor },
        `${this.entityId}: sensor ${this.config.sensor} is ${reason}; the ${this.config.acMode ? 'cooler' : 'heater'} is kept off until it reports a temperature`,
      );
    }
    this.fault = reason;
    if (this.heaterOn()) void this.serial(() => this.switchHeater(false));
  }

  private armStale(): void {
    const ms = this.config.staleMs;
    if (ms === undefined || this.stopped) return;
    if (this.staleTimer !== undefined) this.env.scheduler.clear(this.staleTimer);
    this.staleTimer = this.env.scheduler.timeout(() => {
      this.staleTimer = undefined;
      this.sensorFault(`stalled (no update for ${ms / 1000} s)`);
      this.write();
    }, ms);
  }

  private armKeepAlive(ms: number): void {
    this.keepAliveTimer = this.env.scheduler.timeout(() => {
      if (this.stopped) return;
      this.armKeepAlive(ms);
      void this.serial(() => this.control({ keepAlive: true }));
    }, ms);
  }

  private heaterOn(): boolean {
    return this.env.core.states.get(this.config.heater)?.state === 'on';
  }

  /** _check_switch_initial_state: a switch left on while the thermostat is off is turned off. */
  private async checkSwitchInitialState(): Promise<void> {
    if (this.mode !== 'off' || !this.heaterOn()) return;
    this.env.log.warn(
      { entity_id: this.entityId },
      `The climate mode is OFF, but the switch device is ON. Turning off device ${this.config.heater}`,
    );
    await this.switchHeater(false);
  }

  /** min_cycle_duration: the switch has been in its state that long (always true without one). */
  private heldLongEnough(): boolean {
    const ms = this.config.minCycleMs;
    if (ms === 0) return true;
    const since = this.env.core.states.get(this.config.heater)?.lastChangedUs;
    if (since === undefined) return true;
    const left = ms - (this.env.core.clock.now() - since) / 1000;
    if (left <= 0) return true;
    // Decide again when the hold ends (Home Assistant's _check_callback), so a due switch is not left for the next reading.
    if (this.checkTimer === undefined && !this.stopped) {
      this.checkTimer = this.env.scheduler.timeout(() => {
        this.checkTimer = undefined;
        void this.serial(() => this.control());
      }, left);
    }
    return false;
  }

  /** Home Assistant's _async_control_heating. */
  private async control(options: ControlOptions = {}): Promise<void> {
    if (this.stopped) return;
    if (!this.active && this.current !== null && this.target !== null) this.active = true;
    if (!this.active || this.mode === 'off' || this.target === null) return;
    const on = this.heaterOn();
    if (this.current === null) {
      // A sensor fault: the switch stays off, and keep-alive repeats that.
      if (on || options.keepAlive) await this.switchHeater(false, options.keepAlive);
      return;
    }
    const tooCold = this.target >= this.current + this.config.coldTolerance;
    const tooHot = this.current >= this.target + this.config.hotTolerance;
    const ac = this.config.acMode;
    if (on) {
      if ((ac && tooCold) || (!ac && tooHot)) {
        if (options.force || this.heldLongEnough()) await this.switchHeater(false);
      } else if (options.keepAlive) await this.switchHeater(true, true);
    } else if ((ac && tooHot) || (!ac && tooCold)) {
      if (options.force || this.heldLongEnough()) await this.switchHeater(true);
    } else if (options.keepAlive) await this.switchHeater(false, true);
  }

  private async switchHeater(on: boolean, keepAlive = false): Promise<void> {
    if (!keepAlive && this.checkTimer !== undefined) {
      this.env.scheduler.clear(this.checkTimer);
      this.checkTimer = undefined;
    }
    const { core } = this.env;
    await core.services.call(
      'homeassistant',
      on ? 'turn_on' : 'turn_off',
      { entity_id: this.config.heater },
      { context: core.newContext() },
    );
  }

  private write(): void {
    if (this.stopped) return;
    const on = this.heaterOn();
    this.handle.report({
      hvacMode: this.mode,
      hvacAction: this.mode === 'off' ? 'off' : on ? (this.config.acMode ? 'cooling' : 'heating') : 'idle',
      currentTemperature: this.current,
      targetTemperature: this.target,
      presetMode: this.preset,
    });
  }
}
