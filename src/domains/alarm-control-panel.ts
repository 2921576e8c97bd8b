import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import { HubError } from '../core/errors.js';
import type { FieldSpec } from '../core/fields.js';
import type { JsonObject, JsonValue } from '../core/json.js';
import { lookupTable } from '../core/own-keys.js';
import { type Domain, dataOf, platformOf, registerEntityServices } from './domain.js';

/** AlarmControlPanelEntityFeature. */
export const AlarmFeature = {
  ARM_HOME: 1,
  ARM_AWAY: 2,
  ARM_NIGHT: 4,
  TRIGGER: 8,
  ARM_CUSTOM_BYPASS: 16,
  ARM_VACATION: 32,
} as const;

export type ArmMode = 'armed_home' | 'armed_away' | 'armed_night' | 'armed_vacation' | 'armed_custom_bypass';
export type AlarmState = 'disarmed' | ArmMode | 'pending' | 'arming' | 'disarming' | 'triggered';
export type CodeFormat = 'number' | 'text';

export const ARM_MODES: readonly ArmMode[] = ['armed_home', 'armed_away', 'armed_night', 'armed_vacation', 'armed_custom_bypass'];

/** Each arm service, the mode it arms and the feature bit it needs. */
const ARM_SERVICES: readonly { service: string; mode: ArmMode; feature: number; name: string; description: string }[] = [
  {
    service: 'alarm_arm_home',
    mode: 'armed_home',
    feature: AlarmFeature.ARM_HOME,
    name: 'Arm home',
    description: 'Sets the alarm to: armed, but someone is home.',
  },
  {
    service: 'alarm_arm_away',
    mode: 'armed_away',
    feature: AlarmFeature.ARM_AWAY,
    name: 'Arm away',
    description: 'Sets the alarm to: armed, no one home.',
  },
  {
    service: 'alarm_arm_night',
    mode: 'armed_night',
    feature: AlarmFeature.ARM_NIGHT,
    name: 'Arm night',
    description: 'Sets the alarm to: armed for the night.',
  },
  {
    service: 'alarm_arm_vacation',
    mode: 'armed_vacation',
    feature: AlarmFeature.ARM_VACATION,
    name: 'Arm vacation',
    description: 'Sets the alarm to: armed for vacation.',
  },
  {
    service: 'alarm_arm_custom_bypass',
    mode: 'armed_custom_bypass',
    feature: AlarmFeature.ARM_CUSTOM_BYPASS,
    name: 'Arm with custom bypass',
    description: 'Arms the alarm while allowing to bypass a custom area.',
  },
];

/** The feature bit each arm mode needs. */
export const ARM_MODE_FEATURE: Readonly<Record<ArmMode, number>> = Object.fromEntries(
  ARM_SERVICES.map((s) => [s.mode, s.feature]),
) as Record<ArmMode, number>;

/**
 * What a panel is asked to do. The panel checks the code itself (only it knows the code) and throws
 * `invalidAlarmCode()` when it is wrong.
 */
export interface AlarmControlPanelPlatform {
  disarm(code: string | undefined): void | Promise<void>;
  arm(mode: ArmMode, code: string | undefined): void | Promise<void>;
  trigger(code: string | undefined): void | Promise<void>;
}

/** What a panel is: drivers report this, the domain renders Home Assistant's state and attributes. */
export interface AlarmModel {
  readonly state: AlarmState;
  readonly changedBy?: string | null;
  /**
   * Extra attributes a panel may add (the manual panel's `previous_state` / `next_state` while arming
   * and pending); written after the standard ones.
   */
  readonly extra?: JsonObject;
}

export interface AlarmCapabilities {
  readonly supportedFeatures: number;
  /** null when the panel takes no code. */
  readonly codeFormat: CodeFormat | null;
  /** Whether arming needs a code (Home Assistant's default is true). */
  readonly codeArmRequired?: boolean;
}

export interface AlarmOptions extends Omit<EntityInit<AlarmControlPanelPlatform>, 'fixed'> {
  readonly capabilities: AlarmCapabilities;
  readonly icon?: string;
}

export interface AlarmHandle {
  readonly entity: Entity<AlarmControlPanelPlatform>;
  report(model: AlarmModel | null): void;
}

/** The manual panel's ServiceValidationError for a wrong code. */
export function invalidAlarmCode(): HubError {
  return new HubError('service_validation', 'Invalid alarm code provided');
}

/** What an alarm panel keeps per entity (EntityInit.data). */
interface AlarmData {
  readonly codeArmRequired: boolean;
}

export function addAlarmControlPanel(core: Core, options: AlarmOptions): AlarmHandle {
  const caps = options.capabilities;
  const { capabilities: _c, icon, ...init } = options;
  const fixed: Record<string, JsonValue> = {};
  if (icon) fixed.icon = icon;
  fixed.supported_features = caps.supportedFeatures;
  const data: AlarmData = { codeArmRequired: caps.codeArmRequired ?? true };
  const entity = core.entities.add({ ...init, fixed, data });
  return {
    entity,
    report(model) {
      if (model === null) {
        entity.report(null);
        return;
      }
      // Home Assistant writes these three with every state, null when not known.
      const attrs: Record<string, JsonValue> = {
        code_format: caps.codeFormat,
        changed_by: model.changedBy ?? null,
        code_arm_required: data.codeArmRequired,
        ...model.extra,
      };
      entity.report(model.state, attrs);
    },
  };
}

const CODE_FIELD: Record<string, FieldSpec> = {
  code: { kind: 'text', maxLength: 255, example: '1234', description: 'Code to use for this action.' },
};

/** The code of a call: an empty string counts as none, as Home Assistant's `if code:` does. */
function codeOf(data: Record<string, JsonValue>): string | undefined {
  return typeof data.code === 'string' && data.code !== '' ? data.code : undefined;
}

/** Home Assistant's check_code_arm_required, made before the panel is asked. */
function checkArmCode(entity: Entity, code: string | undefined): void {
  if (code === undefined && dataOf<AlarmData>(entity, 'alarm_control_panel')?.codeArmRequired !== false) {
    throw new HubError('service_validation', `Arming requires a code but none was given for ${entity.id}`);
  }
}

const p = (e: Entity) => platformOf<AlarmControlPanelPlatform>(e, 'alarm_control_panel');

/** Which service brings a panel to a state (scenes, whose states come from a client): the settled states only. */
const SERVICE_FOR_STATE = lookupTable<string>({
  disarmed: 'alarm_disarm',
  triggered: 'alarm_trigger',
  ...Object.fromEntries(ARM_SERVICES.map((s) => [s.mode, s.service])),
});

export const alarmControlPanelDomain: Domain = {
  name: 'alarm_control_panel',
  restored: true,
  published: true,
  registerServices(core: Core): void {
    const register = (
      service: string,
      name: string,
      description: string,
      feature: number | undefined,
      entity: (e: Entity, code: string | undefined) => unknown,
    ) =>
      registerEntityServices(core, 'alarm_control_panel', [
        { service, name, description, feature, schema: { fields: CODE_FIELD }, run: (e, data) => entity(e, codeOf(data)) },
      ]);

    register('alarm_disarm', 'Disarm', 'Disarms the alarm.', undefined, (e, code) => p(e).disarm(code));
    for (const s of ARM_SERVICES) {
      register(s.service, s.name, s.description, s.feature, (e, code) => {
        checkArmCode(e, code);
        return p(e).arm(s.mode, code);
      });
    }
    register('alarm_trigger', 'Trigger', 'Triggers the alarm manually.', AlarmFeature.TRIGGER, (e, code) => p(e).trigger(code));
  },
  async reproduceState(core, entityId, desired, context) {
    const service = SERVICE_FOR_STATE[desired.state];
    // Pending, arming and disarming are on the way somewhere; a scene cannot ask for them.
    if (service === undefined || core.states.get(entityId)?.state === desired.state) return;
    await core.services.call('alarm_control_panel', service, { entity_id: entityId }, { context });
  },
};
