// @ts-check
/**
 * /config/zone: the zones. Those made here (zone/list, zone/create, zone/update, zone/delete) can be changed;
 * zone.home and the YAML ones are shown read-only, as in Home Assistant (edit configuration.yaml, then zone.reload).
 */

import { checkedOf, FormDialog, html, inputValue, isAdmin, mount, toast, tryCommand, useStates } from './app-common.js';
import { useEffect, useState } from './vendor/hooks.js';

/** @typedef {{ id: string, name: string, latitude: number, longitude: number, radius: number, passive: boolean, icon?: string }} StoredZone */

/** @param {{ zone: StoredZone | null, onClose: () => void, onSaved: () => void }} props */
function ZoneDialog({ zone, onClose, onSaved }) {
  const [name, setName] = useState(zone?.name ?? '');
  const [latitude, setLatitude] = useState(String(zone?.latitude ?? ''));
  const [longitude, setLongitude] = useState(String(zone?.longitude ?? ''));
  const [radius, setRadius] = useState(String(zone?.radius ?? 100));
  const [passive, setPassive] = useState(zone?.passive ?? false);
  const [icon, setIcon] = useState(zone?.icon ?? '');
  const submit = async () => {
    const fields = { name, latitude: Number(latitude), longitude: Number(longitude), radius: Number(radius), passive };
    if (icon !== '') Object.assign(fields, { icon });
    const done =
      zone === null
        ? await tryCommand({ type: 'zone/create', ...fields })
        : await tryCommand({ type: 'zone/update', zone_id: zone.id, ...fields });
    if (done === undefined) return false;
    onSaved();
  };
  const remove = async () => {
    if (zone === null || !confirm(`Delete the zone ${zone.name}?`)) return;
    if ((await tryCommand({ type: 'zone/delete', zone_id: zone.id })) !== undefined) {
      onSaved();
      onClose();
    }
  };
  const number = (
    /** @type {string} */ label,
    /** @type {string} */ key,
    /** @type {string} */ value,
    /** @type {(v: string) => void} */ set,
    step = 'any',
  ) =>
    html`<label>${label}<input name=${key} type="number" step=${step} required value=${value} onInput=${(/** @type {Event} */ e) => set(inputValue(e))} /></label>`;
  return html`<${FormDialog} title=${zone === null ? 'Add zone' : `Edit ${zone.name}`} onClose=${onClose} onSubmit=${submit}
    submitLabel=${zone === null ? 'Create' : 'Save'}
    extra=${zone === null ? null : html`<button type="button" class="danger" onClick=${remove}>Delete</button>`}>
    <label>Name<input name="name" required value=${name} onInput=${(/** @type {Event} */ e) => setName(inputValue(e))} /></label>
    ${number('Latitude', 'latitude', latitude, setLatitude)}
    ${number('Longitude', 'longitude', longitude, setLongitude)}
    ${number('Radius (m)', 'radius', radius, setRadius)}
    <label>Icon<input name="icon" placeholder="mdi:briefcase" value=${icon} onInput=${(/** @type {Event} */ e) => setIcon(inputValue(e))} /></label>
    <label class="check"><input type="checkbox" name="passive" checked=${passive} onChange=${(/** @type {Event} */ e) => setPassive(checkedOf(e))} /> Passive (only for automations, never a person's state)</label>
  </${FormDialog}>`;
}

function App() {
  const states = useStates();
  const [stored, setStored] = useState(/** @type {StoredZone[] | null} */ (null));
  const [editing, setEditing] = useState(/** @type {StoredZone | null | undefined} */ (undefined));
  const [version, setVersion] = useState(0);
  useEffect(() => {
    tryCommand({ type: 'zone/list' }).then((list) => list !== undefined && setStored(list));
  }, [version]);
  const reload = () => setVersion((v) => v + 1);
  // The zones from configuration.yaml and the hub's location: the zone entities not made here.
  const mine = new Set((stored ?? []).map((z) => `zone.${z.id}`));
  const fixed = states
    .ids()
    .filter((id) => id.startsWith('zone.') && !mine.has(id))
    .sort();
  return html`${isAdmin ? html`<div class="bar"><span class="grow"></span><button type="button" class="primary" onClick=${() => setEditing(null)}>Add zone</button></div>` : null}
  ${
    stored === null
      ? html`<p class="loading">Loading…</p>`
      : html`<div class="table-wrap"><table class="list zones">
    <thead><tr><th>Name</th><th>Latitude</th><th>Longitude</th><th>Radius</th><th>Persons</th><th></th></tr></thead>
    <tbody>
      ${stored.map(
        (z) => html`<tr key=${z.id} data-zone=${z.id}>
        <td class="name">${z.name}${z.passive ? html` <span class="chip">Passive</span>` : null}</td>
        <td>${z.latitude}</td><td>${z.longitude}</td><td>${z.radius} m</td>
        <td>${personsIn(states, z.id)}</td>
        <td>${isAdmin ? html`<button type="button" onClick=${() => setEditing(z)}>Edit</button>` : null}</td>
      </tr>`,
      )}
      ${fixed.map((id) => {
        const a = states.get(id)?.attributes ?? {};
        return html`<tr key=${id} data-zone=${id}>
        <td class="name">${String(a.friendly_name ?? id)} <span class="chip">${id === 'zone.home' ? 'Home' : 'YAML'}</span></td>
        <td>${String(a.latitude ?? '')}</td><td>${String(a.longitude ?? '')}</td><td>${String(a.radius ?? '')} m</td>
        <td>${String(states.get(id)?.state ?? '')}</td>
        <td><span class="muted" title="Set in configuration.yaml (or the hub's location): change it there, then reload zones">read-only</span></td>
      </tr>`;
      })}
    </tbody></table></div>`
  }
  ${
    editing !== undefined
      ? html`<${ZoneDialog} key=${editing?.id ?? 'new'} zone=${editing} onClose=${() => setEditing(undefined)} onSaved=${() => {
          reload();
          toast('Saved.');
        }} />`
      : null
  }`;
}

/** How many persons are in a stored zone: the state of zone.<its id>, as it is named at creation. @param {ReturnType<typeof useStates>} states @param {string} zoneId */
function personsIn(states, zoneId) {
  const s = states.get(`zone.${zoneId}`);
  return s === undefined ? '' : s.state;
}

mount(App);
