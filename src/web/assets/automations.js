// @ts-check
/**
 * /config/automation/dashboard, /config/script/dashboard and /config/scene/dashboard: each automation, script or
 * scene with its state, last run and buttons to run it, switch it on or off, read its traces and edit it. The
 * editor (/config/<automation|script>/edit/<id>) and the trace page (/config/<...>/trace/<id>) load on demand.
 */

import { ago, byText, command, html, inputValue, isAdmin, mount, rest, store, toast, tryCommand, useStates } from './app-common.js';
import { useState } from './vendor/hooks.js';

const [, , domainPart = 'automation', view = 'dashboard', ...rest_] = location.pathname.split('/');
const domain = domainPart === 'script' || domainPart === 'scene' ? domainPart : 'automation';
const itemId = decodeURIComponent(rest_.join('/'));

/** An automation's id is its `id` attribute; a script's its object id. @param {string} entityId */
function idOf(entityId) {
  const st = store.get(entityId);
  return domain === 'automation' ? String(st?.attributes.id ?? '') : entityId.slice(entityId.indexOf('.') + 1);
}

const TITLES = { automation: ['Automation', 'Automations'], script: ['Script', 'Scripts'], scene: ['Scene', 'Scenes'] };

function List() {
  const states = useStates();
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const ids = states
    .ids()
    .filter((id) => id.startsWith(`${domain}.`))
    .map((id) => ({ id, name: String(states.get(id)?.attributes.friendly_name ?? id) }))
    .filter((r) => needle === '' || r.name.toLowerCase().includes(needle) || r.id.includes(needle))
    .sort((a, b) => byText(a.name, b.name));
  const run = async (/** @type {string} */ entityId) => {
    const service = domain === 'automation' ? 'trigger' : 'turn_on';
    const data = domain === 'automation' ? { skip_condition: true } : {};
    if ((await tryCommand({ type: 'call_service', domain, service, service_data: data, target: { entity_id: entityId } })) !== undefined)
      toast(`${states.get(entityId)?.attributes.friendly_name ?? entityId}: ${domain === 'scene' ? 'activated' : 'started'}`);
  };
  const remove = async (/** @type {string} */ entityId) => {
    if (!confirm(`Delete ${states.get(entityId)?.attributes.friendly_name ?? entityId}?`)) return;
    try {
      await rest('DELETE', `/api/config/${domain}/config/${encodeURIComponent(idOf(entityId))}`);
    } catch (err) {
      toast(
        /** @type {any} */ (err).status === 404
          ? 'Only items made in the editor (stored in the editor file) can be deleted here.'
          : /** @type {Error} */ (err).message,
      );
    }
  };
  const [, plural] = TITLES[domain];
  return html`<div class="bar">
    <input type="search" placeholder=${`Search ${plural.toLowerCase()}`} aria-label=${`Search ${plural.toLowerCase()}`} value=${filter} onInput=${(/** @type {Event} */ e) => setFilter(inputValue(e))} />
    <span class="grow"></span>
    ${domain !== 'scene' && isAdmin ? html`<button type="button" onClick=${() => tryCommand({ type: 'call_service', domain, service: 'reload', service_data: {} }).then((r) => r !== undefined && toast('Reloaded'))}>Reload</button>` : null}
    ${domain !== 'scene' && isAdmin ? html`<a class="button primary" href=${`/config/${domain}/edit/new`}>Create ${TITLES[domain][0].toLowerCase()}</a>` : null}
  </div>
  <div class="table-wrap"><table class=${`list ${domain}s`}>
    <thead><tr><th>Name</th>${domain === 'automation' ? html`<th>Enabled</th>` : null}<th class="wide-only">Last ${domain === 'scene' ? 'activated' : 'triggered'}</th><th></th></tr></thead>
    <tbody>${ids.map(({ id, name }) => {
      const st = states.get(id);
      const id_ = idOf(id);
      return html`<tr key=${id} data-entity=${id}>
        <td class="name" title=${id}>${name}</td>
        ${
          domain === 'automation'
            ? html`<td><button type="button" class="switch" role="switch" aria-checked=${st?.state === 'on'} aria-label=${`${name} enabled`} disabled=${!isAdmin}
              onClick=${() => tryCommand({ type: 'call_service', domain, service: st?.state === 'on' ? 'turn_off' : 'turn_on', service_data: {}, target: { entity_id: id } })}><span class="knob"></span></button></td>`
            : null
        }
        <td class="wide-only muted">${ago(domain === 'scene' ? (st?.state ?? null) : (st?.attributes.last_triggered ?? null))}</td>
        <td class="row-actions">
          <button type="button" onClick=${() => run(id)}>${domain === 'scene' ? 'Activate' : 'Run'}</button>
          ${domain !== 'scene' && id_ !== '' ? html` <a class="button" href=${`/config/${domain}/trace/${encodeURIComponent(id_)}`}>Traces</a>` : null}
          ${domain !== 'scene' && id_ !== '' && isAdmin ? html` <a class="button" href=${`/config/${domain}/edit/${encodeURIComponent(id_)}`}>Edit</a> <button type="button" class="danger" onClick=${() => remove(id)}>Delete</button>` : null}
        </td>
      </tr>`;
    })}</tbody>
  </table></div>
  ${ids.length === 0 ? html`<p class="empty">No ${plural.toLowerCase()} yet.</p>` : null}`;
}

if (view === 'edit' && domain !== 'scene') {
  import('./automation-editor.js').then(({ Editor }) => mount(() => html`<${Editor} domain=${domain} itemId=${itemId} />`));
} else if (view === 'trace' && domain !== 'scene') {
  import('./traces.js').then(({ TracesView }) =>
    mount(() => {
      const states = useStates();
      const entityId = states.ids().find((id) => id.startsWith(`${domain}.`) && idOf(id) === itemId);
      const name = entityId === undefined ? itemId : String(states.get(entityId)?.attributes.friendly_name ?? entityId);
      return html`<p><a href=${`/config/${domain}/dashboard`}>← ${TITLES[domain][1]}</a> · <a href=${`/config/${domain}/edit/${encodeURIComponent(itemId)}`}>Edit</a></p>
        <${TracesView} hub=${{ command }} domain=${domain} itemId=${itemId} name=${name} />`;
    }),
  );
} else mount(List);
