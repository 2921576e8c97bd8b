// @ts-check
/**
 * The Zigbee page: permit join with a countdown, a live log of joins, interviews and departures, and the
 * paired devices (model, link quality, last seen, power source) with rename and remove. Everything goes
 * through the public WebSocket API: the `zigbee.*` services, the permit-join switch and the zigbee events.
 */

import { html } from './html.js';
import { LinkStatus, pageConnection, Toasts, toast } from './page-session.js';
import { useEffect, useState } from './vendor/hooks.js';
import { render } from './vendor/preact.js';
import { Groups } from './zigbee-groups.js';

const PERMIT_SWITCH = 'switch.zigbee_permit_join';
const LOG_EVENTS = ['zigbee_device_joined', 'zigbee_device_interviewed', 'zigbee_device_left', 'zigbee_action'];
const LOG_LINES = 50;
/** Link quality and last seen move without events: the list is read again this often. */
const REFRESH_MS = 30_000;

const hub = pageConnection('/zigbee');

/**
 * @typedef {object} ZigbeeDevice
 * @property {string} ieee_address
 * @property {string} friendly_name
 * @property {string | null} [model]
 * @property {string | null} [vendor]
 * @property {string | null} [description]
 * @property {boolean} [supported]
 * @property {string | null} [power_source]
 * @property {number | null} [link_quality]
 * @property {string | null} [last_seen]
 * @property {boolean} [available]
 * @property {string | null} [model_id] what the device reports in its basic cluster
 * @property {string | null} [manufacturer]
 * @property {string} [interview] pending, in_progress, successful or failed
 * @property {boolean} [ota] its firmware can be updated (an update entity)
 */

/**
 * @typedef {object} MapLink
 * @property {string} source
 * @property {string} target
 * @property {number} lqi
 * @property {number} depth
 * @property {string} relationship
 */

/** @param {string} service @param {object} [data] @param {boolean} [response] */
function zigbee(service, data = {}, response = false) {
  return hub.command({
    type: 'call_service',
    domain: 'zigbee',
    service,
    service_data: data,
    ...(response ? { return_response: true } : {}),
  });
}

/** @returns {Promise<ZigbeeDevice[]>} */
async function listDevices() {
  const result = await zigbee('list_devices', {}, true);
  const devices = result?.response?.devices;
  return Array.isArray(devices) ? devices : [];
}

/** "12 s ago", "5 min ago", "3 h ago", or the date. @param {string | null | undefined} iso */
function ago(iso) {
  if (iso === null || iso === undefined) return 'never';
  const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  if (Number.isNaN(s)) return '–';
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return new Date(iso).toLocaleDateString();
}

/** One log line from a zigbee event. @param {string} type @param {Record<string, any>} data */
function logText(type, data) {
  const who = data.friendly_name ?? data.device_name ?? data.ieee_address ?? data.device_ieee ?? 'a device';
  switch (type) {
    case 'zigbee_device_joined':
      return `${who} joined`;
    case 'zigbee_device_interviewed':
      return `${who}: interview ${data.status ?? ''}${data.model ? ` (${data.model})` : ''}`;
    case 'zigbee_device_left':
      return `${who} left the network`;
    case 'zigbee_action':
      return `${who}: ${data.action}`;
    default:
      return `${who}: ${type}`;
  }
}

function PermitJoin() {
  const [endsAt, setEndsAt] = useState(/** @type {number | null} */ (null));
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    hub.subscribe('permit', { type: 'subscribe_entities', entity_ids: [PERMIT_SWITCH] }, (event) => {
      const st = event.a?.[PERMIT_SWITCH] ?? event.c?.[PERMIT_SWITCH]?.['+'];
      if (st === undefined) return;
      const on = (st.s ?? null) === null ? undefined : st.s === 'on';
      const ends = st.a?.ends_at;
      if (on === false) setEndsAt(null);
      else if (typeof ends === 'string') setEndsAt(Date.parse(ends));
    });
  }, []);
  useEffect(() => {
    if (endsAt === null) return;
    setNow(Date.now()); // not the time the page opened: the countdown starts from now
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [endsAt]);
  const left = endsAt === null ? 0 : Math.max(0, Math.round((endsAt - now) / 1000));
  const open = left > 0;
  const toggle = () => zigbee('permit_join', { duration: open ? 0 : 254 }).catch((/** @type {Error} */ e) => toast(e.message));
  return html`<section class="permit" aria-labelledby="permit-title">
  <h2 id="permit-title">Pairing</h2>
  <p class="permit-state" role="status" data-open=${open}>${open ? `Joining is open: ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')} left` : 'Joining is closed.'}</p>
  <button type="button" class=${open ? '' : 'primary'} onClick=${toggle}>${open ? 'Stop joining' : 'Permit join (254 s)'}</button>
  <p class="hint">Open joining, then reset the device as its manual says (hold the button, or switch a bulb off and on five times).</p>
</section>`;
}

/** @param {{ lines: { id: number, at: string, text: string }[] }} props */
function Log({ lines }) {
  return html`<section class="zlog" aria-labelledby="log-title">
  <h2 id="log-title">Log</h2>
  ${lines.length === 0 ? html`<p class="empty">Joins, interviews and button presses appear here as they happen.</p>` : null}
  <ol class="log-lines" aria-live="polite">${lines.map((l) => html`<li key=${l.id}><time>${l.at}</time> ${l.text}</li>`)}</ol>
</section>`;
}

/** @param {{ device: ZigbeeDevice, refresh: () => void }} props */
function DeviceRow({ device, refresh }) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(device.friendly_name);
  const [removing, setRemoving] = useState(false);
  const [force, setForce] = useState(false);
  const ieee = device.ieee_address;
  const rename = (/** @type {Event} */ e) => {
    e.preventDefault();
    zigbee('rename_device', { ieee_address: ieee, name: name.trim() })
      .then(() => {
        setEditing(false);
        refresh();
      })
      .catch((/** @type {Error} */ err) => toast(err.message));
  };
  const remove = () =>
    zigbee('remove_device', { ieee_address: ieee, force })
      .then(() => {
        setRemoving(false);
        refresh();
      })
      .catch((/** @type {Error} */ err) => toast(err.message));
  const reconfigure = () =>
    zigbee('reconfigure_device', { ieee_address: ieee })
      .then(() => toast(`${device.friendly_name} configured`))
      .catch((/** @type {Error} */ err) => toast(err.message));
  const checkFirmware = () =>
    zigbee('check_ota', { ieee_address: ieee }, true)
      .then((r) => {
        const f = r?.response ?? {};
        toast(
          f.update_available
            ? `${device.friendly_name}: firmware ${f.latest_version} is available (installed ${f.installed_version}); install it from its update entity`
            : `${device.friendly_name}: firmware ${f.installed_version} is the latest`,
        );
      })
      .catch((/** @type {Error} */ err) => toast(err.message));
  const model =
    [device.vendor, device.model].filter(Boolean).join(' ') ||
    [device.manufacturer, device.model_id].filter(Boolean).join(' ') ||
    'unknown';
  const interview =
    device.interview === undefined || device.interview === 'successful' ? null : `interview ${device.interview.replace('_', ' ')}`;
  return html`<tr data-ieee=${ieee} class=${device.available === false ? 'unavailable' : ''}>
  <td>${
    editing
      ? html`<form class="inline" onSubmit=${rename}><input aria-label=${`New name for ${device.friendly_name}`} value=${name} required maxlength="100" onInput=${(/** @type {Event} */ e) => setName(/** @type {HTMLInputElement} */ (e.currentTarget).value)} /><button type="submit">Save</button><button type="button" class="link" onClick=${() => setEditing(false)}>Cancel</button></form>`
      : html`<a class="dname" href=${`/zigbee/device/${ieee}`}>${device.friendly_name}</a>${device.friendly_name === ieee ? null : html`<br /><code class="ieee">${ieee}</code>`}`
  }</td>
  <td data-label="Model">${model}${
    interview !== null
      ? html`<br /><span class="note">${interview}</span>`
      : device.supported === false
        ? html`<br /><span class="note">not supported: basic clusters only</span>`
        : device.description
          ? html`<br /><span class="note">${device.description}</span>`
          : null
  }</td>
  <td class="num" data-label="Link quality">${device.link_quality ?? '–'}</td>
  <td data-label="Last seen">${ago(device.last_seen)}${device.available === false ? html`<br /><span class="note">unavailable</span>` : null}</td>
  <td data-label="Power">${device.power_source ?? '–'}</td>
  <td class="actions">${
    removing
      ? html`<span role="group" aria-label=${`Remove ${device.friendly_name}`}><label><input type="checkbox" checked=${force} onChange=${(/** @type {Event} */ e) => setForce(/** @type {HTMLInputElement} */ (e.currentTarget).checked)} /> force</label> <button type="button" class="danger" onClick=${remove}>Remove</button> <button type="button" class="link" onClick=${() => setRemoving(false)}>Cancel</button></span>`
      : html`<button type="button" class="link" onClick=${() => setEditing(true)}>Rename</button> <button type="button" class="link" onClick=${() => setRemoving(true)}>Remove…</button> <button type="button" class="link" onClick=${reconfigure}>Reconfigure</button>${device.ota ? html` <button type="button" class="link" onClick=${checkFirmware}>Check firmware</button>` : null}`
  }</td>
</tr>`;
}

/** The network map: the links each router's and the coordinator's neighbour table reports. */
function NetworkMap() {
  const [map, setMap] = useState(
    /** @type {{ links: MapLink[], failed: { friendly_name: string }[], names: Map<string, string> } | null} */ (null),
  );
  const [loading, setLoading] = useState(false);
  const load = () => {
    setLoading(true);
    zigbee('network_map', {}, true)
      .then((r) => {
        const nodes = /** @type {{ ieee_address: string, friendly_name: string }[]} */ (r?.response?.nodes ?? []);
        const names = new Map(nodes.map((n) => [n.ieee_address, n.friendly_name]));
        setMap({ links: r?.response?.links ?? [], failed: r?.response?.failed ?? [], names });
      })
      .catch((/** @type {Error} */ err) => toast(err.message))
      .finally(() => setLoading(false));
  };
  const name = (/** @type {string} */ ieee) => map?.names.get(ieee) ?? ieee;
  return html`<section aria-labelledby="map-title">
  <h2 id="map-title">Network map</h2>
  <button type="button" onClick=${load} disabled=${loading}>${loading ? 'Asking the routers…' : map === null ? 'Load the network map' : 'Reload'}</button>
  ${
    map === null
      ? null
      : html`<table class="devices links">
  <thead><tr><th>Device</th><th>Heard by</th><th>Link quality</th><th>Relationship</th><th>Depth</th></tr></thead>
  <tbody>${map.links.map(
    (l) =>
      html`<tr><td>${name(l.source)}</td><td data-label="Heard by">${name(l.target)}</td><td class="num" data-label="Link quality"><meter min="0" max="255" value=${l.lqi}></meter> ${l.lqi}</td><td data-label="Relationship">${l.relationship}</td><td class="num" data-label="Depth">${l.depth}</td></tr>`,
  )}</tbody>
</table>${map.failed.length > 0 ? html`<p class="note">No answer from ${map.failed.map((f) => f.friendly_name).join(', ')}</p>` : null}`
  }
</section>`;
}

function App() {
  const [devices, setDevices] = useState(/** @type {ZigbeeDevice[] | null} */ (null));
  const [lines, setLines] = useState(/** @type {{ id: number, at: string, text: string }[]} */ ([]));
  useEffect(() => {
    let pending = /** @type {ReturnType<typeof setTimeout> | undefined} */ (undefined);
    const refresh = () => {
      clearTimeout(pending);
      pending = setTimeout(() => listDevices().then(setDevices, (/** @type {Error} */ e) => toast(e.message)), 200);
    };
    let next = 1;
    for (const type of LOG_EVENTS) {
      hub.subscribe(
        type,
        { type: 'subscribe_events', event_type: type },
        (event) => {
          const e = event.event ?? event;
          const at = new Date(e.time_fired ?? Date.now()).toLocaleTimeString();
          const id = next++;
          setLines((list) => [{ id, at, text: logText(type, e.data ?? {}) }, ...list].slice(0, LOG_LINES));
          if (type !== 'zigbee_action') refresh();
        },
        type === LOG_EVENTS[0] ? refresh : undefined,
      );
    }
    hub.connect();
    const timer = setInterval(refresh, REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  const refresh = () => listDevices().then(setDevices, (/** @type {Error} */ e) => toast(e.message));
  return html`<div class="toolbar"><h1>Zigbee</h1><${LinkStatus} /></div>
<div class="zigbee-top"><${PermitJoin} /><${Log} lines=${lines} /></div>
<section aria-labelledby="devices-title">
  <h2 id="devices-title">Devices${devices === null ? '' : ` (${devices.length})`}</h2>
  ${
    devices === null
      ? html`<p class="loading">Loading…</p>`
      : devices.length === 0
        ? html`<p class="empty">No devices paired yet. Permit join, then reset a device to pair it.</p>`
        : html`<table class="devices">
  <thead><tr><th>Name</th><th>Model</th><th>Link quality</th><th>Last seen</th><th>Power</th><th></th></tr></thead>
  <tbody>${devices.map((d) => html`<${DeviceRow} key=${d.ieee_address} device=${d} refresh=${refresh} />`)}</tbody>
</table>`
  }
</section>
<${Groups} hub=${hub} devices=${devices} />
<${NetworkMap} />
<${Toasts} />`;
}

const root = document.getElementById('app');
if (root !== null) {
  root.textContent = '';
  render(html`<${App} />`, root);
}
Object.assign(window, { hearthZigbee: { hub } });
