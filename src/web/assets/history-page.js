// @ts-check
/**
 * /history: the history of the picked entities over a period, as Home Assistant draws it: one line chart per
 * unit (numeric sensors), climate entities with their current and target temperatures, and a timeline of states
 * for everything else. Read with `history/history_during_period`.
 */

import { command, html, mount, store, toast, useRegistries, useStates } from './app-common.js';
import { lineChart, loadUplot, timeline } from './charts.js';
import { stateText } from './format.js';
import { fromUrl, Picker, resolveTargets, toUrl } from './period-picker.js';
import { useEffect, useRef, useState } from './vendor/hooks.js';

/** @typedef {{ s: string, lu?: number, lc?: number, a?: Record<string, any> }} Point */
/** @typedef {{ key: string, unit: string, series: { label: string, points: [number, number | null][], dash?: boolean }[] }} LineGroup */

const NOT_A_VALUE = new Set(['unavailable', 'unknown', '']);
const WITH_TEMPERATURES = new Set(['climate', 'water_heater']);

/** @param {Point} p */
const timeOf = (p) => /** @type {number} */ (p.lu ?? p.lc);

/** Numeric: a unit or state class now, and numbers in the data. @param {string} id @param {Point[]} points */
function isNumeric(id, points) {
  const a = store.get(id)?.attributes ?? points[0]?.a ?? {};
  if (a.unit_of_measurement === undefined && a.state_class === undefined) return false;
  return points.every((p) => NOT_A_VALUE.has(p.s) || Number.isFinite(Number(p.s)));
}

/** @param {string} id */
function nameOf(id) {
  return String(store.get(id)?.attributes.friendly_name ?? id);
}

/** Splits the answer into line charts by unit and timeline rows, as Home Assistant groups them. @param {Record<string, Point[]>} answer @param {string} tempUnit */
export function groupHistory(answer, tempUnit) {
  /** @type {Map<string, LineGroup>} */
  const lines = new Map();
  /** @type {{ id: string, label: string, points: [number, string][] }[]} */
  const rows = [];
  const line = (/** @type {string} */ unit) => {
    let g = lines.get(unit);
    if (g === undefined) {
      g = { key: unit, unit, series: [] };
      lines.set(unit, g);
    }
    return g;
  };
  for (const [id, points] of Object.entries(answer)) {
    if (points.length === 0) continue;
    const domain = id.slice(0, id.indexOf('.'));
    if (WITH_TEMPERATURES.has(domain)) {
      /** @type {Record<string, any>} */
      let attrs = {};
      const current = /** @type {[number, number | null][]} */ ([]);
      const target = /** @type {[number, number | null][]} */ ([]);
      for (const p of points) {
        attrs = p.a ?? attrs;
        const c = Number(attrs.current_temperature);
        const t = Number(attrs.temperature);
        current.push([timeOf(p), Number.isFinite(c) && attrs.current_temperature !== null ? c : null]);
        target.push([timeOf(p), Number.isFinite(t) && attrs.temperature !== null && p.s !== 'off' ? t : null]);
      }
      const g = line(tempUnit);
      g.series.push(
        { label: `${nameOf(id)} current temperature`, points: current },
        { label: `${nameOf(id)} target temperature`, points: target, dash: true },
      );
      rows.push({ id, label: nameOf(id), points: points.map((p) => [timeOf(p), p.s]) });
    } else if (isNumeric(id, points)) {
      const unit = String(store.get(id)?.attributes.unit_of_measurement ?? points[0]?.a?.unit_of_measurement ?? '');
      line(unit).series.push({ label: nameOf(id), points: points.map((p) => [timeOf(p), NOT_A_VALUE.has(p.s) ? null : Number(p.s)]) });
    } else rows.push({ id, label: nameOf(id), points: points.map((p) => [timeOf(p), p.s]) });
  }
  return { lines: [...lines.values()], rows };
}

/** @param {{ group: LineGroup, start: number, end: number }} props */
function LineChart({ group, start, end }) {
  const ref = useRef(/** @type {HTMLDivElement | null} */ (null));
  useEffect(() => {
    const el = ref.current;
    if (el === null) return;
    /** @type {any} */
    let plot;
    let live = true;
    loadUplot().then((uPlot) => {
      if (!live) return;
      plot = lineChart(uPlot, el, { unit: group.unit, start, end, series: group.series });
      el.dataset.drawn = 'true';
    });
    return () => {
      live = false;
      plot?.destroy();
    };
  }, [group, start, end]);
  return html`<figure class="panel chart-group" data-unit=${group.unit}>
    <figcaption>${group.unit === '' ? 'No unit' : group.unit}</figcaption>
    <div class="chart" ref=${ref} data-kind="line" data-series=${group.series.length}></div>
  </figure>`;
}

/** @param {{ rows: { id: string, label: string, points: [number, string][] }[], start: number, end: number }} props */
function Timeline({ rows, start, end }) {
  const ref = useRef(/** @type {HTMLDivElement | null} */ (null));
  useEffect(() => {
    if (ref.current === null) return;
    timeline(ref.current, {
      start,
      end,
      rows,
      text: (s, i) => {
        const id = rows[i]?.id ?? '';
        const st = store.get(id);
        return st === undefined ? s : stateText({ ...st, state: s });
      },
    });
  }, [rows, start, end]);
  return html`<figure class="panel chart-group"><figcaption>States</figcaption><div class="timeline" ref=${ref} data-kind="timeline" data-rows=${rows.length}></div></figure>`;
}

function App() {
  useStates();
  const reg = useRegistries();
  const initial = fromUrl('24h');
  const [targets, setTargets] = useState(initial.targets);
  const [period, setPeriod] = useState(initial.period);
  const [answer, setAnswer] = useState(/** @type {{ lines: LineGroup[], rows: any[], key: string } | null} */ (null));
  const [tempUnit, setTempUnit] = useState('°C');
  const ids = resolveTargets(targets, reg);
  const idsKey = ids.join(',');
  useEffect(() => {
    command({ type: 'get_config' }).then(
      (c) => setTempUnit(c?.unit_system?.temperature ?? '°C'),
      () => {},
    );
  }, []);
  useEffect(() => {
    toUrl(targets, period);
    if (ids.length === 0) return setAnswer(null);
    let live = true;
    const period_ = { start_time: new Date(period.start * 1000).toISOString(), end_time: new Date(period.end * 1000).toISOString() };
    const plain = ids.filter((id) => !WITH_TEMPERATURES.has(id.slice(0, id.indexOf('.'))));
    const warm = ids.filter((id) => WITH_TEMPERATURES.has(id.slice(0, id.indexOf('.'))));
    Promise.all([
      plain.length === 0
        ? {}
        : command({
            type: 'history/history_during_period',
            ...period_,
            entity_ids: plain,
            minimal_response: true,
            no_attributes: true,
            significant_changes_only: false,
          }),
      warm.length === 0
        ? {}
        : command({ type: 'history/history_during_period', ...period_, entity_ids: warm, significant_changes_only: false }),
    ]).then(
      ([a, b]) => live && setAnswer({ ...groupHistory({ ...a, ...b }, tempUnit), key: `${period.key}:${period.start}` }),
      (/** @type {Error} */ err) => toast(`Could not load the history: ${err.message}`),
    );
    return () => {
      live = false;
    };
  }, [idsKey, period.start, period.end, tempUnit]);
  return html`<${Picker} targets=${targets} period=${period} reg=${reg} onTargets=${setTargets} onPeriod=${setPeriod} />
  ${ids.length === 0 ? html`<p class="empty">Pick entities, an area, a device or a label to see their history.</p>` : answer === null ? html`<p class="loading">Loading…</p>` : null}
  ${
    answer !== null && ids.length > 0
      ? html`<div class="history-charts" data-loaded=${period.key} data-span=${Math.round(period.end - period.start)}>
      ${answer.lines.map((g) => html`<${LineChart} key=${`${g.unit}:${answer.key}`} group=${g} start=${period.start} end=${period.end} />`)}
      ${answer.rows.length > 0 ? html`<${Timeline} rows=${answer.rows} start=${period.start} end=${period.end} />` : null}
      ${answer.lines.length + answer.rows.length === 0 ? html`<p class="empty">Nothing recorded for this period.</p>` : null}
    </div>`
      : null
  }`;
}

mount(App);
