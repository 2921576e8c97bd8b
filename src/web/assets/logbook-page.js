// @ts-check
/**
 * /logbook: what happened over a period, newest first, for every entity or the picked ones, in Home Assistant's
 * words and with what caused each change. Read with `logbook/get_events`.
 */

import { command, html, isAdmin, mount, store, toast, useRegistries, useStates } from './app-common.js';
import { entryText } from './logbook-words.js';
import { fromUrl, Picker, resolveTargets, toUrl } from './period-picker.js';
import { useEffect, useState } from './vendor/hooks.js';

/** @typedef {import('./logbook-words.js').LogEntry} LogEntry */

/** At most this many entries are drawn (a busy week has tens of thousands). */
const MAX_SHOWN = 1000;

/** @param {number | string} when */
function seconds(when) {
  return typeof when === 'number' ? when : Date.parse(when) / 1000;
}

function App() {
  useStates();
  const reg = useRegistries();
  const initial = fromUrl('today');
  const [targets, setTargets] = useState(initial.targets);
  const [period, setPeriod] = useState(initial.period);
  const [entries, setEntries] = useState(/** @type {LogEntry[] | null} */ (null));
  const [users, setUsers] = useState(/** @type {Map<string, string>} */ (new Map()));
  const ids = resolveTargets(targets, reg);
  const picked = targets.entities.length + targets.areas.length + targets.devices.length + targets.labels.length > 0;
  const idsKey = ids.join(',');
  useEffect(() => {
    if (isAdmin)
      command({ type: 'config/auth/list' }).then(
        (list) => setUsers(new Map(list.map((/** @type {any} */ u) => [u.id, u.name]))),
        () => {},
      );
  }, []);
  useEffect(() => {
    toUrl(targets, period);
    if (picked && reg === null) return;
    let live = true;
    setEntries(null);
    command({
      type: 'logbook/get_events',
      start_time: new Date(period.start * 1000).toISOString(),
      end_time: new Date(period.end * 1000).toISOString(),
      ...(picked ? { entity_ids: ids.length > 0 ? ids : ['none.none'] } : {}),
    }).then(
      (list) => live && setEntries(/** @type {LogEntry[]} */ (list).slice().reverse()),
      (/** @type {Error} */ err) => toast(`Could not load the logbook: ${err.message}`),
    );
    return () => {
      live = false;
    };
  }, [idsKey, picked, period.start, period.end, reg === null]);

  /** @type {string | null} */
  let lastDay = null;
  return html`<${Picker} targets=${targets} period=${period} reg=${reg} onTargets=${setTargets} onPeriod=${setPeriod} />
  ${entries === null ? html`<p class="loading">Loading…</p>` : entries.length === 0 ? html`<p class="empty">Nothing happened in this period.</p>` : null}
  ${
    entries !== null && entries.length > 0
      ? html`<ol class="logbook-list panel" data-loaded=${period.key} data-count=${entries.length}>${entries
          .slice(0, MAX_SHOWN)
          .map((e, i) => {
            const when = new Date(seconds(e.when) * 1000);
            const day = when.toLocaleDateString([], { weekday: 'long', day: 'numeric', month: 'long' });
            const header = day !== lastDay ? html`<li class="day" aria-hidden="true">${day}</li>` : null;
            lastDay = day;
            const name = e.name ?? (e.entity_id ? String(store.get(e.entity_id)?.attributes.friendly_name ?? e.entity_id) : '');
            return html`${header}<li key=${i} class="entry" data-entity=${e.entity_id ?? ''}>
            <time datetime=${when.toISOString()}>${when.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' })}</time>
            <span><strong>${name}</strong> ${entryText(
              e,
              (id) => store.get(id)?.attributes.device_class,
              (u) => users.get(u),
            )}</span>
          </li>`;
          })}</ol>
      ${entries.length > MAX_SHOWN ? html`<p class="muted">Showing the newest ${MAX_SHOWN} of ${entries.length} entries; pick fewer entities or a shorter period.</p>` : null}`
      : null
  }`;
}

mount(App);
