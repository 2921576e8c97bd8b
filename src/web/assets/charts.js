// @ts-check
/**
 * History charts with uPlot: line charts (one per unit, as Home Assistant groups them) whose x axis is the asked
 * period and whose y ticks carry the unit, and a timeline of states for entities that are not numbers.
 */

/** @type {Promise<any> | undefined} */
let uplotLoading;

/** uPlot and its stylesheet (same origin, so the page's CSP allows both). */
export function loadUplot() {
  uplotLoading ??= Promise.all([
    import('./vendor/uplot.js'),
    new Promise((resolve) => {
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = new URL('./vendor/uplot.css', import.meta.url).href;
      link.onload = resolve;
      link.onerror = resolve;
      document.head.append(link);
    }),
  ]).then(([m]) => m.default);
  return uplotLoading;
}

const COLORS = ['#e8743b', '#3b82f6', '#19a979', '#945ecf', '#ed4a7b', '#13a4b4', '#bf8b00', '#6b655c'];

/** x-axis labels that never run together: fewer, wider ticks, a date only where the day changes. */
const X_AXIS = {
  space: 90,
  values: [
    // [min tick span in s, format, second-line format, …] per uPlot's axis `values` table.
    [3600 * 24 * 365, '{YYYY}', null, null, null, null, null, null, 1],
    [3600 * 24 * 28, '{MMM}', '\n{YYYY}', null, null, null, null, null, 1],
    [3600 * 24, '{D} {MMM}', '\n{YYYY}', null, null, null, null, null, 1],
    [3600, '{HH}:{mm}', '\n{D} {MMM}', null, '\n{D} {MMM}', null, null, null, 1],
    [60, '{HH}:{mm}', '\n{D} {MMM}', null, '\n{D} {MMM}', null, null, null, 1],
    [1, '{HH}:{mm}:{ss}', '\n{D} {MMM}', null, '\n{D} {MMM}', null, null, null, 1],
  ],
};

/** @param {number} v */
function tickNumber(v) {
  return Math.abs(v) >= 1000 ? v.toFixed(0) : String(Number(v.toPrecision(4)));
}

/**
 * A line chart of numeric series sharing one unit; the y range fits the data with a margin, the x range is the
 * period. @param {any} uPlot @param {HTMLElement} el
 * @param {{ unit: string, start: number, end: number, series: { label: string, points: [number, number | null][], step?: boolean, dash?: boolean }[] }} spec
 */
export function lineChart(uPlot, el, spec) {
  const xs = [...new Set(spec.series.flatMap((s) => s.points.map((p) => p[0])))].sort((a, b) => a - b);
  if (xs.length === 0 || xs[xs.length - 1] !== spec.end) xs.push(spec.end);
  const ys = spec.series.map((s) => {
    // Each series holds its last value until the next one, and to the end of the period.
    const out = [];
    let i = 0;
    /** @type {number | null} */
    let last = null;
    let started = false;
    for (const x of xs) {
      while (i < s.points.length && /** @type {[number, number | null]} */ (s.points[i])[0] <= x) {
        last = /** @type {[number, number | null]} */ (s.points[i])[1];
        started = true;
        i++;
      }
      out.push(started ? last : null);
    }
    return out;
  });
  const values = ys.flat().filter((v) => v !== null);
  // A period with no number at all (only unavailable) still gets an axis.
  const lo = values.length === 0 ? 0 : Math.min(...values);
  const hi = values.length === 0 ? 1 : Math.max(...values);
  const pad = hi === lo ? Math.max(1, Math.abs(hi) * 0.05) : (hi - lo) * 0.1;
  const unit = spec.unit;
  return new uPlot(
    {
      width: Math.max(260, el.clientWidth),
      height: 220,
      scales: { x: { time: true, range: () => [spec.start, spec.end] }, y: { range: () => [lo - pad, hi + pad] } },
      series: [
        {},
        ...spec.series.map((s, i) => ({
          label: s.label,
          stroke: COLORS[i % COLORS.length],
          width: 2,
          dash: s.dash ? [6, 4] : undefined,
          paths: uPlot.paths.stepped({ align: 1 }),
          value: (/** @type {any} */ _u, /** @type {number | null} */ v) => (v === null ? '–' : `${tickNumber(v)} ${unit}`.trim()),
        })),
      ],
      axes: [
        X_AXIS,
        { size: 70, values: (/** @type {any} */ _u, /** @type {number[]} */ ticks) => ticks.map((v) => `${tickNumber(v)} ${unit}`.trim()) },
      ],
    },
    [xs, ...ys],
    el,
  );
}

/**
 * A timeline: one row per entity, the state as text in bands along the period.
 * @param {HTMLElement} el @param {{ start: number, end: number, rows: { label: string, points: [number, string][] }[], text: (s: string, entityIndex: number) => string }} spec
 */
export function timeline(el, spec) {
  el.textContent = '';
  const span = spec.end - spec.start || 1;
  const palette = new Map();
  spec.rows.forEach((row, ri) => {
    const line = document.createElement('div');
    line.className = 'timeline-row';
    const label = document.createElement('div');
    label.className = 'timeline-label';
    label.textContent = row.label;
    label.title = row.label;
    const bar = document.createElement('div');
    bar.className = 'timeline-bar';
    row.points.forEach(([t, state], i) => {
      const from = Math.max(t, spec.start);
      const to = Math.min(row.points[i + 1]?.[0] ?? spec.end, spec.end);
      if (to <= from) return;
      const seg = document.createElement('span');
      const words = spec.text(state, ri);
      if (!palette.has(state)) palette.set(state, palette.size);
      seg.className = `seg seg-${state === 'off' || state === 'unavailable' || state === 'unknown' ? 'quiet' : palette.get(state) % COLORS.length}`;
      // A state held for minutes of a week is a sliver; it stays inside the bar rather than past its end.
      seg.style.left = `${Math.min(((from - spec.start) / span) * 100, 99.4)}%`;
      seg.style.width = `${((to - from) / span) * 100}%`;
      seg.title = `${words}: ${new Date(from * 1000).toLocaleString()} – ${new Date(to * 1000).toLocaleString()}`;
      seg.textContent = words;
      bar.append(seg);
    });
    line.append(label, bar);
    el.append(line);
  });
}
