// @ts-check
/**
 * /config/person: the persons. Those made here (person/list's `storage`, person/create, update, delete) can be
 * changed: their name, the user they are, and the device trackers that say where they are. Those from
 * configuration.yaml (`config`) are shown read-only, as in Home Assistant.
 */

import { FormDialog, html, inputValue, isAdmin, mount, toast, tryCommand, useStates } from './app-common.js';
import { useEffect, useState } from './vendor/hooks.js';

/** @typedef {{ id: string, name: string, user_id?: string | null, device_trackers: string[], picture?: string | null }} PersonItem */
/** @typedef {{ id: string, name: string }} UserInfo */

/** @param {{ person: PersonItem | null, users: UserInfo[], trackers: string[], onClose: () => void, onSaved: () => void }} props */
function PersonDialog({ person, users, trackers, onClose, onSaved }) {
  const [name, setName] = useState(person?.name ?? '');
  const [userId, setUserId] = useState(person?.user_id ?? '');
  const [chosen, setChosen] = useState(/** @type {string[]} */ (person?.device_trackers ?? []));
  const submit = async () => {
    const fields = { name, user_id: userId === '' ? null : userId, device_trackers: chosen };
    const done =
      person === null
        ? await tryCommand({ type: 'person/create', ...fields })
        : await tryCommand({ type: 'person/update', person_id: person.id, ...fields });
    if (done === undefined) return false;
    onSaved();
  };
  const remove = async () => {
    if (person === null || !confirm(`Delete ${person.name}?`)) return;
    if ((await tryCommand({ type: 'person/delete', person_id: person.id })) !== undefined) {
      onSaved();
      onClose();
    }
  };
  const toggle = (/** @type {string} */ id) => setChosen(chosen.includes(id) ? chosen.filter((t) => t !== id) : [...chosen, id]);
  const all = [...new Set([...trackers, ...chosen])].sort();
  return html`<${FormDialog} title=${person === null ? 'Add person' : `Edit ${person.name}`} onClose=${onClose} onSubmit=${submit}
    submitLabel=${person === null ? 'Create' : 'Save'}
    extra=${person === null ? null : html`<button type="button" class="danger" onClick=${remove}>Delete</button>`}>
    <label>Name<input name="name" required value=${name} onInput=${(/** @type {Event} */ e) => setName(inputValue(e))} /></label>
    <label>User<select name="user_id" value=${userId} onChange=${(/** @type {Event} */ e) => setUserId(/** @type {HTMLSelectElement} */ (e.currentTarget).value)}>
      <option value="">No user (cannot log in)</option>
      ${users.map((u) => html`<option key=${u.id} value=${u.id} selected=${u.id === userId}>${u.name}</option>`)}
    </select></label>
    <fieldset class="trackers"><legend>Device trackers</legend>
      ${all.length === 0 ? html`<p class="muted">No device trackers yet (device_tracker.see, MQTT or the Companion app make them).</p>` : null}
      ${all.map(
        (id) =>
          html`<label class="check" key=${id}><input type="checkbox" name="tracker" value=${id} checked=${chosen.includes(id)} onChange=${() => toggle(id)} /> ${id}</label>`,
      )}
    </fieldset>
  </${FormDialog}>`;
}

function App() {
  const states = useStates();
  const [list, setList] = useState(/** @type {{ storage: PersonItem[], config: PersonItem[] } | null} */ (null));
  const [users, setUsers] = useState(/** @type {UserInfo[]} */ ([]));
  const [editing, setEditing] = useState(/** @type {PersonItem | null | undefined} */ (undefined));
  const [version, setVersion] = useState(0);
  useEffect(() => {
    tryCommand({ type: 'person/list' }).then((l) => l !== undefined && setList(l));
  }, [version]);
  useEffect(() => {
    if (isAdmin) tryCommand({ type: 'config/auth/list' }).then((l) => l !== undefined && setUsers(l));
  }, []);
  const reload = () => setVersion((v) => v + 1);
  const trackers = states.ids().filter((id) => id.startsWith('device_tracker.'));
  const userName = (/** @type {string | null | undefined} */ id) => (id ? (users.find((u) => u.id === id)?.name ?? id) : '');
  /** The person entity of an item: the one whose `id` attribute is the item's. @param {string} id */
  const stateOf = (id) => {
    const entityId = states.ids().find((e) => e.startsWith('person.') && states.get(e)?.attributes.id === id);
    return entityId === undefined ? '' : String(states.get(entityId)?.state ?? '');
  };
  const row = (/** @type {PersonItem} */ p, /** @type {boolean} */ editable) => html`<tr key=${p.id} data-person=${p.id}>
    <td class="name">${p.name}${editable ? null : html` <span class="chip">YAML</span>`}</td>
    <td>${stateOf(p.id)}</td>
    <td>${userName(p.user_id)}</td>
    <td>${p.device_trackers.join(', ')}</td>
    <td>${
      editable
        ? isAdmin
          ? html`<button type="button" onClick=${() => setEditing(p)}>Edit</button>`
          : null
        : html`<span class="muted" title="Set in configuration.yaml: change it there, then reload persons">read-only</span>`
    }</td>
  </tr>`;
  return html`${isAdmin ? html`<div class="bar"><span class="grow"></span><button type="button" class="primary" onClick=${() => setEditing(null)}>Add person</button></div>` : null}
  ${
    list === null
      ? html`<p class="loading">Loading…</p>`
      : html`<div class="table-wrap"><table class="list persons">
    <thead><tr><th>Name</th><th>Where</th><th>User</th><th>Device trackers</th><th></th></tr></thead>
    <tbody>${list.storage.map((p) => row(p, true))}${list.config.map((p) => row(p, false))}</tbody></table></div>`
  }
  ${
    editing !== undefined
      ? html`<${PersonDialog} key=${editing?.id ?? 'new'} person=${editing} users=${users} trackers=${trackers} onClose=${() => setEditing(undefined)} onSaved=${() => {
          reload();
          toast('Saved.');
        }} />`
      : null
  }`;
}

mount(App);
