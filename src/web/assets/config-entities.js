// @ts-check
/**
 * /config/entities: every entity with its registry entry (config/entity_registry/*): search, filters by domain,
 * area, label and status, sort by any column, the settings dialog of one entity, and bulk actions on the
 * selected ones (area, label, hide, disable).
 */

import { byText, checkedOf, html, inputValue, isAdmin, mount, store, tryCommand, useRegistries, useStates } from './app-common.js';
import { EntitySettings } from './entity-settings.js';
import { useState } from './vendor/hooks.js';

/** @typedef {import('./app-common.js').Registries} Registries */

/** The area an entity is in: its own, else its device's. @param {any} e @param {Registries} reg */
function areaOf(e, reg) {
  if (e.area_id) return e.area_id;
  return reg.devices.find((d) => d.id === e.device_id)?.area_id ?? null;
}

/** @param {string} id */
function domainOf(id) {
  return id.slice(0, id.indexOf('.'));
}

const COLUMNS = /** @type {const} */ ([
  ['name', 'Name'],
  ['entity_id', 'Entity ID'],
  ['area', 'Area'],
  ['status', 'Status'],
]);

function App() {
  useStates();
  const reg = useRegistries();
  const [filter, setFilter] = useState('');
  const [domain, setDomain] = useState('');
  const [areaFilter, setAreaFilter] = useState('');
  const [labelFilter, setLabelFilter] = useState('');
  const [sort, setSort] = useState({ key: 'name', up: true });
  const [selected, setSelected] = useState(/** @type {Set<string>} */ (new Set()));
  const [open, setOpen] = useState(/** @type {string | null} */ (null));
  if (reg === null) return html`<p class="loading">Loading…</p>`;

  const areaName = (/** @type {string | null} */ id) => (id === null ? '' : (reg.areas.find((a) => a.area_id === id)?.name ?? id));
  const rows = reg.entities.map((e) => {
    const st = store.get(e.entity_id);
    const area = areaOf(e, reg);
    return {
      e,
      name: String(e.name ?? st?.attributes.friendly_name ?? e.original_name ?? e.entity_id),
      entity_id: e.entity_id,
      area: areaName(area),
      areaId: area,
      status:
        e.disabled_by !== null
          ? 'Disabled'
          : e.hidden_by !== null
            ? 'Hidden'
            : st === undefined
              ? 'Not provided'
              : st.state === 'unavailable'
                ? 'Unavailable'
                : '',
    };
  });
  // States without a registry entry (no unique id) are listed too, read-only, as in Home Assistant.
  const known = new Set(rows.map((r) => r.entity_id));
  for (const id of store.ids()) {
    if (known.has(id)) continue;
    const e = { entity_id: id, labels: [], readOnly: true };
    rows.push({
      e,
      name: String(store.get(id)?.attributes.friendly_name ?? id),
      entity_id: id,
      area: '',
      areaId: null,
      status: 'Read-only',
    });
  }
  const needle = filter.trim().toLowerCase();
  const shown = rows
    .filter(
      (r) =>
        (needle === '' || r.name.toLowerCase().includes(needle) || r.entity_id.includes(needle) || r.area.toLowerCase().includes(needle)) &&
        (domain === '' || domainOf(r.entity_id) === domain) &&
        (areaFilter === '' || r.areaId === areaFilter) &&
        (labelFilter === '' || r.e.labels.includes(labelFilter)),
    )
    .sort((a, b) => (sort.up ? 1 : -1) * byText(String(a[sort.key]), String(b[sort.key])));
  const domains = [...new Set(rows.map((r) => domainOf(r.entity_id)))].sort();
  const toggle = (/** @type {string} */ id, /** @type {boolean} */ on) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const bulk = async (/** @type {(e: any) => Record<string, unknown>} */ change) => {
    for (const id of selected) {
      const e = reg.entities.find((x) => x.entity_id === id);
      if (e !== undefined) await tryCommand({ type: 'config/entity_registry/update', entity_id: id, ...change(e) });
    }
    setSelected(new Set());
  };
  const entry = open === null ? undefined : reg.entities.find((e) => e.entity_id === open);

  return html`<div class="bar">
    <input type="search" placeholder="Search name, entity ID or area" aria-label="Search entities" value=${filter} onInput=${(/** @type {Event} */ e) => setFilter(inputValue(e))} />
    <select aria-label="Domain" value=${domain} onChange=${(/** @type {Event} */ e) => setDomain(inputValue(e))}><option value="">All domains</option>${domains.map((d) => html`<option value=${d}>${d}</option>`)}</select>
    <select aria-label="Area" value=${areaFilter} onChange=${(/** @type {Event} */ e) => setAreaFilter(inputValue(e))}><option value="">All areas</option>${reg.areas.map((a) => html`<option value=${a.area_id}>${a.name}</option>`)}</select>
    <select aria-label="Label" value=${labelFilter} onChange=${(/** @type {Event} */ e) => setLabelFilter(inputValue(e))}><option value="">All labels</option>${reg.labels.map((l) => html`<option value=${l.label_id}>${l.name}</option>`)}</select>
  </div>
  ${
    selected.size > 0 && isAdmin
      ? html`<div class="bar bulk" role="group" aria-label="Bulk actions"><span>${selected.size} selected</span>
      <select aria-label="Move to area" onChange=${(/** @type {Event} */ e) => {
        const v = inputValue(e);
        if (v !== '-') bulk(() => ({ area_id: v === '' ? null : v }));
      }}><option value="-">Move to area…</option><option value="">No area</option>${reg.areas.map((a) => html`<option value=${a.area_id}>${a.name}</option>`)}</select>
      <select aria-label="Add label" onChange=${(/** @type {Event} */ e) => {
        const v = inputValue(e);
        if (v !== '') bulk((x) => ({ labels: [...new Set([...x.labels, v])] }));
      }}><option value="">Add label…</option>${reg.labels.map((l) => html`<option value=${l.label_id}>${l.name}</option>`)}</select>
      <button type="button" onClick=${() => bulk(() => ({ hidden_by: 'user' }))}>Hide</button>
      <button type="button" onClick=${() => bulk(() => ({ hidden_by: null }))}>Show</button>
      <button type="button" onClick=${() => bulk(() => ({ disabled_by: 'user' }))}>Disable</button>
      <button type="button" onClick=${() => bulk(() => ({ disabled_by: null }))}>Enable</button>
    </div>`
      : null
  }
  <div class="table-wrap"><table class="list entities">
    <thead><tr><th><input type="checkbox" aria-label="Select all" checked=${selected.size > 0 && selected.size === shown.length} onChange=${(
      /** @type {Event} */ e,
    ) => setSelected(checkedOf(e) ? new Set(shown.map((r) => r.entity_id)) : new Set())} /></th>
      ${COLUMNS.map(
        ([key, label]) =>
          html`<th class=${key === 'entity_id' ? 'wide-only' : ''} aria-sort=${sort.key === key ? (sort.up ? 'ascending' : 'descending') : 'none'}><button class="sort" type="button" onClick=${() => setSort((s) => ({ key, up: s.key === key ? !s.up : true }))}>${label}${sort.key === key ? (sort.up ? ' ▲' : ' ▼') : ''}</button></th>`,
      )}</tr></thead>
    <tbody>${shown.map(
      (r) => html`<tr key=${r.entity_id} data-entity=${r.entity_id}>
      <td><input type="checkbox" aria-label=${`Select ${r.name}`} checked=${selected.has(r.entity_id)} onChange=${(/** @type {Event} */ e) => toggle(r.entity_id, checkedOf(e))} /></td>
      <td class="name">${
        r.e.readOnly === true
          ? html`<span title="This entity has no unique ID, so its settings cannot be changed here">${r.name}</span>`
          : html`<button type="button" class="link" title=${r.name} onClick=${() => setOpen(r.entity_id)}>${r.name}</button>`
      }</td>
      <td class="wide-only muted">${r.entity_id}</td><td>${r.area}</td><td class="muted">${r.status}</td>
    </tr>`,
    )}</tbody>
  </table></div>
  <p class="muted">${shown.length} of ${rows.length} entities</p>
  ${entry !== undefined ? html`<${EntitySettings} key=${entry.entity_id} entry=${entry} reg=${reg} onClose=${() => setOpen(null)} />` : null}`;
}

mount(App);
