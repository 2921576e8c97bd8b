// @ts-check
/** /config: the settings pages, each with what it holds now. */

import { html, mount, useRegistries, useStates } from './app-common.js';

function App() {
  const states = useStates();
  const reg = useRegistries();
  const count = (/** @type {string} */ domain) => states.ids().filter((id) => id.startsWith(`${domain}.`)).length;
  const cards = [
    ['/config/entities', 'Entities', `${states.ids().length} entities`],
    ['/config/devices', 'Devices', `${reg?.devices.length ?? '…'} devices`],
    ['/config/areas', 'Areas and floors', `${reg?.areas.length ?? '…'} areas, ${reg?.floors.length ?? '…'} floors`],
    ['/config/labels', 'Labels', `${reg?.labels.length ?? '…'} labels`],
    ['/config/helpers', 'Helpers', 'Toggles, numbers, timers and more'],
    ['/config/automation/dashboard', 'Automations', `${count('automation')} automations`],
    ['/config/script/dashboard', 'Scripts', `${count('script')} scripts`],
    ['/config/scene/dashboard', 'Scenes', `${count('scene')} scenes`],
    ['/config/users', 'Users', 'People who can log in'],
    ['/config/person', 'People', `${count('person')} persons, tracked by their devices`],
    ['/config/zone', 'Zones', `${count('zone')} zones`],
  ];
  return html`<ul class="settings-cards">${cards.map(([href, title, detail]) => html`<li key=${href}><a class="panel" href=${href}><strong>${title}</strong><span class="muted">${detail}</span></a></li>`)}</ul>`;
}

mount(App);
