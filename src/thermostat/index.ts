import type { Integration, SectionParser } from '../integration/integration.js';
import { THERMOSTAT_OWNER, Thermostats } from './component.js';
import { readClimateSection, type ThermostatConfig } from './config.js';

export { THERMOSTAT_OWNER, Thermostats, type ThermostatsOptions } from './component.js';
export { readClimateSection, type ThermostatConfig } from './config.js';

/**
 * `climate:`: generic thermostats. After the drivers, helpers, MQTT and template entities, so the switches and
 * sensors they read exist when they start; a thermostat with problems is left out alone.
 */
export const thermostatIntegration: Integration<{ climate: SectionParser<ThermostatConfig[]> }, Thermostats> = {
  name: THERMOSTAT_OWNER,
  sections: { climate: readClimateSection },
  itemOf: (path) => path.slice(0, 2),
  create: (ctx, { climate }) =>
    climate.length === 0
      ? undefined
      : new Thermostats({ core: ctx.core, thermostats: climate, log: ctx.log, scheduler: ctx.scheduler, lastState: ctx.lastState }),
};
