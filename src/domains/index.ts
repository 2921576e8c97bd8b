import { alarmControlPanelDomain } from './alarm-control-panel.js';
import { automationDomain } from './automation.js';
import { binarySensorDomain } from './binary-sensor.js';
import { buttonDomain } from './button.js';
import { cameraDomain } from './camera.js';
import { climateDomain } from './climate.js';
import { counterDomain } from './counter.js';
import { coverDomain } from './cover.js';
import type { Domain } from './domain.js';
import { fanDomain } from './fan.js';
import { homeassistantDomain } from './homeassistant.js';
import { inputBooleanDomain } from './input-boolean.js';
import { inputButtonDomain } from './input-button.js';
import { inputDatetimeDomain } from './input-datetime.js';
import { inputNumberDomain } from './input-number.js';
import { inputSelectDomain } from './input-select.js';
import { inputTextDomain } from './input-text.js';
import { lightDomain } from './light.js';
import { lockDomain } from './lock.js';
import { mediaPlayerDomain } from './media-player.js';
import { numberDomain } from './number.js';
import { persistentNotificationDomain } from './persistent-notification.js';
import { sceneDomain } from './scene.js';
import { scriptDomain } from './script.js';
import { selectDomain } from './select.js';
import { sensorDomain } from './sensor.js';
import { switchDomain } from './switch.js';
import { textDomain } from './text.js';
import { timerDomain } from './timer.js';
import { updateDomain } from './update.js';
import { vacuumDomain } from './vacuum.js';

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
  ...helperDomains(),
];

export function domainByName(name: string): Domain | undefined {
  return DOMAINS.find((d) => d.name === name);
}
