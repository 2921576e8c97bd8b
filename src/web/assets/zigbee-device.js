// @ts-check
/**
 * One Zigbee device's page (/zigbee/device/<ieee>): what it is (model, firmware, interview, power source), its
 * exposes with live values (subscribe_entities) and its settings as controls, its firmware update, rename, remove,
 * reconfigure, bindings and reporting. Everything goes through the public WebSocket API: `zigbee/device/info`,
 * the `zigbee.*` services, the entities' own services and `zigbee/configure_reporting`.
 */

import { html } from './html.js';
import { LinkStatus, pageConnection, Toasts, toast } from './page-session.js';
import { useEffect, useState } from './vendor/hooks.js';
import { render } from './vendor/preact.js';

const IEEE = document.querySelector('meta[name="hearth-zigbee-ieee"]')?.getAttribute('content') ?? '';
const hub = pageConnection(`/zigbee/device/${IEEE}`);
/** Domains whose entities are the device's settings, shown as controls. */
const SETTINGS = new Set(['select', 'number', 'switch', 'text', 'button']);

/** @typedef {{ s: string, a: Record<string, any> }} LiveState */
/** @typedef {{ entity_id: string, domain: string }} InfoEntity */
/** @typedef {{ cluster: string, target_type: string, target?: string, target_endpoint?: number, group_id?: number }} Binding */
/** @typedef {{ cluster: string, attribute: string, minimum_report_interval: number, maximum_report_interval: number, reportable_change: number }} Reporting */
/** @typedef {{ id: number, input_clusters: string[], output_clusters: string[], bindings: Binding[], reporting: Reporting[] }} InfoEndpoint */

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

/** @param {Error} e */
const fail = (e) => toast(e.message);

/** @param {string} label @param {unknown} value */
const row = (label, value) =>
  value === null || value === undefined || value === '' ? null : html`<dt>${label}</dt><dd>${String(value)}</dd>`;

/** The states subscribe_entities sends: `a` adds whole states, `c` changes (`+` set, `-` removed), `r` removes. */
/** @param {Record<string, LiveState>} states @param {any} e */
function applyStates(states, e) {
  const next = { ...states };
  for (const [id, v] of Object.entries(e.a ?? {})) next[id] = { s: v.s, a: v.a ?? {} };
  for (const [id, d] of Object.entries(e.c ?? {})) {
    const prev = next[id] ?? { s: 'unknown', a: {} };
    const a = { ...prev.a, ...(d['+']?.a ?? {}) };
    for (const k of d['-']?.a ?? []) delete a[k];
    next[id] = { s: d['+']?.s ?? prev.s, a };
  }
  for (const id of e.r ?? []) delete next[id];
  return next;
}

/** A setting as its control, calling the entity's own service. @param {{ id: string, domain: string, st: LiveState | undefined }} p */
function Control({ id, domain, st }) {
  const call = (/** @type {string} */ service, data = {}) => hub.callService(domain, service, id, data).catch(fail);
  const a = st?.a ?? {};
  const name = a.friendly_name ?? id;
  const value = st?.s;
  const off = value === undefined || value === 'unavailable';
  let control;
  if (domain === 'select') {
    control = html`<select aria-label=${name} disabled=${off} onChange=${(/** @type {Event} */ e) => call('select_option', { option: /** @type {HTMLSelectElement} */ (e.currentTarget).value })}>
${(a.options ?? []).map((/** @type {string} */ o) => html`<option value=${o} selected=${o === value}>${o}</option>`)}</select>`;
  } else if (domain === 'number') {
    control = html`<input type="number" aria-label=${name} disabled=${off} min=${a.min} max=${a.max} step=${a.step ?? 'any'} value=${value}
  onChange=${(/** @type {Event} */ e) => call('set_value', { value: Number(/** @type {HTMLInputElement} */ (e.currentTarget).value) })} />${a.unit_of_measurement ? ` ${a.unit_of_measurement}` : ''}`;
  } else if (domain === 'switch') {
    control = html`<input type="checkbox" role="switch" aria-label=${name} disabled=${off} checked=${value === 'on'}
  onChange=${(/** @type {Event} */ e) => call(/** @type {HTMLInputElement} */ (e.currentTarget).checked ? 'turn_on' : 'turn_off')} />`;
  } else if (domain === 'text') {
    control = html`<input type="text" aria-label=${name} disabled=${off} maxlength=${a.max} value=${value}
  onChange=${(/** @type {Event} */ e) => call('set_value', { value: /** @type {HTMLInputElement} */ (e.currentTarget).value })} />`;
  } else {
    control = html`<button type="button" disabled=${off} onClick=${() => call('press')}>${name.split(' ').slice(-1)[0] || 'Press'}</button>`;
  }
  return html`<tr data-entity=${id}><td>${name}<br /><code class="ieee">${id}</code></td><td data-label="Value">${control}</td></tr>`;
}

/** A reading (or an entity with a state of its own): its live value. @param {{ id: string, st: LiveState | undefined }} p */
function Reading({ id, st }) {
  const a = st?.a ?? {};
  const value = st === undefined ? '…' : `${st.s}${a.unit_of_measurement ? ` ${a.unit_of_measurement}` : ''}`;
  return html`<tr data-entity=${id}><td>${a.friendly_name ?? id}<br /><code class="ieee">${id}</code></td><td data-label="Value" class="live">${value}</td></tr>`;
}

/** The update entity: versions, progress, install and skip. @param {{ id: string | undefined, st: LiveState | undefined }} p */
function Firmware({ id, st }) {
  const check = () =>
    zigbee('check_ota', { ieee_address: IEEE }, true)
      .then((r) =>
        toast(r?.response?.update_available ? `Firmware ${r.response.latest_version} is available` : 'The firmware is the latest'),
      )
      .catch(fail);
  if (id === undefined) return html`<p class="note">This device's firmware cannot be updated over the air.</p>`;
  const a = st?.a ?? {};
  const progress = a.update_percentage ?? (typeof a.in_progress === 'number' ? a.in_progress : null);
  return html`<dl class="facts">${row('Installed', a.installed_version ?? 'unknown')}${row('Latest', a.latest_version ?? 'unknown')}${row('Skipped', a.skipped_version)}${row('Update', st?.s)}</dl>
${a.in_progress ? html`<p role="status">Installing… ${progress === null ? '' : html`<progress max="100" value=${progress}></progress> ${progress} %`}</p>` : null}
<p><button type="button" onClick=${check}>Check now</button> <button type="button" class="primary" disabled=${st?.s !== 'on' || a.in_progress === true} onClick=${() => hub.callService('update', 'install', id).catch(fail)}>Install</button> <button type="button" disabled=${st?.s !== 'on'} onClick=${() => hub.callService('update', 'skip', id).catch(fail)}>Skip</button></p>`;
}

/** Rename, reconfigure, remove. @param {{ info: any, reload: () => void }} p */
function Actions({ info, reload }) {
  const [name, setName] = useState(info.friendly_name);
  const [force, setForce] = useState(false);
  const rename = (/** @type {Event} */ e) => {
    e.preventDefault();
    zigbee('rename_device', { ieee_address: IEEE, name: name.trim() }).then(reload, fail);
  };
  const remove = () => {
    if (!confirm(`Remove ${info.friendly_name} from the network?`)) return;
    zigbee('remove_device', { ieee_address: IEEE, force }).then(() => location.assign('/zigbee'), fail);
  };
  const reconfigure = () =>
    zigbee('reconfigure_device', { ieee_address: IEEE }).then(() => toast(`${info.friendly_name} configured`), fail);
  return html`<section aria-labelledby="actions-title"><h2 id="actions-title">Manage</h2>
<form class="inline" onSubmit=${rename}><label>Name <input name="name" value=${name} required maxlength="100" onInput=${(/** @type {Event} */ e) => setName(/** @type {HTMLInputElement} */ (e.currentTarget).value)} /></label> <button type="submit">Rename</button></form>
<p><button type="button" onClick=${reconfigure}>Reconfigure</button> <label class="check"><input type="checkbox" checked=${force} onChange=${(/** @type {Event} */ e) => setForce(/** @type {HTMLInputElement} */ (e.currentTarget).checked)} /> force</label> <button type="button" class="danger" onClick=${remove}>Remove…</button></p></section>`;
}

/** Bindings per endpoint, unbind, and a bind form. @param {{ endpoints: InfoEndpoint[], reload: () => void }} p */
function Bindings({ endpoints, reload }) {
  const [form, setForm] = useState({ endpoint: String(endpoints[0]?.id ?? 1), cluster: '', target: 'coordinator', target_endpoint: '' });
  const set = (/** @type {string} */ k) => (/** @type {Event} */ e) =>
    setForm({ ...form, [k]: /** @type {HTMLInputElement} */ (e.currentTarget).value });
  const bind = (/** @type {boolean} */ unbind, /** @type {Record<string, unknown>} */ data) =>
    zigbee(unbind ? 'unbind' : 'bind', data, true).then(() => {
      toast(unbind ? 'Unbound' : 'Bound');
      reload();
    }, fail);
  const submit = (/** @type {Event} */ e) => {
    e.preventDefault();
    bind(false, {
      source: IEEE,
      source_endpoint: Number(form.endpoint),
      target: form.target.trim() || 'coordinator',
      ...(form.cluster ? { clusters: [form.cluster] } : {}),
      ...(form.target_endpoint ? { target_endpoint: Number(form.target_endpoint) } : {}),
    });
  };
  const chosen = endpoints.find((ep) => String(ep.id) === form.endpoint);
  const all = endpoints.flatMap((ep) => ep.bindings.map((b) => ({ ep: ep.id, b })));
  return html`<section aria-labelledby="bind-title"><h2 id="bind-title">Bindings</h2>
${
  all.length === 0
    ? html`<p class="empty">No bindings.</p>`
    : html`<table class="devices"><thead><tr><th>Endpoint</th><th>Cluster</th><th>Target</th><th></th></tr></thead><tbody>
${all.map(
  ({
    ep,
    b,
  }) => html`<tr><td>${ep}</td><td data-label="Cluster">${b.cluster}</td><td data-label="Target">${b.target_type === 'group' ? `group ${b.group_id}` : `${b.target}/${b.target_endpoint}`}</td>
<td class="actions">${b.target_type === 'group' ? null : html`<button type="button" class="link" onClick=${() => bind(true, { source: IEEE, source_endpoint: ep, target: b.target, target_endpoint: b.target_endpoint, clusters: [b.cluster] })}>Unbind</button>`}</td></tr>`,
)}</tbody></table>`
}
<form class="stack" onSubmit=${submit} aria-label="Bind">
<label>Endpoint <select value=${form.endpoint} onChange=${set('endpoint')}>${endpoints.map((ep) => html`<option value=${String(ep.id)}>${ep.id}</option>`)}</select></label>
<label>Cluster <select value=${form.cluster} onChange=${set('cluster')}><option value="">remote-to-light defaults</option>${(chosen?.output_clusters ?? []).map((c) => html`<option value=${c}>${c}</option>`)}</select></label>
<label>Target <input value=${form.target} onInput=${set('target')} placeholder="coordinator, an IEEE address or a name" /></label>
<label>Target endpoint <input type="number" min="1" max="240" value=${form.target_endpoint} onInput=${set('target_endpoint')} /></label>
<button type="submit">Bind</button></form></section>`;
}

/** Configured reporting and a form for zigbee/configure_reporting. @param {{ endpoints: InfoEndpoint[], reload: () => void }} p */
function ReportingForm({ endpoints, reload }) {
  const [f, setF] = useState({ endpoint: String(endpoints[0]?.id ?? 1), cluster: '', attribute: '', min: '10', max: '3600', change: '1' });
  const [answer, setAnswer] = useState(/** @type {{ ok: boolean, text: string } | null} */ (null));
  const set = (/** @type {string} */ k) => (/** @type {Event} */ e) =>
    setF({ ...f, [k]: /** @type {HTMLInputElement} */ (e.currentTarget).value });
  const chosen = endpoints.find((ep) => String(ep.id) === f.endpoint);
  const submit = (/** @type {Event} */ e) => {
    e.preventDefault();
    const change = f.change.trim() === '' ? undefined : Number(f.change);
    hub
      .command({
        type: 'zigbee/configure_reporting',
        ieee: IEEE,
        endpoint: Number(f.endpoint),
        cluster: f.cluster,
        attribute: f.attribute.trim(),
        minimum_report_interval: Number(f.min),
        maximum_report_interval: Number(f.max),
        ...(change === undefined ? {} : { reportable_change: change }),
      })
      .then(
        (r) => {
          setAnswer({ ok: true, text: `Done${r === null || r === undefined ? '' : `: ${JSON.stringify(r)}`}` });
          reload();
        },
        (/** @type {Error} */ err) => setAnswer({ ok: false, text: err.message }),
      );
  };
  const all = endpoints.flatMap((ep) => ep.reporting.map((r) => ({ ep: ep.id, r })));
  return html`<section aria-labelledby="report-title"><h2 id="report-title">Reporting</h2>
${
  all.length === 0
    ? html`<p class="empty">No reporting configured.</p>`
    : html`<table class="devices"><thead><tr><th>Endpoint</th><th>Cluster</th><th>Attribute</th><th>Min s</th><th>Max s</th><th>Change</th></tr></thead><tbody>
${all.map(({ ep, r }) => html`<tr><td>${ep}</td><td data-label="Cluster">${r.cluster}</td><td data-label="Attribute">${r.attribute}</td><td class="num" data-label="Min s">${r.minimum_report_interval}</td><td class="num" data-label="Max s">${r.maximum_report_interval}</td><td class="num" data-label="Change">${r.reportable_change}</td></tr>`)}</tbody></table>`
}
<form class="stack" onSubmit=${submit} aria-label="Configure reporting">
<label>Endpoint <select value=${f.endpoint} onChange=${set('endpoint')}>${endpoints.map((ep) => html`<option value=${String(ep.id)}>${ep.id}</option>`)}</select></label>
<label>Cluster <select required value=${f.cluster} onChange=${set('cluster')}><option value="">choose…</option>${(chosen?.input_clusters ?? []).map((c) => html`<option value=${c}>${c}</option>`)}</select></label>
<label>Attribute <input required value=${f.attribute} onInput=${set('attribute')} placeholder="measuredValue" /></label>
<label>Minimum interval (s) <input type="number" min="0" max="65535" required value=${f.min} onInput=${set('min')} /></label>
<label>Maximum interval (s) <input type="number" min="0" max="65535" required value=${f.max} onInput=${set('max')} /></label>
<label>Reportable change <input type="number" step="any" value=${f.change} onInput=${set('change')} /></label>
<button type="submit">Configure reporting</button></form>
${answer === null ? null : html`<p class=${answer.ok ? 'notice' : 'problems'} role="status" data-answer=${answer.ok ? 'ok' : 'error'}>${answer.text}</p>`}</section>`;
}

function App() {
  const [info, setInfo] = useState(/** @type {any} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [states, setStates] = useState(/** @type {Record<string, LiveState>} */ ({}));
  const load = () =>
    hub.command({ type: 'zigbee/device/info', ieee_address: IEEE }).then(
      (r) => {
        setInfo(r);
        setError(null);
      },
      (/** @type {Error} */ e) => setError(e.message),
    );
  useEffect(() => {
    // Made again on every reconnect: the device is read again then, and after each interview.
    hub.subscribe(
      'interviewed',
      { type: 'subscribe_events', event_type: 'zigbee_device_interviewed' },
      () => load(),
      () => setTimeout(load, 0),
    );
    hub.connect();
  }, []);
  const ids = (info?.entities ?? []).map((/** @type {InfoEntity} */ e) => e.entity_id).join(',');
  useEffect(() => {
    if (ids === '') return;
    hub.subscribe(`entities:${ids}`, { type: 'subscribe_entities', entity_ids: ids.split(',') }, (e) =>
      setStates((s) => applyStates(s, e)),
    );
  }, [ids]);
  if (info === null)
    return html`<div class="toolbar"><h1>Zigbee device</h1><${LinkStatus} /></div><p class=${error ? 'problems' : 'loading'} role="status">${error ?? 'Loading…'}</p><p><a href="/zigbee">All Zigbee devices</a></p><${Toasts} />`;
  /** @type {InfoEntity[]} */
  const entities = info.entities;
  const settings = entities.filter((e) => SETTINGS.has(e.domain));
  const readings = entities.filter((e) => !SETTINGS.has(e.domain) && e.domain !== 'update');
  const update = entities.find((e) => e.domain === 'update')?.entity_id;
  const fw = info.firmware ?? {};
  return html`<div class="toolbar"><h1>${info.friendly_name}</h1><${LinkStatus} /></div>
<p><a href="/zigbee">← All Zigbee devices</a></p>
<section aria-labelledby="about-title"><h2 id="about-title">Device</h2><dl class="facts">
${row('IEEE address', info.ieee_address)}${row('Model', [info.vendor, info.model].filter(Boolean).join(' ') || 'not supported')}${row('Description', info.description)}
${row('Reports itself as', [info.manufacturer, info.model_id].filter(Boolean).join(' '))}${row('Interview', info.interview.replace('_', ' '))}${row('Power source', info.power_source)}
${row('Type', info.type)}${row('Link quality', info.link_quality)}${row('Last seen', info.last_seen)}${row('Available', info.available ? 'yes' : 'no')}
${row('Firmware build', fw.software_build_id)}${row('Date code', fw.date_code)}${row('Hardware version', fw.hardware_version)}</dl></section>
<section aria-labelledby="readings-title"><h2 id="readings-title">Exposes</h2>${readings.length === 0 ? html`<p class="empty">None.</p>` : html`<table class="devices exposes"><tbody>${readings.map((e) => html`<${Reading} key=${e.entity_id} id=${e.entity_id} st=${states[e.entity_id]} />`)}</tbody></table>`}</section>
<section aria-labelledby="settings-title"><h2 id="settings-title">Settings</h2>${settings.length === 0 ? html`<p class="empty">This device has no settings.</p>` : html`<table class="devices settings"><tbody>${settings.map((e) => html`<${Control} key=${e.entity_id} id=${e.entity_id} domain=${e.domain} st=${states[e.entity_id]} />`)}</tbody></table>`}</section>
<section aria-labelledby="fw-title"><h2 id="fw-title">Firmware update</h2><${Firmware} id=${update} st=${update === undefined ? undefined : states[update]} /></section>
<${Actions} info=${info} reload=${load} />
<${Bindings} endpoints=${info.endpoints} reload=${load} />
<${ReportingForm} endpoints=${info.endpoints} reload=${load} />
<${Toasts} />`;
}

const root = document.getElementById('app');
if (root !== null) {
  root.textContent = '';
  render(html`<${App} />`, root);
}
Object.assign(window, { hearthZigbeeDevice: { hub } });
