import { alarmControlPanelDomain } from './alarm-control-panel.js';
import { automationDomain } from './automation.js';
import { binarySensorDomain } from './binary-sensor.js';
import { cameraDomain } from './camera.js';
import { climateDomain } from './climate.js';
import { coverDomain } from './cover.js';
import type { Domain } from './domain.js';
import { fanDomain } from './fan.js';
import { homeassistantDomain } from './homeassistant.js';
import { lightDomain } from './light.js';
import { lockDomain } from './lock.js';
import { mediaPlayerDomain } from './media-player.js';
import { sceneDomain } from './scene.js';
import { scriptDomain } from './script.js';
import { sensorDomain } from './sensor.js';
import { switchDomain } from './switch.js';
import { vacuumDomain } from './vacuum.js';

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
  automationDomain,
  scriptDomain,
  sceneDomain,
  homeassistantDomain,
];

export function domainByName(name: string): Domain | undefined {
  return DOMAINS.find((d) => d.name === name);
}
