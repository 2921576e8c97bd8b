// @ts-check
/**
 * The dashboard: every entity as a card, grouped by area and domain, live over the WebSocket API with a
 * short-lived access token from the logged-in session.
 */

import { CardSlot } from './cards.js';
import { EntityStore } from './entity-store.js';
import { emptyRegistries, groupEntities, loadRegistries } from './grouping.js';
import { html } from './html.js';
import { LinkStatus, pageConnection, Toasts, toast } from './page-session.js';
import { useEffect, useMemo, useState } from './vendor/hooks.js';
import { render } from './vendor/preact.js';

const store = new EntityStore();
const hub = pageConnection('/');

/** A refusal in words a user can act on (the hub's messages are written for API clients). @param {string} message */
function friendlyError(message) {
  if (/code .*doesn't match pattern|code_format/i.test(message))
    return 'That code is not in the form this device expects. Enter its code and try again.';
  return message;
}

/** @param {string} domain @param {string} service @param {string} id @param {object} [data] */
function call(domain, service, id, data) {
  return hub.callService(domain, service, id, data).catch((/** @type {Error} */ err) => toast(friendlyError(err.message)));
}

function App() {
  const [version, setVersion] = useState(0);
  const [registries, setRegistries] = useState(emptyRegistries);
  const [filter, setFilter] = useState('');
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    const stop = store.watchStructure(() => {
      setLoaded(true);
      setVersion((v) => v + 1);
    });
    let pendingReload = /** @type {ReturnType<typeof setTimeout> | undefined} */ (undefined);
    const reloadRegistries = () => {
      clearTimeout(pendingReload);
      pendingReload = setTimeout(
        () =>
          loadRegistries((m) => hub.command(m)).then((reg) => {
            store.setPrecision(reg.precision);
            setRegistries(reg);
          }),
        250,
      );
    };
    hub.subscribe(
      'entities',
      { type: 'subscribe_entities' },
      (event) => {
        store.apply(event);
        setLoaded(true);
      },
      () => {
        store.beginSnapshot();
        reloadRegistries();
      },
    );
    for (const type of ['area_registry_updated', 'device_registry_updated', 'entity_registry_updated', 'floor_registry_updated']) {
      hub.subscribe(type, { type: 'subscribe_events', event_type: type }, reloadRegistries);
    }
    hub.connect();
    return stop;
  }, []);

  const groups = useMemo(() => groupEntities(store.states.values(), registries), [version, registries]);
  const needle = filter.trim().toLowerCase();
  /** A card matches by its name, entity id, area or a label. @param {string} id @param {string} areaTitle */
  const matches = (id, areaTitle) => {
    if (needle === '') return true;
    const st = store.get(id);
    const labels = registries.entities.get(id)?.labels ?? [];
    return (
      id.includes(needle) ||
      String(st?.attributes.friendly_name ?? '')
        .toLowerCase()
        .includes(needle) ||
      areaTitle.toLowerCase().includes(needle) ||
      labels.some((l) => (registries.labels.get(l) ?? l).toLowerCase().includes(needle))
    );
  };
  const shown = groups
    .map((area) => ({
      ...area,
      domains: area.domains
        .map((d) => ({ ...d, ids: d.ids.filter((id) => matches(id, area.title ?? '')) }))
        .filter((d) => d.ids.length > 0),
    }))
    .filter((area) => area.domains.length > 0);

  return html`<div class="toolbar">
  <${LinkStatus} />
  <input class="filter" type="search" placeholder="Filter by name, area or label" aria-label="Filter entities" value=${filter} onInput=${(/** @type {Event} */ e) => setFilter(/** @type {HTMLInputElement} */ (e.currentTarget).value)} />
</div>
${shown.filter((a) => a.title !== null).length > 1 ? html`<nav class="area-jumps" aria-label="Areas">${shown.filter((a) => a.title !== null).map((a) => html`<a key=${a.key} href=${`#area-${a.key}`}>${a.title}</a>`)}</nav>` : null}
${!loaded ? html`<p class="loading">Loading…</p>` : groups.length === 0 ? html`<p class="empty">No entities yet. Add devices to the configuration.</p>` : null}
${needle !== '' && shown.length === 0 ? html`<p class="empty">Nothing matches ${filter}.</p>` : null}
${shown.map((area) => {
  const domains = area.domains;
  return html`<section class="area" key=${area.key} id=${`area-${area.key}`} aria-label=${area.title ?? 'All entities'}>
    ${area.title === null ? null : html`<h2>${area.title}</h2>`}
    <div class="area-body">${domains.map(
      // Small domains share a row: each block's width follows its number of cards.
      (d) => html`<div class="domain" key=${d.domain} style=${{ '--cards': Math.min(d.ids.length, 4) }}>
      <h3>${d.title}</h3>
      <div class="grid">${d.ids.map((id) => html`<${CardSlot} key=${id} id=${id} store=${store} call=${call} />`)}</div>
    </div>`,
    )}</div>
  </section>`;
})}
<${Toasts} />`;
}

// A card's name opens its history; the dialog's module (and uPlot) load on the first click.
window.addEventListener('hearth-history', (event) => {
  const id = String(/** @type {CustomEvent} */ (event).detail);
  import('./history.js').then(({ openHistory }) => openHistory({ id, store, hub }));
});

// An automation's or script's "Last runs" opens its traces; the dialog's module loads on the first click.
window.addEventListener('hearth-traces', (event) => {
  const { domain, itemId, name } = /** @type {CustomEvent<{ domain: string, itemId: string, name: string }>} */ (event).detail;
  import('./traces.js').then(({ openTraces }) => openTraces({ hub, domain, itemId, name }));
});

const root = document.getElementById('app');
if (root !== null) {
  root.textContent = '';
  render(html`<${App} />`, root);
}
// For tests and the curious: how many frames rendered, how many entities are known.
Object.assign(window, { hearthDashboard: { store, hub } });
