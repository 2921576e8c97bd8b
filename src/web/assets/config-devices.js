// @ts-check
/**
 * /config/devices: every device with its maker, model and area, searchable; /config/devices/device/<id>: one
 * device's settings (name, area, labels, enabled) over config/device_registry/update, and its entities.
 */

import { byText, checkedOf, html, inputValue, isAdmin, mount, store, tryCommand, useRegistries, useStates } from './app-common.js';
import { useState } from './vendor/hooks.js';

const deviceId = location.pathname.startsWith('/config/devices/device/') ? decodeURIComponent(location.pathname.split('/')[4] ?? '') : null;

/** @param {any} d */
const nameOf = (d) => String(d.name_by_user ?? d.name ?? d.id);

/** @param {{ device: any, reg: import('./app-common.js').Registries }} props */
function DevicePage({ device, reg }) {
  const [name, setName] = useState(device.name_by_user ?? '');
  const [area, setArea] = useState(device.area_id ?? '');
  const entities = reg.entities.filter((e) => e.device_id === device.id);
  const save = async (/** @type {Event} */ e) => {
    e.preventDefault();
    await tryCommand({
      type: 'config/device_registry/update',
      device_id: device.id,
      name_by_user: name.trim() === '' ? null : name.trim(),
      area_id: area === '' ? null : area,
    });
  };
  return html`<p><a href="/config/devices">← Devices</a></p>
  <h2>${nameOf(device)}</h2>
  <p class="muted">${[device.manufacturer, device.model, device.sw_version && `firmware ${device.sw_version}`].filter(Boolean).join(' · ')}</p>
  <form class="panel form-grid" onSubmit=${save}>
    <label>Name<input name="name_by_user" placeholder=${device.name} value=${name} onInput=${(/** @type {Event} */ e) => setName(inputValue(e))} /></label>
    <label>Area<select name="area" value=${area} onChange=${(/** @type {Event} */ e) => setArea(inputValue(e))}><option value="">No area</option>${reg.areas.map((a) => html`<option value=${a.area_id}>${a.name}</option>`)}</select></label>
    <label class="check"><input type="checkbox" checked=${device.disabled_by === null} disabled=${!isAdmin} onChange=${(
      /** @type {Event} */ e,
    ) =>
      tryCommand({
        type: 'config/device_registry/update',
        device_id: device.id,
        disabled_by: checkedOf(e) ? null : 'user',
      })} /> Enabled</label>
    <div class="actions"><button type="submit" class="primary" disabled=${!isAdmin}>Save</button></div>
  </form>
  <h2>Entities</h2>
  <div class="table-wrap"><table class="list device-entities"><thead><tr><th>Entity</th><th class="wide-only">Entity ID</th><th>State</th></tr></thead><tbody>
    ${entities.map((e) => {
      const st = store.get(e.entity_id);
      return html`<tr key=${e.entity_id} data-entity=${e.entity_id}><td class="name">${e.name ?? st?.attributes.friendly_name ?? e.original_name ?? e.entity_id}</td><td class="wide-only muted">${e.entity_id}</td><td>${st?.state ?? '–'}</td></tr>`;
    })}
  </tbody></table></div>`;
}

function App() {
  useStates();
  const reg = useRegistries();
  const [filter, setFilter] = useState('');
  if (reg === null) return html`<p class="loading">Loading…</p>`;
  if (deviceId !== null) {
    const device = reg.devices.find((d) => d.id === deviceId);
    return device === undefined
      ? html`<p class="notice">No device with id ${deviceId}. <a href="/config/devices">All devices</a></p>`
      : html`<${DevicePage} key=${device.id} device=${device} reg=${reg} />`;
  }
  const needle = filter.trim().toLowerCase();
  const areaName = (/** @type {string | null} */ id) => reg.areas.find((a) => a.area_id === id)?.name ?? '';
  const rows = reg.devices
    .filter(
      (d) =>
        needle === '' ||
        [nameOf(d), d.manufacturer, d.model, areaName(d.area_id)].some((s) =>
          String(s ?? '')
            .toLowerCase()
            .includes(needle),
        ),
    )
    .sort((a, b) => byText(nameOf(a), nameOf(b)));
  return html`<div class="bar"><input type="search" placeholder="Search devices" aria-label="Search devices" value=${filter} onInput=${(/** @type {Event} */ e) => setFilter(inputValue(e))} /></div>
  <div class="table-wrap"><table class="list devices"><thead><tr><th>Device</th><th class="wide-only">Manufacturer</th><th class="wide-only">Model</th><th>Area</th><th>Entities</th></tr></thead><tbody>
    ${rows.map(
      (
        d,
      ) => html`<tr key=${d.id} data-device=${d.id}><td class="name"><a href=${`/config/devices/device/${encodeURIComponent(d.id)}`}>${nameOf(d)}</a></td>
      <td class="wide-only muted">${d.manufacturer ?? ''}</td><td class="wide-only muted">${d.model ?? ''}</td><td>${areaName(d.area_id)}</td>
      <td>${reg.entities.filter((e) => e.device_id === d.id).length}</td></tr>`,
    )}
  </tbody></table></div>
  ${rows.length === 0 ? html`<p class="empty">No devices.</p>` : null}`;
}

mount(App);
