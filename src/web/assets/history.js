// @ts-check
/**
 * An entity's history in a dialog: a uPlot line graph for numeric sensors, a uPlot step timeline for on/off
 * and other states, a range picker and the logbook below. Loaded on the first click, with uPlot, so the
 * dashboard's first paint pays for neither.
 */

import { lineChart, loadUplot, timeline } from './charts.js';
import { stateText } from './format.js';
import { html } from './html.js';
import { entryText } from './logbook-words.js';
import { openModal } from './modal.js';
import { useEffect, useRef, useState } from './vendor/hooks.js';

/** @typedef {import('./entity-store.js').EntityStore} EntityStore */
/** @typedef {{ command(message: object): Promise<any> }} Hub */
/** @typedef {{ s: string, lu: number, lc?: number, a?: Record<string, unknown> }} Point */
/** @typedef {{ when: number, state?: string, message?: string, name?: string, context_user_id?: string, context_name?: string, context_message?: string, context_service?: string }} LogEntry */

const RANGES = /** @type {const} */ ([
  ['1h', 'Last hour', 3600],
  ['24h', 'Last 24 hours', 86400],
  ['7d', 'Last 7 days', 7 * 86400],
]);

const NOT_A_VALUE = new Set(['unavailable', 'unknown', '']);

/** Domains whose history is their current and target temperatures (with the mode as a timeline below), as HA's. */
const WITH_TEMPERATURES = new Set(['climate', 'water_heater']);

/** @type {Promise<string> | undefined} */
let temperatureUnit;

/** The hub's temperature unit (its unit system), asked once. @param {Hub} hub */
function temperatureUnitOf(hub) {
  temperatureUnit ??= hub.command({ type: 'get_config' }).then(
    (c) => String(c?.unit_system?.temperature ?? '°C'),
    () => '°C',
  );
  return temperatureUnit;
}

/** A climate's current and target temperature over time, each attribute holding until the next state. @param {Point[]} points */
function temperatureSeries(points) {
  /** @type {Record<string, unknown>} */
  let attrs = {};
  const current = /** @type {[number, number | null][]} */ ([]);
  const target = /** @type {[number, number | null][]} */ ([]);
  for (const p of points) {
    attrs = p.a ?? attrs;
    const c = attrs.current_temperature;
    const t = attrs.temperature;
    const at = p.lu ?? p.lc ?? 0;
    current.push([at, typeof c === 'number' ? c : null]);
    target.push([at, typeof t === 'number' && p.s !== 'off' ? t : null]);
  }
  return { current, target };
}

/** Numeric entities get a line graph: a number now, and a unit or a state class. */
function isNumeric(/** @type {import('./entity-store.js').EntityState | undefined} */ st) {
  if (st === undefined) return false;
  const a = st.attributes;
  return (
    (a.unit_of_measurement !== undefined || a.state_class !== undefined) && (NOT_A_VALUE.has(st.state) || Number.isFinite(Number(st.state)))
  );
}

/** @param {number} seconds */
function timeText(seconds) {
  return new Date(seconds * 1000).toLocaleString([], { dateStyle: 'short', timeStyle: 'medium' });
}

/** @param {string} value a datetime-local value */
function localToIso(value) {
  return new Date(value).toISOString();
}

/**
 * @param {{ id: string, store: EntityStore, hub: Hub, close: () => void }} props
 */
function HistoryView({ id, store, hub, close }) {
  const st = store.get(id);
  const name = String(st?.attributes.friendly_name ?? id);
  const temps = WITH_TEMPERATURES.has(id.slice(0, id.indexOf('.')));
  const numeric = !temps && isNumeric(st);
  const unit = typeof st?.attributes.unit_of_measurement === 'string' ? st.attributes.unit_of_measurement : '';
  const [range, setRange] = useState(/** @type {{ key: string, start: string, end: string }} */ ({ key: '24h', start: '', end: '' }));
  const [points, setPoints] = useState(/** @type {Point[] | null} */ (null));
  const [log, setLog] = useState(/** @type {LogEntry[]} */ ([]));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  // Which period the shown data answers (a custom one by its dates), for tests and assistive tools.
  const [loaded, setLoaded] = useState('');
  const chartRef = useRef(/** @type {HTMLDivElement | null} */ (null));
  const modesRef = useRef(/** @type {HTMLDivElement | null} */ (null));

  // The period asked for; a custom one needs both ends.
  const span = (() => {
    const found = RANGES.find((r) => r[0] === range.key);
    if (found !== undefined) return { start: new Date(Date.now() - found[2] * 1000).toISOString(), end: undefined };
    if (range.start === '' || range.end === '') return undefined;
    return { start: localToIso(range.start), end: localToIso(range.end) };
  })();

  useEffect(() => {
    if (span === undefined) return;
    let live = true;
    setPoints(null);
    setError(null);
    const period = span.end === undefined ? { start_time: span.start } : { start_time: span.start, end_time: span.end };
    Promise.all([
      hub.command({
        type: 'history/history_during_period',
        ...period,
        entity_ids: [id],
        // A climate's temperatures are attributes; everything else needs only its states.
        minimal_response: !temps,
        no_attributes: !temps,
        significant_changes_only: false,
      }),
      hub.command({ type: 'logbook/get_events', ...period, entity_ids: [id] }),
    ]).then(
      ([history, entries]) => {
        if (!live) return;
        setPoints(/** @type {Point[]} */ (history[id] ?? []));
        setLog(/** @type {LogEntry[]} */ (entries).slice().reverse());
        setLoaded(range.key);
      },
      (/** @type {Error} */ err) => live && setError(err.message),
    );
    return () => {
      live = false;
    };
  }, [id, range.key, range.start, range.end]);

  // New states while the dialog is open join the graph (only for a period that runs to now).
  useEffect(() => {
    if (span === undefined || span.end !== undefined) return;
    return store.watch(id, () => {
      const now = store.get(id);
      if (now === undefined) return;
      setPoints((list) =>
        list === null || list.at(-1)?.lu === now.last_updated ? list : [...list, { s: now.state, lu: now.last_updated }],
      );
    });
  }, [id, range.key]);

  useEffect(() => {
    const el = chartRef.current;
    if (el === null || points === null || points.length === 0) return;
    /** @type {any} */
    let plot;
    let cancelled = false;
    const draw = (/** @type {{ plot: any, unit: string } | undefined} */ uPlot) => {
      if (cancelled) return;
      // The graph runs to now: the last state holds until then.
      const endX = span?.end === undefined ? Date.now() / 1000 : new Date(span.end).getTime() / 1000;
      // The axis spans the period asked for, not just the data: a range button changes what the graph shows.
      const startX = span === undefined ? (points[0]?.lu ?? endX) : new Date(span.start).getTime() / 1000;
      if (temps && uPlot !== undefined && modesRef.current !== null) {
        const { current, target } = temperatureSeries(points);
        plot = lineChart(uPlot.plot, el, {
          unit: uPlot.unit,
          start: startX,
          end: endX,
          series: [
            { label: `${name} current temperature`, points: current },
            { label: `${name} target temperature`, points: target, dash: true },
          ],
        });
        const modes = /** @type {[number, string][]} */ (points.map((p) => [p.lu, p.s]));
        timeline(modesRef.current, {
          start: startX,
          end: endX,
          rows: [{ label: 'Mode', points: modes }],
          text: (state) => (st === undefined ? state : stateText({ ...st, state })),
        });
      } else if (numeric) {
        /** @type {[number, number | null][]} */
        const series = points.map((p) => [p.lu, NOT_A_VALUE.has(p.s) ? null : Number(p.s)]);
        plot = lineChart(uPlot.plot, el, {
          unit,
          start: startX,
          end: endX,
          series: [{ label: `${name}${unit ? ` (${unit})` : ''}`, points: series }],
        });
      } else {
        timeline(el, {
          start: startX,
          end: endX,
          rows: [{ label: name, points: points.map((p) => [p.lu, p.s]) }],
          text: (state) => (st === undefined ? state : stateText({ ...st, state })),
        });
      }
      el.dataset.points = String(points.length);
      el.dataset.kind = numeric || temps ? 'line' : 'timeline';
      // The seconds the x axis spans (the period asked for, to the minute), for tests and assistive tools.
      el.dataset.span = String(Math.round((endX - startX) / 60) * 60);
    };
    // Only a line chart needs uPlot (and a climate's, the temperature unit); a timeline is plain elements.
    if (temps) Promise.all([loadUplot(), temperatureUnitOf(hub)]).then(([plot, unit]) => draw({ plot, unit }));
    else if (numeric) loadUplot().then((plot) => draw({ plot, unit }));
    else draw(undefined);
    return () => {
      cancelled = true;
      plot?.destroy();
    };
  }, [points, numeric, temps]);

  return html`<form method="dialog" class="history-head">
    <div><h2 id="history-title">${name}</h2><p class="entity-id">${id}${st?.attributes.device_class ? ` · ${st.attributes.device_class}` : ''}</p></div>
    <button class="close" aria-label="Close" onClick=${close}>×</button>
  </form>
  <div class="ranges" role="group" aria-label="Period">
    ${RANGES.map(([key, label]) => html`<button type="button" key=${key} class=${range.key === key ? 'on' : ''} aria-pressed=${range.key === key} data-range=${key} onClick=${() => setRange({ key, start: '', end: '' })}>${label}</button>`)}
    <label>From <input type="datetime-local" name="start" value=${range.start} onChange=${(/** @type {Event} */ e) => setRange({ key: 'custom', start: /** @type {HTMLInputElement} */ (e.currentTarget).value, end: range.end })} /></label>
    <label>To <input type="datetime-local" name="end" value=${range.end} onChange=${(/** @type {Event} */ e) => setRange({ key: 'custom', start: range.start, end: /** @type {HTMLInputElement} */ (e.currentTarget).value })} /></label>
  </div>
  ${error !== null ? html`<p class="problem" role="alert">Could not load the history: ${error}</p>` : points === null ? html`<p class="loading">Loading…</p>` : points.length === 0 ? html`<p class="empty">No history recorded for this range.</p>` : null}
  <div class="chart" ref=${chartRef} data-entity=${id} data-loaded=${loaded}></div>
  ${temps ? html`<div class="chart-modes" ref=${modesRef}></div>` : null}
  <h3>Logbook</h3>
  ${log.length === 0 ? html`<p class="empty">Nothing in the logbook for this range.</p>` : html`<ul class="logbook">${log.map((e, i) => html`<li key=${i}><time>${timeText(e.when)}</time> <span>${entryText(e, (eid) => store.get(eid)?.attributes.device_class)}</span></li>`)}</ul>`}`;
}

/**
 * Opens the history dialog of one entity; Escape or the close button closes it and gives focus back.
 * @param {{ id: string, store: EntityStore, hub: Hub }} props
 */
export function openHistory({ id, store, hub }) {
  openModal({
    id: 'history-dialog',
    className: 'history',
    labelledBy: 'history-title',
    content: (close) => html`<${HistoryView} key=${id} id=${id} store=${store} hub=${hub} close=${close} />`,
  });
}
