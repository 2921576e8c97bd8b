export interface AppRoute {
  readonly title: string;
  readonly script: string;
  /** The sidebar entry it belongs to; the path itself when absent. */
  readonly current?: string;
}

/**
 * Home Assistant's paths for settings, history, logbook and developer tools; each is a shell whose module
 * renders the page over the public WebSocket API (and the config REST endpoints for the editors).
 */
export const APP_ROUTES: ReadonlyMap<string, AppRoute> = new Map([
  ['/config', { title: 'Settings', script: 'config-home.js' }],
  ['/config/dashboard', { title: 'Settings', script: 'config-home.js', current: '/config' }],
  ['/config/entities', { title: 'Entities', script: 'config-entities.js' }],
  ['/config/devices', { title: 'Devices', script: 'config-devices.js' }],
  ['/config/devices/dashboard', { title: 'Devices', script: 'config-devices.js', current: '/config/devices' }],
  ['/config/devices/device/:id', { title: 'Device', script: 'config-devices.js', current: '/config/devices' }],
  ['/config/areas', { title: 'Areas and floors', script: 'config-areas.js' }],
  ['/config/areas/dashboard', { title: 'Areas and floors', script: 'config-areas.js', current: '/config/areas' }],
  ['/config/labels', { title: 'Labels', script: 'config-areas.js' }],
  ['/config/helpers', { title: 'Helpers', script: 'config-helpers.js' }],
  ['/config/automation', { title: 'Automations', script: 'automations.js', current: '/config/automation/dashboard' }],
  ['/config/automation/dashboard', { title: 'Automations', script: 'automations.js' }],
  ['/config/automation/edit/:id', { title: 'Automation', script: 'automations.js', current: '/config/automation/dashboard' }],
  ['/config/automation/trace/:id', { title: 'Automation trace', script: 'automations.js', current: '/config/automation/dashboard' }],
  ['/config/script', { title: 'Scripts', script: 'automations.js', current: '/config/script/dashboard' }],
  ['/config/script/dashboard', { title: 'Scripts', script: 'automations.js' }],
  ['/config/script/edit/:id', { title: 'Script', script: 'automations.js', current: '/config/script/dashboard' }],
  ['/config/script/trace/:id', { title: 'Script trace', script: 'automations.js', current: '/config/script/dashboard' }],
  ['/config/scene/dashboard', { title: 'Scenes', script: 'automations.js' }],
  ['/config/users', { title: 'Users', script: 'config-users.js' }],
  ['/config/zone', { title: 'Zones', script: 'config-zones.js' }],
  ['/config/person', { title: 'People', script: 'config-persons.js' }],
  ['/history', { title: 'History', script: 'history-page.js' }],
  ['/logbook', { title: 'Logbook', script: 'logbook-page.js' }],
  ['/developer-tools', { title: 'Developer tools', script: 'devtools.js', current: '/developer-tools/state' }],
  ['/developer-tools/state', { title: 'States', script: 'devtools.js' }],
  ['/developer-tools/action', { title: 'Actions', script: 'devtools.js' }],
  ['/developer-tools/service', { title: 'Actions', script: 'devtools.js', current: '/developer-tools/action' }],
  ['/developer-tools/template', { title: 'Template', script: 'devtools.js' }],
  ['/developer-tools/event', { title: 'Events', script: 'devtools.js' }],
]);

/** The page modules (entries), which the dashboard does not preload. */
export const APP_SCRIPTS: ReadonlySet<string> = new Set([...APP_ROUTES.values()].map((r) => r.script));
