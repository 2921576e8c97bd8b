import { alarmControlPanelDomain } from './alarm-control-panel.js';
import { automationDomain } from './automation.js';
import { binarySensorDomain } from './binary-sensor.js';
import { buttonDomain } from './button.js';
import { cameraDomain } from './camera.js';
import { climateDomain } from './climate-services.js';
import { counterDomain } from './counter.js';
import { coverDomain } from './cover.js';
import { deviceTrackerDomain } from './device-tracker.js';
import type { Domain } from './domain.js';
import { fanDomain } from './fan.js';
import { groupDomain } from './group.js';
import { homeassistantDomain } from './homeassistant.js';
import { inputBooleanDomain } from './input-boolean.js';
import { inputButtonDomain } from './input-button.js';
import { inputDatetimeDomain } from './input-datetime.js';
import { inputNumberDomain } from './input-number.js';
import { inputSelectDomain } from './input-select.js';
import { inputTextDomain } from './input-text.js';
import { lightDomain } from './light-services.js';
import { lockDomain } from './lock.js';
import { mediaPlayerDomain } from './media-player-services.js';
import { notifyDomain } from './notify.js';
import { numberDomain } from './number.js';
import { persistentNotificationDomain } from './persistent-notification.js';
import { personDomain } from './person.js';
import { sceneDomain } from './scene.js';
import { scriptDomain } from './script.js';
import { selectDomain } from './select.js';
import { sensorDomain } from './sensor.js';
import { sirenDomain } from './siren.js';
import { switchDomain } from './switch.js';
import { textDomain } from './text.js';
import { timerDomain } from './timer.js';
import { updateDomain } from './update.js';
import { vacuumDomain } from './vacuum.js';
import { zoneDomain } from './zone.js';

/** The helper domains (src/helpers makes their entities; each has a YAML section and WebSocket CRUD commands). */
function helperDomains(): Domain[] {
  return [
    inputBooleanDomain,
    inputNumberDomain,
    inputSelectDomain,
    inputTextDomain,
    inputDatetimeDomain,
    inputButtonDomain,
    counterDomain,
    timerDomain,
  ];
}

export const HELPER_DOMAINS: readonly string[] = helperDomains().map((d) => d.name);

/** Every domain the hub knows; each registers its services at start. */
export const DOMAINS: readonly Domain[] = [
  lightDomain,
  switchDomain,
  sensorDomain,
  binarySensorDomain,
  climateDomain,
  coverDomain,
  fanDomain,
  mediaPlayerDomain,
  cameraDomain,
  lockDomain,
  sirenDomain,
  alarmControlPanelDomain,
  vacuumDomain,
  buttonDomain,
  numberDomain,
  selectDomain,
  textDomain,
  updateDomain,
  automationDomain,
  scriptDomain,
  sceneDomain,
  homeassistantDomain,
  persistentNotificationDomain,
  zoneDomain,
  personDomain,
  deviceTrackerDomain,
  groupDomain,
  notifyDomain,
  ...helperDomains(),
];

/**
 * Home Assistant domains hearth has no entities or services of, whose states a client may still write
 * (POST /api/states) and read back through history: only their facts.
 */
const STATE_ONLY_DOMAINS: readonly Domain[] = [
  { name: 'humidifier', significantAttributes: true, needsAttributes: true, registerServices() {} },
  { name: 'water_heater', significantAttributes: true, needsAttributes: true, registerServices() {} },
  { name: 'thermostat', significantAttributes: true, needsAttributes: true, registerServices() {} },
];

/** The domain registry: every domain by name (a Map, as names come from outside). */
const BY_NAME: ReadonlyMap<string, Domain> = new Map([...DOMAINS, ...STATE_ONLY_DOMAINS].map((d) => [d.name, d]));

export function domainByName(name: string): Domain | undefined {
  return BY_NAME.get(name);
}
