export { THERMOSTAT_OWNER, Thermostats, type ThermostatsOptions } from './component.js';
export { CLIMATE_SECTION_VALIDATORS, readClimateSection, type ThermostatConfig } from './config.js';
