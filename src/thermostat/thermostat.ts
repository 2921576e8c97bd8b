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
import { decide } from './control.js';
import { PRESET_NONE, startSettings } from './restore.js';

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
  /** max_cycle_duration ran out: the switch goes off. */
  readonly maxCycle?: boolean;
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
  private cycleTimer: unknown;
  private keepAliveTimer: unknown;
  /** When the switch last toggled; cycle_cooldown before start-up has passed, so it does not hold the first start. */
  private lastToggledUs: number;
  /** The context of the last command sent: a switch change with another one was made by hand. */
  private ownContext: string | undefined;
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
    this.lastToggledUs = env.core.clock.now() - config.cooldownMs * 1000;
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
    const settings = startSettings(this.config, this.env.lastState(this.entityId), {
      min: this.minTemp,
      max: this.maxTemp,
      modes: this.handle.capabilities.hvacModes,
    });
    this.target = settings.target;
    this.preset = settings.preset;
    this.mode = settings.mode;
    if (settings.warning !== undefined) this.env.log.warn({ entity_id: this.entityId }, settings.warning);
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
    for (const timer of [this.checkTimer, this.cycleTimer, this.keepAliveTimer, this.staleTimer])
      if (timer !== undefined) scheduler.clear(timer);
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
      if (previous?.state !== next.state) this.lastToggledUs = next.lastChangedUs;
      // Switched by hand: the user has taken over, so pending re-checks and the max cycle are dropped (as in Home Assistant).
      if (next.context.id !== this.ownContext) this.cancelTimers();
      this.write();
    }
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

  /** Home Assistant's _async_control_heating. */
  private async control(options: ControlOptions = {}): Promise<void> {
    if (this.stopped) return;
    if (!this.active && this.current !== null && this.target !== null) this.active = true;
    if (!this.active || this.mode === 'off' || this.target === null) return;
    if (options.maxCycle) {
      await this.switchHeater(false);
      return;
    }
    const { core } = this.env;
    const now = core.clock.now();
    const changed = core.states.get(this.config.heater)?.lastChangedUs;
    const d = decide({
      current: this.current,
      target: this.target,
      coldTolerance: this.config.coldTolerance,
      hotTolerance: this.config.hotTolerance,
      acMode: this.config.acMode,
      switchOn: this.heaterOn(),
      force: options.force === true,
      keepAlive: options.keepAlive === true,
      heldMs: changed === undefined ? Number.POSITIVE_INFINITY : (now - changed) / 1000,
      minCycleMs: this.config.minCycleMs,
      sinceToggleMs: (now - this.lastToggledUs) / 1000,
      cooldownMs: this.config.cooldownMs,
    });
    if (d.kind === 'switch') await this.switchHeater(d.on, d.keepAlive);
    else if (d.kind === 'hold' && this.checkTimer === undefined && !this.stopped) {
      // Decide again when the hold ends (Home Assistant's _check_callback), not only at the next reading.
      this.checkTimer = this.env.scheduler.timeout(() => {
        this.checkTimer = undefined;
        void this.serial(() => this.control());
      }, d.ms);
    }
  }

  private async switchHeater(on: boolean, keepAlive = false): Promise<void> {
    const { core, scheduler } = this.env;
    const context = core.newContext();
    this.ownContext = context.id;
    await core.services.call('homeassistant', on ? 'turn_on' : 'turn_off', { entity_id: this.config.heater }, { context });
    if (keepAlive) return;
    this.lastToggledUs = core.clock.now();
    this.cancelTimers();
    const maxMs = this.config.maxCycleMs;
    if (on && maxMs !== undefined && !this.stopped) {
      // max_cycle_duration: a run of the switch ends after this long, whatever the temperature.
      this.cycleTimer = scheduler.timeout(() => {
        this.cycleTimer = undefined;
        void this.serial(() => this.control({ maxCycle: true }));
      }, maxMs);
    }
  }

  private cancelTimers(): void {
    const { scheduler } = this.env;
    if (this.checkTimer !== undefined) scheduler.clear(this.checkTimer);
    if (this.cycleTimer !== undefined) scheduler.clear(this.cycleTimer);
    this.checkTimer = undefined;
    this.cycleTimer = undefined;
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
