export { type AreaEntry, type AreaFields, AreaRegistry } from './area-registry.js';
export { type ConfigArea, type ConfigFloor, type ConfigLabel, REGISTRY_SECTION_VALIDATORS, type RegistryConfig } from './config.js';
export { type DeviceChanges, DeviceRegistryView, deviceJson } from './device-registry.js';
export type { EntityCategory, EntityEntry } from './entity-entry.js';
export {
  type EntityCustomization,
  EntityRegistry,
  type EntityUpdate,
  type EntityUpdateResult,
} from './entity-registry.js';
export { type FloorEntry, type FloorFields, FloorRegistry } from './floor-registry.js';
export { type LabelEntry, type LabelFields, LabelRegistry } from './label-registry.js';
export { Registries, type RegistriesOptions } from './registries.js';
export { expandTarget } from './target-expansion.js';
