// @ts-check
/**
 * /config/areas (areas grouped by floor, floors themselves) and /config/labels: create, rename, delete, over
 * Home Assistant's config/area_registry/*, config/floor_registry/* and config/label_registry/* commands. Each
 * area shows how many devices and entities it holds.
 */

import { byText, FormDialog, html, inputValue, isAdmin, mount, tryCommand, useRegistries } from './app-common.js';
import { useState } from './vendor/hooks.js';

const labelsPage = location.pathname.startsWith('/config/labels');

/** @typedef {{ kind: 'area' | 'floor' | 'label', item: any | null }} Editing */

/** @param {{ editing: Editing, floors: any[], onClose: () => void }} props */
function EditForm({ editing, floors, onClose }) {
  const { kind, item } = editing;
  const [name, setName] = useState(item?.name ?? '');
  const [floor, setFloor] = useState(item?.floor_id ?? '');
  const [level, setLevel] = useState(item?.level ?? '');
  const [icon, setIcon] = useState(item?.icon ?? '');
  const [color, setColor] = useState(item?.color ?? '');
  const [description, setDescription] = useState(item?.description ?? '');
  const save = async () => {
    /** @type {Record<string, unknown>} */
    const data = { name: name.trim(), icon: icon.trim() === '' ? null : icon.trim() };
    if (kind === 'area') data.floor_id = floor === '' ? null : floor;
    if (kind === 'floor') data.level = level === '' ? null : Number(level);
    if (kind === 'label') {
      data.color = color === '' ? null : color;
      data.description = description === '' ? null : description;
    }
    const type = `config/${kind}_registry/${item === null ? 'create' : 'update'}`;
    return (await tryCommand(item === null ? { type, ...data } : { type, [`${kind}_id`]: item[`${kind}_id`], ...data })) !== undefined;
  };
  const remove = async () => {
    if (!confirm(`Delete ${item.name}?`)) return;
    if ((await tryCommand({ type: `config/${kind}_registry/delete`, [`${kind}_id`]: item[`${kind}_id`] })) !== undefined) onClose();
  };
  return html`<${FormDialog} title=${item === null ? `New ${kind}` : `Edit ${item.name}`} onClose=${onClose} onSubmit=${save} submitLabel=${item === null ? 'Create' : 'Save'}
    extra=${item === null ? null : html`<button type="button" class="danger" onClick=${remove}>Delete</button>`}>
    <label>Name<input name="name" required value=${name} onInput=${(/** @type {Event} */ e) => setName(inputValue(e))} /></label>
    <label>Icon<input name="icon" placeholder="mdi:sofa" value=${icon} onInput=${(/** @type {Event} */ e) => setIcon(inputValue(e))} /></label>
    ${kind === 'area' ? html`<label>Floor<select name="floor" value=${floor} onChange=${(/** @type {Event} */ e) => setFloor(inputValue(e))}><option value="">No floor</option>${floors.map((f) => html`<option value=${f.floor_id}>${f.name}</option>`)}</select></label>` : null}
    ${kind === 'floor' ? html`<label>Level<input name="level" type="number" step="1" value=${level} onInput=${(/** @type {Event} */ e) => setLevel(inputValue(e))} /></label>` : null}
    ${
      kind === 'label'
        ? html`<label>Colour<input name="color" placeholder="red" value=${color} onInput=${(/** @type {Event} */ e) => setColor(inputValue(e))} /></label>
      <label>Description<input name="description" value=${description} onInput=${(/** @type {Event} */ e) => setDescription(inputValue(e))} /></label>`
        : null
    }
  </${FormDialog}>`;
}

function App() {
  const reg = useRegistries();
  const [editing, setEditing] = useState(/** @type {Editing | null} */ (null));
  if (reg === null) return html`<p class="loading">Loading…</p>`;
  const areaOfEntity = (/** @type {any} */ e) => e.area_id ?? reg.devices.find((d) => d.id === e.device_id)?.area_id ?? null;
  const count = (/** @type {string} */ areaId) => ({
    devices: reg.devices.filter((d) => d.area_id === areaId).length,
    entities: reg.entities.filter((e) => areaOfEntity(e) === areaId).length,
  });
  const edit = (/** @type {Editing['kind']} */ kind, /** @type {any} */ item) => isAdmin && setEditing({ kind, item });
  const dialog =
    editing !== null
      ? html`<${EditForm} key=${editing.item?.name ?? editing.kind} editing=${editing} floors=${reg.floors} onClose=${() => setEditing(null)} />`
      : null;

  if (labelsPage) {
    const usage = (/** @type {string} */ id) =>
      reg.entities.filter((e) => e.labels.includes(id)).length + reg.devices.filter((d) => (d.labels ?? []).includes(id)).length;
    return html`<div class="bar"><span class="grow"></span>${isAdmin ? html`<button type="button" class="primary" onClick=${() => edit('label', null)}>Create label</button>` : null}</div>
    <div class="table-wrap"><table class="list labels"><thead><tr><th>Label</th><th>Description</th><th>Used by</th><th></th></tr></thead>
    <tbody>${[...reg.labels]
      .sort((a, b) => byText(a.name, b.name))
      .map(
        (
          l,
        ) => html`<tr key=${l.label_id} data-label=${l.label_id}><td class="name"><span class="chip">${l.name}</span></td><td class="muted">${l.description ?? ''}</td><td>${usage(l.label_id)}</td>
      <td>${isAdmin ? html`<button type="button" onClick=${() => edit('label', l)}>Edit</button>` : null}</td></tr>`,
      )}</tbody></table></div>
    ${reg.labels.length === 0 ? html`<p class="empty">No labels yet.</p>` : null}${dialog}`;
  }

  const floors = [...reg.floors].sort((a, b) => (a.level ?? 0) - (b.level ?? 0) || byText(a.name, b.name));
  const groups = [
    ...floors.map((f) => ({ floor: f, areas: reg.areas.filter((a) => a.floor_id === f.floor_id) })),
    { floor: null, areas: reg.areas.filter((a) => !reg.floors.some((f) => f.floor_id === a.floor_id)) },
  ];
  return html`<div class="bar"><span class="grow"></span>${
    isAdmin
      ? html`<button type="button" onClick=${() => edit('floor', null)}>Create floor</button> <button type="button" class="primary" onClick=${() => edit('area', null)}>Create area</button>`
      : null
  }</div>
  ${groups.map(
    (g) =>
      (g.floor !== null || g.areas.length > 0) &&
      html`<section class="floor" key=${g.floor?.floor_id ?? 'none'}>
      <h2>${g.floor === null ? 'Unassigned areas' : g.floor.name}${g.floor !== null && g.floor.level !== null ? html` <small class="muted">level ${g.floor.level}</small>` : null}
        ${g.floor !== null && isAdmin ? html` <button type="button" class="link" onClick=${() => edit('floor', g.floor)}>Edit floor</button>` : null}</h2>
      <div class="table-wrap"><table class="list areas"><tbody>${[...g.areas]
        .sort((a, b) => byText(a.name, b.name))
        .map((a) => {
          const c = count(a.area_id);
          return html`<tr key=${a.area_id} data-area=${a.area_id}><td class="name">${a.name}</td><td class="muted">${c.devices} devices · ${c.entities} entities</td>
          <td>${isAdmin ? html`<button type="button" onClick=${() => edit('area', a)}>Edit</button>` : null}</td></tr>`;
        })}</tbody></table></div>
    </section>`,
  )}
  ${reg.areas.length === 0 ? html`<p class="empty">No areas yet.</p>` : null}${dialog}`;
}

mount(App);
