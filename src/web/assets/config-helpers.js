// @ts-check
/**
 * /config/helpers: every helper, made here (the `<domain>/list|create|update|delete` collection commands) or in
 * the configuration file (shown, not editable here), with a form for each kind's fields as Home Assistant's.
 */

import { byText, checkedOf, FormDialog, html, inputValue, isAdmin, mount, tryCommand, useStates } from './app-common.js';
import { useEffect, useState } from './vendor/hooks.js';

/** @typedef {{ key: string, label: string, type: 'text' | 'number' | 'boolean' | 'select' | 'options' | 'duration', options?: string[], required?: boolean, def?: unknown }} Field */

const NAME = /** @type {Field} */ ({ key: 'name', label: 'Name', type: 'text', required: true });
const ICON = /** @type {Field} */ ({ key: 'icon', label: 'Icon (mdi:…)', type: 'text' });

/** Each kind's fields, as Home Assistant's helper dialogs. @type {Record<string, { title: string, fields: Field[] }>} */
export const KINDS = {
  input_boolean: { title: 'Toggle', fields: [NAME, ICON, { key: 'initial', label: 'Initially on', type: 'boolean' }] },
  input_button: { title: 'Button', fields: [NAME, ICON] },
  counter: {
    title: 'Counter',
    fields: [
      NAME,
      ICON,
      { key: 'initial', label: 'Initial value', type: 'number', def: 0 },
      { key: 'step', label: 'Step', type: 'number', def: 1 },
      { key: 'minimum', label: 'Minimum', type: 'number' },
      { key: 'maximum', label: 'Maximum', type: 'number' },
      { key: 'restore', label: 'Restore the value after a restart', type: 'boolean', def: true },
    ],
  },
  input_number: {
    title: 'Number',
    fields: [
      NAME,
      ICON,
      { key: 'min', label: 'Minimum', type: 'number', required: true, def: 0 },
      { key: 'max', label: 'Maximum', type: 'number', required: true, def: 100 },
      { key: 'step', label: 'Step', type: 'number', def: 1 },
      { key: 'mode', label: 'Display mode', type: 'select', options: ['slider', 'box'], def: 'slider' },
      { key: 'unit_of_measurement', label: 'Unit of measurement', type: 'text' },
    ],
  },
  input_text: {
    title: 'Text',
    fields: [
      NAME,
      ICON,
      { key: 'min', label: 'Minimum length', type: 'number', def: 0 },
      { key: 'max', label: 'Maximum length', type: 'number', def: 100 },
      { key: 'mode', label: 'Display mode', type: 'select', options: ['text', 'password'], def: 'text' },
      { key: 'pattern', label: 'Regex pattern', type: 'text' },
    ],
  },
  input_select: {
    title: 'Dropdown',
    fields: [NAME, ICON, { key: 'options', label: 'Options (one a line)', type: 'options', required: true }],
  },
  input_datetime: {
    title: 'Date and/or time',
    fields: [
      NAME,
      ICON,
      { key: 'has_date', label: 'Date', type: 'boolean', def: true },
      { key: 'has_time', label: 'Time', type: 'boolean', def: false },
    ],
  },
  timer: {
    title: 'Timer',
    fields: [
      NAME,
      ICON,
      { key: 'duration', label: 'Duration (h:mm:ss)', type: 'duration', def: '0:00:00' },
      { key: 'restore', label: 'Restore after a restart', type: 'boolean', def: false },
    ],
  },
};

/** @typedef {{ domain: string, item: Record<string, any> | null }} Editing */

/** @param {{ domain: string, item: Record<string, any> | null, onClose: () => void, onSaved: () => void }} props */
function HelperForm({ domain, item, onClose, onSaved }) {
  const kind = KINDS[domain];
  const [values, setValues] = useState(() => {
    /** @type {Record<string, any>} */
    const v = {};
    for (const f of kind.fields) v[f.key] = item?.[f.key] ?? f.def ?? (f.type === 'boolean' ? false : '');
    if (Array.isArray(v.options)) v.options = v.options.join('\n');
    return v;
  });
  const set = (/** @type {string} */ key, /** @type {unknown} */ value) => setValues((v) => ({ ...v, [key]: value }));
  const submit = async () => {
    /** @type {Record<string, unknown>} */
    const data = {};
    for (const f of kind.fields) {
      const v = values[f.key];
      if (f.type === 'number') {
        if (v === '' || v === null) continue;
        data[f.key] = Number(v);
      } else if (f.type === 'options') {
        data[f.key] = String(v)
          .split('\n')
          .map((s) => s.trim())
          .filter((s) => s !== '');
      } else if (f.type === 'boolean') data[f.key] = v === true;
      else if (v !== '') data[f.key] = v;
    }
    const result =
      item === null
        ? await tryCommand({ type: `${domain}/create`, ...data })
        : await tryCommand({ type: `${domain}/update`, [`${domain}_id`]: item.id, ...data });
    if (result === undefined) return false;
    onSaved();
  };
  return html`<${FormDialog} title=${item === null ? `New ${kind.title.toLowerCase()} helper` : `Edit ${item.name ?? item.id}`} onClose=${onClose} onSubmit=${submit} submitLabel=${item === null ? 'Create' : 'Save'}>
    ${kind.fields.map((f) => {
      const v = values[f.key];
      if (f.type === 'boolean')
        return html`<label class="check" key=${f.key}><input type="checkbox" name=${f.key} checked=${v === true} onChange=${(/** @type {Event} */ e) => set(f.key, checkedOf(e))} />${f.label}</label>`;
      if (f.type === 'select')
        return html`<label key=${f.key}>${f.label}<select name=${f.key} value=${v} onChange=${(/** @type {Event} */ e) => set(f.key, inputValue(e))}>${(f.options ?? []).map((o) => html`<option value=${o}>${o}</option>`)}</select></label>`;
      if (f.type === 'options')
        return html`<label key=${f.key}>${f.label}<textarea name=${f.key} rows="4" required=${f.required} value=${v} onInput=${(/** @type {Event} */ e) => set(f.key, inputValue(e))}></textarea></label>`;
      return html`<label key=${f.key}>${f.label}<input name=${f.key} type=${f.type === 'number' ? 'number' : 'text'} step="any" required=${f.required} value=${v} onInput=${(/** @type {Event} */ e) => set(f.key, inputValue(e))} /></label>`;
    })}
  </${FormDialog}>`;
}

function App() {
  const store = useStates();
  const [items, setItems] = useState(/** @type {Record<string, any[]>} */ ({}));
  const [editing, setEditing] = useState(/** @type {Editing | null} */ (null));
  const [choosing, setChoosing] = useState(false);
  const [filter, setFilter] = useState('');
  const [version, setVersion] = useState(0);
  useEffect(() => {
    Promise.all(Object.keys(KINDS).map((d) => tryCommand({ type: `${d}/list` }))).then((lists) =>
      setItems(Object.fromEntries(Object.keys(KINDS).map((d, i) => [d, Array.isArray(lists[i]) ? lists[i] : []]))),
    );
  }, [version]);
  const reload = () => setVersion((v) => v + 1);

  /** @type {{ domain: string, entityId: string, name: string, item: any }[]} */
  const rows = [];
  const seen = new Set();
  for (const [domain, list] of Object.entries(items)) {
    for (const item of list) {
      const entityId = `${domain}.${item.id}`;
      seen.add(entityId);
      rows.push({ domain, entityId, name: String(item.name ?? item.id), item });
    }
  }
  for (const id of store.ids()) {
    const domain = id.slice(0, id.indexOf('.'));
    if (KINDS[domain] !== undefined && !seen.has(id))
      rows.push({ domain, entityId: id, name: String(store.get(id)?.attributes.friendly_name ?? id), item: null });
  }
  const needle = filter.trim().toLowerCase();
  const shown = rows
    .filter((r) => needle === '' || r.name.toLowerCase().includes(needle) || r.entityId.includes(needle))
    .sort((a, b) => byText(a.name, b.name));

  const remove = async (/** @type {string} */ domain, /** @type {any} */ item) => {
    if (!confirm(`Delete the helper ${item.name ?? item.id}?`)) return;
    if ((await tryCommand({ type: `${domain}/delete`, [`${domain}_id`]: item.id })) !== undefined) reload();
  };

  return html`<div class="bar">
    <input type="search" placeholder="Search helpers" aria-label="Search helpers" value=${filter} onInput=${(/** @type {Event} */ e) => setFilter(inputValue(e))} />
    <span class="grow"></span>
    ${isAdmin ? html`<button class="primary" type="button" onClick=${() => setChoosing(true)}>Create helper</button>` : null}
  </div>
  <div class="table-wrap"><table class="list helpers">
    <thead><tr><th>Name</th><th class="wide-only">Entity ID</th><th>Type</th><th>State</th><th></th></tr></thead>
    <tbody>${shown.map(
      (r) => html`<tr key=${r.entityId} data-entity=${r.entityId}>
      <td class="name">${r.name}</td><td class="wide-only muted">${r.entityId}</td><td>${KINDS[r.domain].title}</td>
      <td>${store.get(r.entityId)?.state ?? '–'}</td>
      <td>${
        r.item === null
          ? html`<span class="muted" title="Defined in the configuration file">YAML</span>`
          : isAdmin
            ? html`<button type="button" onClick=${() => setEditing({ domain: r.domain, item: r.item })}>Edit</button> <button type="button" class="danger" onClick=${() => remove(r.domain, r.item)}>Delete</button>`
            : null
      }</td>
    </tr>`,
    )}</tbody>
  </table></div>
  ${shown.length === 0 ? html`<p class="empty">No helpers yet.</p>` : null}
  ${
    choosing
      ? html`<${FormDialog} title="Create helper" onClose=${() => setChoosing(false)}>
      <p>Which kind of helper?</p>
      <div class="chips">${Object.entries(KINDS).map(
        ([domain, k]) =>
          html`<button type="button" key=${domain} data-kind=${domain} onClick=${() => {
            setChoosing(false);
            setEditing({ domain, item: null });
          }}>${k.title}</button>`,
      )}</div>
    </${FormDialog}>`
      : null
  }
  ${editing !== null ? html`<${HelperForm} key=${editing.item?.id ?? editing.domain} domain=${editing.domain} item=${editing.item} onClose=${() => setEditing(null)} onSaved=${reload} />` : null}`;
}

mount(App);
