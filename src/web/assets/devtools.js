// @ts-check
/**
 * Developer tools at Home Assistant's paths: /developer-tools/state (filter states, set one), /action (call any
 * service with its fields, see the response), /template (live render over `render_template` with its listeners),
 * /event (fire an event, watch an event type). Data is written as JSON or YAML-like `key: value` lines.
 */

import { byText, command, html, inputValue, isAdmin, mount, rest, store, subscribeOnce, toast, useStates } from './app-common.js';
import { useEffect, useMemo, useState } from './vendor/hooks.js';

const tool = location.pathname.split('/')[2] === 'service' ? 'action' : (location.pathname.split('/')[2] ?? 'state');

/** Data typed by a user: JSON, or `key: value` lines whose values are read as JSON when they can be. @param {string} text */
export function readData(text) {
  const t = text.trim();
  if (t === '') return {};
  if (t.startsWith('{')) return JSON.parse(t);
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const line of t.split('\n')) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const colon = line.indexOf(':');
    if (colon === -1) throw new Error(`Expected key: value, got ${JSON.stringify(line.trim())}`);
    const raw = line.slice(colon + 1).trim();
    let value;
    try {
      value = JSON.parse(raw);
    } catch {
      value = raw.replace(/^(["'])(.*)\1$/, '$2');
    }
    out[line.slice(0, colon).trim()] = value;
  }
  return out;
}

function Tabs() {
  const links = [
    ['state', 'States'],
    ['action', 'Actions'],
    ['template', 'Template'],
    ['event', 'Events'],
  ];
  return html`<nav class="tabs" aria-label="Developer tools">${links.map(([k, label]) => html`<a href=${`/developer-tools/${k}`} aria-current=${k === tool ? 'page' : undefined}>${label}</a>`)}</nav>`;
}

function States() {
  const states = useStates();
  const [filter, setFilter] = useState('');
  const [attrFilter, setAttrFilter] = useState('');
  const [entityId, setEntityId] = useState('');
  const [state, setState] = useState('');
  const [attrs, setAttrs] = useState('');
  const needle = filter.trim().toLowerCase();
  const attrNeedle = attrFilter.trim().toLowerCase();
  const ids = states
    .ids()
    .filter((id) => {
      const st = states.get(id);
      return (
        (needle === '' || id.includes(needle) || String(st?.state).toLowerCase().includes(needle)) &&
        (attrNeedle === '' ||
          JSON.stringify(st?.attributes ?? {})
            .toLowerCase()
            .includes(attrNeedle))
      );
    })
    .sort(byText);
  const pick = (/** @type {string} */ id) => {
    const st = states.get(id);
    setEntityId(id);
    setState(st?.state ?? '');
    setAttrs(JSON.stringify(st?.attributes ?? {}, null, 2));
  };
  const set = async (/** @type {Event} */ e) => {
    e.preventDefault();
    try {
      await rest('POST', `/api/states/${encodeURIComponent(entityId.trim())}`, { state, attributes: readData(attrs) });
      toast(`${entityId} set to ${state}`);
    } catch (err) {
      toast(/** @type {Error} */ (err).message);
    }
  };
  return html`<form class="panel form-grid set-state" onSubmit=${set}>
    <h2>Set a state</h2>
    <p class="muted">Changes the state the hub shows until the device reports again; the device itself is not changed.</p>
    <label>Entity<input name="entity_id" list="state-ids" required value=${entityId} onChange=${(/** @type {Event} */ e) => pick(inputValue(e))} onInput=${(/** @type {Event} */ e) => setEntityId(inputValue(e))} /></label>
    <label>State<input name="state" required value=${state} onInput=${(/** @type {Event} */ e) => setState(inputValue(e))} /></label>
    <label>Attributes (JSON or key: value lines)<textarea name="attributes" rows="5" value=${attrs} onInput=${(/** @type {Event} */ e) => setAttrs(inputValue(e))}></textarea></label>
    <div class="actions"><button type="submit" class="primary" disabled=${!isAdmin}>Set state</button></div>
  </form>
  <datalist id="state-ids">${states.ids().map((id) => html`<option value=${id}></option>`)}</datalist>
  <div class="bar">
    <input type="search" placeholder="Filter entities or states" aria-label="Filter entities" value=${filter} onInput=${(/** @type {Event} */ e) => setFilter(inputValue(e))} />
    <input type="search" placeholder="Filter attributes" aria-label="Filter attributes" value=${attrFilter} onInput=${(/** @type {Event} */ e) => setAttrFilter(inputValue(e))} />
  </div>
  <div class="table-wrap"><table class="list states">
    <thead><tr><th>Entity</th><th>State</th><th class="wide-only">Attributes</th></tr></thead>
    <tbody>${ids.slice(0, 500).map((id) => {
      const st = states.get(id);
      return html`<tr key=${id} data-entity=${id}><td class="name"><button type="button" class="link" onClick=${() => pick(id)}>${id}</button></td><td>${st?.state}</td>
        <td class="wide-only muted"><small>${Object.entries(st?.attributes ?? {})
          .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : v}`)
          .join(' · ')}</small></td></tr>`;
    })}</tbody>
  </table></div>`;
}

function Actions() {
  const [services, setServices] = useState(/** @type {Record<string, Record<string, any>>} */ ({}));
  const [name, setName] = useState('');
  const [target, setTarget] = useState('');
  const [data, setData] = useState('');
  const [response, setResponse] = useState(/** @type {string | null} */ (null));
  useEffect(() => {
    command({ type: 'get_services' }).then(setServices, (/** @type {Error} */ err) => toast(err.message));
  }, []);
  const all = useMemo(
    () =>
      Object.entries(services)
        .flatMap(([d, list]) => Object.keys(list).map((s) => `${d}.${s}`))
        .sort(),
    [services],
  );
  const [domain, service] = name.split('.');
  const desc = services[domain ?? '']?.[service ?? ''];
  const call = async (/** @type {Event} */ e) => {
    e.preventDefault();
    setResponse(null);
    try {
      const ids = target
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
      const result = await command({
        type: 'call_service',
        domain,
        service,
        service_data: readData(data),
        ...(ids.length > 0 ? { target: { entity_id: ids } } : {}),
        ...(desc?.response !== undefined ? { return_response: true } : {}),
      });
      setResponse(JSON.stringify(result.response ?? null, null, 2));
      toast(`Called ${name}`);
    } catch (err) {
      toast(/** @type {Error} */ (err).message);
    }
  };
  return html`<form class="panel form-grid call-service" onSubmit=${call}>
    <label>Action<input name="action" list="service-names" required placeholder="light.turn_on" value=${name} onInput=${(/** @type {Event} */ e) => setName(inputValue(e).trim())} /></label>
    <datalist id="service-names">${all.map((s) => html`<option value=${s}></option>`)}</datalist>
    ${desc !== undefined ? html`<p class="muted">${desc.description}</p>` : null}
    ${desc?.target !== undefined ? html`<label>Target entities (comma-separated)<input name="target" list="entity-names" value=${target} onInput=${(/** @type {Event} */ e) => setTarget(inputValue(e))} /></label>` : null}
    <datalist id="entity-names">${store.ids().map((id) => html`<option value=${id}></option>`)}</datalist>
    ${
      desc !== undefined && Object.keys(desc.fields).length > 0
        ? html`<table class="list fields"><thead><tr><th>Field</th><th>Description</th></tr></thead><tbody>${Object.entries(
            desc.fields,
          ).map(
            ([k, f]) =>
              html`<tr key=${k}><td><code>${k}</code>${f.required ? ' *' : ''}</td><td class="muted">${f.description ?? ''}</td></tr>`,
          )}</tbody></table>`
        : null
    }
    <label>Data (JSON or key: value lines)<textarea name="data" rows="5" value=${data} onInput=${(/** @type {Event} */ e) => setData(inputValue(e))}></textarea></label>
    <div class="actions"><button type="submit" class="primary">Perform action</button></div>
  </form>
  ${response !== null ? html`<h2>Response</h2><pre class="output action-response">${response}</pre>` : null}`;
}

function Template() {
  const [text, setText] = useState('{{ states | count }} entities; the time is {{ now().strftime("%H:%M") }}.');
  const [result, setResult] = useState(/** @type {{ text: string, error: boolean, listeners: any } | null} */ (null));
  useEffect(() => {
    let stop = /** @type {(() => void) | undefined} */ (undefined);
    let live = true;
    const timer = setTimeout(() => {
      subscribeOnce({ type: 'render_template', template: text, report_errors: true, timeout: 3 }, (event) => {
        if (!live) return;
        if (event.error !== undefined) setResult({ text: String(event.error), error: true, listeners: null });
        else
          setResult({
            text: typeof event.result === 'string' ? event.result : JSON.stringify(event.result, null, 2),
            error: false,
            listeners: event.listeners,
          });
      }).then(
        (s) => {
          if (live) stop = s;
          else s();
        },
        (/** @type {Error} */ err) => live && setResult({ text: err.message, error: true, listeners: null }),
      );
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
      stop?.();
    };
  }, [text]);
  const l = result?.listeners;
  return html`<div class="two-col">
    <label>Template<textarea name="template" rows="14" spellcheck="false" value=${text} onInput=${(/** @type {Event} */ e) => setText(inputValue(e))}></textarea></label>
    <div>
      <h2>Result</h2>
      <pre class=${`output template-result${result?.error ? ' error' : ''}`} aria-live="polite">${result === null ? 'Rendering…' : result.text}</pre>
      ${
        l != null
          ? html`<p class="listeners muted">${
              l.all
                ? 'Updates on every state change.'
                : l.entities.length + l.domains.length === 0 && !l.time
                  ? 'No entities: this template does not update on state changes.'
                  : html`Updates when these change: ${[...l.entities, ...l.domains.map((/** @type {string} */ d) => `${d} (domain)`)].join(', ')}${l.time ? ' (and every minute)' : ''}`
            }</p>`
          : null
      }
    </div>
  </div>`;
}

function Events() {
  const [type, setType] = useState('');
  const [data, setData] = useState('');
  const [listenType, setListenType] = useState('');
  const [events, setEvents] = useState(/** @type {any[]} */ ([]));
  const [stop, setStop] = useState(/** @type {(() => void) | null} */ (null));
  const fire = async (/** @type {Event} */ e) => {
    e.preventDefault();
    try {
      await command({ type: 'fire_event', event_type: type.trim(), event_data: readData(data) });
      toast(`Event ${type} fired`);
    } catch (err) {
      toast(/** @type {Error} */ (err).message);
    }
  };
  const listen = async (/** @type {Event} */ e) => {
    e.preventDefault();
    if (stop !== null) {
      stop();
      setStop(null);
      return;
    }
    const message = listenType.trim() === '' ? { type: 'subscribe_events' } : { type: 'subscribe_events', event_type: listenType.trim() };
    try {
      const s = await subscribeOnce(message, (event) => setEvents((list) => [event, ...list].slice(0, 50)));
      setStop(() => s);
    } catch (err) {
      toast(/** @type {Error} */ (err).message);
    }
  };
  useEffect(() => () => stop?.(), [stop]);
  return html`<div class="two-col">
    <form class="panel form-grid fire-event" onSubmit=${fire}>
      <h2>Fire an event</h2>
      <label>Event type<input name="event_type" required value=${type} onInput=${(/** @type {Event} */ e) => setType(inputValue(e))} /></label>
      <label>Event data (JSON or key: value lines)<textarea name="event_data" rows="4" value=${data} onInput=${(/** @type {Event} */ e) => setData(inputValue(e))}></textarea></label>
      <div class="actions"><button type="submit" class="primary">Fire event</button></div>
    </form>
    <form class="panel form-grid listen-events" onSubmit=${listen}>
      <h2>Listen to events</h2>
      <label>Event type (empty for all)<input name="listen_type" value=${listenType} disabled=${stop !== null} onInput=${(/** @type {Event} */ e) => setListenType(inputValue(e))} /></label>
      <div class="actions"><button type="submit" class="primary">${stop === null ? 'Start listening' : 'Stop listening'}</button></div>
    </form>
  </div>
  <ol class="events" reversed>${events.map((ev, i) => html`<li key=${events.length - i}><pre class="output">${JSON.stringify(ev, null, 2)}</pre></li>`)}</ol>`;
}

const TOOLS = { state: States, action: Actions, template: Template, event: Events };
const Tool = TOOLS[/** @type {keyof typeof TOOLS} */ (tool)] ?? States;
mount(() => html`<${Tabs} /><${Tool} />`);
