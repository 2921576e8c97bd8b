// @ts-check
/**
 * The Zigbee page's groups: create, rename and remove groups, add and remove members (a device's endpoint), each
 * group with its entity. Everything goes through the `zigbee/group/*` WebSocket commands.
 */

import { html } from './html.js';
import { toast } from './page-session.js';
import { useEffect, useState } from './vendor/hooks.js';

/**
 * @typedef {object} GroupMember
 * @property {string} ieee_address
 * @property {string} friendly_name
 * @property {number} endpoint
 */

/**
 * @typedef {object} ZigbeeGroup
 * @property {number} id
 * @property {string} friendly_name
 * @property {string | null} entity_id
 * @property {GroupMember[]} members
 */

/** @typedef {{ command: (message: Record<string, unknown>) => Promise<any> }} Hub */

/** @param {{ group: ZigbeeGroup, hub: Hub, devices: { ieee_address: string, friendly_name: string }[], run: (type: string, fields: Record<string, unknown>) => void }} props */
function GroupRow({ group, devices, run }) {
  const [device, setDevice] = useState('');
  const [endpoint, setEndpoint] = useState('');
  const add = (/** @type {Event} */ e) => {
    e.preventDefault();
    if (device === '') return;
    run('zigbee/group/add_member', { group: group.id, device, ...(endpoint === '' ? {} : { endpoint: Number(endpoint) }) });
    setDevice('');
    setEndpoint('');
  };
  const rename = () => {
    const name = prompt(`New name for ${group.friendly_name}`, group.friendly_name);
    if (name !== null && name.trim() !== '' && name !== group.friendly_name)
      run('zigbee/group/rename', { group: group.id, friendly_name: name.trim() });
  };
  const remove = () => {
    if (confirm(`Remove group ${group.friendly_name}? Its members are told to leave it.`)) run('zigbee/group/remove', { group: group.id });
  };
  return html`<tr class="zgroup" data-group=${group.id}>
  <td><span class="dname">${group.friendly_name}</span><br /><span class="note">#${group.id}${group.entity_id === null ? ' · no entity until a light or switch joins' : ` · ${group.entity_id}`}</span></td>
  <td data-label="Members">${group.members.map(
    (m) =>
      html`<div class="zmember" key=${`${m.ieee_address}/${m.endpoint}`}>${m.friendly_name} <span class="note">endpoint ${m.endpoint}</span>
      <button type="button" class="link" aria-label=${`Remove ${m.friendly_name} from ${group.friendly_name}`}
        onClick=${() => run('zigbee/group/remove_member', { group: group.id, device: m.ieee_address, endpoint: m.endpoint })}>×</button></div>`,
  )}
  <form onSubmit=${add}>
    <select aria-label="Device" value=${device} onChange=${(/** @type {any} */ e) => setDevice(e.currentTarget.value)}>
      <option value="">Add a device…</option>
      ${devices.map((d) => html`<option value=${d.ieee_address}>${d.friendly_name}</option>`)}
    </select>
    ${
      device === ''
        ? null
        : html`<input aria-label="Endpoint" type="number" min="1" max="240" placeholder="Endpoint (the first when empty)" value=${endpoint}
      onInput=${(/** @type {any} */ e) => setEndpoint(e.currentTarget.value)} /> <button type="submit">Add</button>`
    }
  </form></td>
  <td class="actions"><button type="button" class="link" onClick=${rename}>Rename</button> <button type="button" class="link" onClick=${remove}>Remove</button></td>
</tr>`;
}

/** @param {{ hub: Hub, devices: { ieee_address: string, friendly_name: string }[] | null }} props */
export function Groups({ hub, devices }) {
  const [groups, setGroups] = useState(/** @type {ZigbeeGroup[] | null} */ (null));
  const [name, setName] = useState('');
  const load = () =>
    hub.command({ type: 'zigbee/group/list' }).then(
      (r) => setGroups(Array.isArray(r?.groups) ? r.groups : []),
      (/** @type {Error} */ e) => toast(e.message),
    );
  // Once the device list has come, the connection is up: the groups are asked for then.
  useEffect(() => {
    if (devices !== null) load();
  }, [devices === null]);
  const run = (/** @type {string} */ type, /** @type {Record<string, unknown>} */ fields) =>
    hub
      .command({ type, ...fields })
      .catch((/** @type {Error} */ e) => toast(e.message))
      .finally(load);
  const create = (/** @type {Event} */ e) => {
    e.preventDefault();
    if (name.trim() === '') return;
    run('zigbee/group/create', { friendly_name: name.trim() });
    setName('');
  };
  return html`<section aria-labelledby="groups-title">
  <h2 id="groups-title">Groups${groups === null ? '' : ` (${groups.length})`}</h2>
  <form onSubmit=${create}>
    <input aria-label="New group name" placeholder="New group name" value=${name} onInput=${(/** @type {any} */ e) => setName(e.currentTarget.value)} />
    <button type="submit" disabled=${name.trim() === ''}>Create group</button>
  </form>
  ${
    groups === null
      ? html`<p class="loading">Loading…</p>`
      : groups.length === 0
        ? html`<p class="empty">No groups. A group switches its member lights with one command.</p>`
        : html`<table class="devices zgroups">
  <thead><tr><th>Group</th><th>Members</th><th></th></tr></thead>
  <tbody>${groups.map((g) => html`<${GroupRow} key=${g.id} group=${g} hub=${hub} devices=${devices ?? []} run=${run} />`)}</tbody>
</table>`
  }
</section>`;
}
