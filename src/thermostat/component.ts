import type { Component } from '../core/component.js';
import type { Core } from '../core/core.js';
import type { Logger } from '../core/log.js';
import { type Scheduler, timersScheduler } from '../util/scheduler.js';
import type { ThermostatConfig } from './config.js';
import { Thermostat, type ThermostatEnv } from './thermostat.js';

/** The owner key of the thermostats' entities and listeners; also their platform name (`climate.generic_thermostat`). */
export const THERMOSTAT_OWNER = 'generic_thermostat';

export interface ThermostatsOptions {
  readonly core: Core;
  /** The `climate:` section as read at load. */
  readonly thermostats: readonly ThermostatConfig[];
  readonly log: Logger;
  /** Timers on the hub's clock; real timers by default (tests pass a manual one, shared with other components). */
  readonly scheduler?: Scheduler;
  readonly lastState: ThermostatEnv['lastState'];
}

/**
 * The `climate:` section's generic thermostats. After the drivers, helpers and MQTT, so the switches and sensors
 * they read exist when they start.
 */
export class Thermostats implements Component {
  readonly name = 'generic thermostats';
  readonly optional = true;
  readonly owner = THERMOSTAT_OWNER;
  private readonly thermostats: Thermostat[] = [];

  constructor(private readonly o: ThermostatsOptions) {}

  async start(): Promise<void> {
    const { core, log } = this.o;
    const configs = this.o.thermostats;
    if (configs.length === 0) return;
    const scheduler = this.o.scheduler ?? timersScheduler((err) => log.error({ err }, 'thermostat timer failed'));
    for (const config of configs) {
      const env = { core, log: log.child({ thermostat: config.name }), scheduler, owner: THERMOSTAT_OWNER, lastState: this.o.lastState };
      this.thermostats.push(new Thermostat(env, config));
    }
    core.bus.on(THERMOSTAT_OWNER, 'state_changed', (event) => {
      const { entity_id: id, new_state: next, old_state: previous } = event.data;
      for (const t of this.thermostats) t.stateChanged(id, next, previous);
    });
    for (const t of this.thermostats) t.start();
    log.info({ thermostats: this.thermostats.length }, 'generic thermostats started');
  }

  async stop(): Promise<void> {
    const { core } = this.o;
    core.bus.removeOwner(THERMOSTAT_OWNER);
    await Promise.all(this.thermostats.map((t) => t.stop()));
    this.thermostats.length = 0;
    core.entities.removeOwner(THERMOSTAT_OWNER);
  }
}
