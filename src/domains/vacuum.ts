import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import { HubError } from '../core/errors.js';
import type { JsonObject, JsonValue } from '../core/json.js';
import { lookupTable } from '../core/own-keys.js';
import { type Domain, platformOf, registerEntityServices } from './domain.js';

/** VacuumEntityFeature (TURN_ON, TURN_OFF and STATUS are the legacy bits). */
export const VacuumFeature = {
  TURN_ON: 1,
  TURN_OFF: 2,
  PAUSE: 4,
  STOP: 8,
  RETURN_HOME: 16,
  FAN_SPEED: 32,
  BATTERY: 64,
  STATUS: 128,
  SEND_COMMAND: 256,
  LOCATE: 512,
  CLEAN_SPOT: 1024,
  MAP: 2048,
  STATE: 4096,
  START: 8192,
} as const;

export type VacuumState = 'cleaning' | 'docked' | 'idle' | 'paused' | 'returning' | 'error';

/** Command parameters as Home Assistant passes them: a mapping, or a list (a single value becomes a list of one). */
export type VacuumCommandParams = JsonObject | readonly JsonValue[];

/** What a vacuum can be asked; a method is needed for each feature bit it declares. */
export interface VacuumPlatform {
  start?(): void | Promise<void>;
  pause?(): void | Promise<void>;
  stop?(): void | Promise<void>;
  returnToBase?(): void | Promise<void>;
  cleanSpot?(): void | Promise<void>;
  locate?(): void | Promise<void>;
  setFanSpeed?(speed: string): void | Promise<void>;
  sendCommand?(command: string, params: VacuumCommandParams | undefined): void | Promise<void>;
}

/** What a vacuum is: drivers report this, the domain renders Home Assistant's state and attributes. */
export interface VacuumModel {
  readonly state: VacuumState;
  /** 0-100 */
  readonly batteryLevel?: number | null;
  /** Charging picks the battery icon; docked vacuums charge unless told otherwise. */
  readonly charging?: boolean;
  readonly fanSpeed?: string | null;
  /** Free text from the device ("Cleaning the kitchen"); shown with the STATUS feature. */
  readonly status?: string | null;
}

export interface VacuumCapabilities {
  readonly supportedFeatures: number;
  readonly fanSpeedList?: readonly string[];
}

export interface VacuumOptions extends Omit<EntityInit<VacuumPlatform>, 'fixed'> {
  readonly capabilities: VacuumCapabilities;
  readonly icon?: string;
}

export interface VacuumHandle {
  readonly entity: Entity<VacuumPlatform>;
  report(model: VacuumModel | null): void;
}

/** Home Assistant's icon_for_battery_level. */
export function batteryIcon(level: number | null | undefined, charging: boolean): string {
  if (level === null || level === undefined) return 'mdi:battery-unknown';
  if (charging && level > 10) return `mdi:battery-charging-${Math.round(level / 20 - 0.01) * 20}`;
  if (charging) return 'mdi:battery-outline';
  if (level <= 5) return 'mdi:battery-alert';
  if (level < 95) return `mdi:battery-${Math.round(level / 10 - 0.01) * 10}`;
  return 'mdi:battery';
}

export function addVacuum(core: Core, options: VacuumOptions): VacuumHandle {
  const caps = options.capabilities;
  const f = caps.supportedFeatures;
  const { capabilities: _c, icon, ...init } = options;
  const fixed: Record<string, JsonValue> = {};
  if (f & VacuumFeature.FAN_SPEED) fixed.fan_speed_list = [...(caps.fanSpeedList ?? [])];
  if (icon) fixed.icon = icon;
  fixed.supported_features = f;
  const entity = core.entities.add({ ...init, fixed });
  return {
    entity,
    report(model) {
      if (model === null) {
        entity.report(null);
        return;
      }
      const attrs: Record<string, JsonValue> = {};
      if (f & VacuumFeature.BATTERY) {
        attrs.battery_level = model.batteryLevel ?? null;
        attrs.battery_icon = batteryIcon(model.batteryLevel, model.charging ?? model.state === 'docked');
      }
      if (f & VacuumFeature.FAN_SPEED) attrs.fan_speed = model.fanSpeed ?? null;
      if (f & VacuumFeature.STATUS) attrs.status = model.status ?? null;
      entity.report(model.state, attrs);
    },
  };
}

function unsupported(entity: Entity, service: string): HubError {
  return new HubError('service_validation', `Entity ${entity.id} does not support action vacuum.${service}.`);
}

/** The platform's method for a service (the template checked its feature bits); refused when the driver lacks it. */
function method<K extends keyof VacuumPlatform>(entity: Entity, name: K, service: string): NonNullable<VacuumPlatform[K]> {
  const platform = platformOf<VacuumPlatform>(entity, 'vacuum');
  const fn = platform[name];
  if (fn === undefined) throw unsupported(entity, service);
  return fn.bind(platform) as NonNullable<VacuumPlatform[K]>;
}

type NoArgMethod = 'start' | 'pause' | 'stop' | 'returnToBase' | 'cleanSpot' | 'locate';

const SIMPLE: readonly { service: string; name: string; description: string; feature: number; method: NoArgMethod }[] = [
  { service: 'start', name: 'Start', description: 'Starts or resumes the cleaning task.', feature: VacuumFeature.START, method: 'start' },
  { service: 'pause', name: 'Pause', description: 'Pauses the cleaning task.', feature: VacuumFeature.PAUSE, method: 'pause' },
  { service: 'stop', name: 'Stop', description: 'Stops the current cleaning task.', feature: VacuumFeature.STOP, method: 'stop' },
  {
    service: 'return_to_base',
    name: 'Return to dock',
    description: 'Tells the vacuum cleaner to return to its dock.',
    feature: VacuumFeature.RETURN_HOME,
    method: 'returnToBase',
  },
  {
    service: 'clean_spot',
    name: 'Clean spot',
    description: 'Tells the vacuum cleaner to do a spot clean-up.',
    feature: VacuumFeature.CLEAN_SPOT,
    method: 'cleanSpot',
  },
  { service: 'locate', name: 'Locate', description: 'Locates the vacuum cleaner robot.', feature: VacuumFeature.LOCATE, method: 'locate' },
];

/** Which service brings a vacuum to a state (scenes, whose states come from a client). */
const SERVICE_FOR_STATE = lookupTable({
  cleaning: 'start',
  docked: 'return_to_base',
  returning: 'return_to_base',
  idle: 'stop',
  paused: 'pause',
});

export const vacuumDomain: Domain = {
  name: 'vacuum',
  registerServices(core: Core): void {
    registerEntityServices(
      core,
      'vacuum',
      SIMPLE.map((s) => ({
        service: s.service,
        name: s.name,
        description: s.description,
        feature: s.feature,
        run: (e: Entity) => method(e, s.method, s.service)(),
      })),
    );
    registerEntityServices(core, 'vacuum', [
      {
        service: 'set_fan_speed',
        name: 'Set fan speed',
        description: 'Sets the fan speed of the vacuum cleaner.',
        feature: VacuumFeature.FAN_SPEED,
        schema: {
          fields: {
            fan_speed: {
              kind: 'text',
              required: true,
              maxLength: 255,
              example: 'low',
              description: 'Fan speed, one of the fan_speed_list.',
            },
          },
        },
        run: (e, data) => {
          const set = method(e, 'setFanSpeed', 'set_fan_speed');
          const speed = data.fan_speed as string;
          const list = Array.isArray(e.fixed.fan_speed_list) ? (e.fixed.fan_speed_list as string[]) : [];
          if (!list.includes(speed)) {
            throw new HubError('service_validation', `Fan speed ${speed} is not valid. Valid fan speeds are: ${list.join(', ')}`);
          }
          return set(speed);
        },
      },
      {
        service: 'send_command',
        name: 'Send command',
        description: 'Sends a command to the vacuum cleaner.',
        feature: VacuumFeature.SEND_COMMAND,
        schema: {
          fields: {
            command: { kind: 'text', required: true, maxLength: 255, example: 'set_dnd_timer', description: 'Command to execute.' },
            params: {
              kind: 'any',
              advanced: true,
              example: { key: 'value' },
              description: 'Parameters for the command: a mapping or a list.',
            },
          },
        },
        run: (e, data) => {
          const send = method(e, 'sendCommand', 'send_command');
          const raw = data.params;
          // Home Assistant's vol.Any(dict, cv.ensure_list).
          const params: VacuumCommandParams | undefined =
            raw === undefined ? undefined : typeof raw === 'object' && raw !== null ? raw : [raw];
          return send(data.command as string, params);
        },
      },
    ]);
  },
  async reproduceState(core, entityId, desired, context) {
    const current = core.states.get(entityId);
    const service = SERVICE_FOR_STATE[desired.state];
    const entity = core.entities.get(entityId);
    if (entity === undefined) return;
    if (service !== undefined && current?.state !== desired.state) {
      await core.services.call('vacuum', service, { entity_id: entityId }, { context });
    }
    const speed = desired.attributes.fan_speed;
    const f = entity.fixed.supported_features;
    if (typeof speed === 'string' && typeof f === 'number' && f & VacuumFeature.FAN_SPEED && current?.attributes.fan_speed !== speed) {
      await core.services.call('vacuum', 'set_fan_speed', { entity_id: entityId, fan_speed: speed }, { context });
    }
  },
};
