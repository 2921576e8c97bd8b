// @ts-check
/**
 * What the History and Logbook pages show: entities picked directly or through an area, a device or a label,
 * and a period (presets or any two times). Both live in the URL (`?entity_id=...&start_date=...&end_date=...`,
 * Home Assistant's keys) so a view can be bookmarked and shared.
 */

import { byText, html, inputValue, store } from './app-common.js';
import { useState } from './vendor/hooks.js';

/** @typedef {import('./app-common.js').Registries} Registries */
/** @typedef {{ entities: string[], areas: string[], devices: string[], labels: string[] }} Targets */
/** @typedef {{ start: number, end: number, key: string }} Period epoch seconds */

const HOUR = 3600;
export const PRESETS = /** @type {const} */ ([
  ['1h', 'Last hour'],
  ['24h', 'Last 24 hours'],
  ['today', 'Today'],
  ['yesterday', 'Yesterday'],
  ['7d', 'Last 7 days'],
  ['30d', 'Last 30 days'],
]);

/** @param {string} key */
export function presetPeriod(key) {
  const now = Date.now() / 1000;
  const midnight = new Date();
  midnight.setHours(0, 0, 0, 0);
  const today = midnight.getTime() / 1000;
  switch (key) {
    case '1h':
      return { start: now - HOUR, end: now, key };
    case 'today':
      return { start: today, end: now, key };
    case 'yesterday':
      return { start: today - 24 * HOUR, end: today, key };
    case '7d':
      return { start: now - 7 * 24 * HOUR, end: now, key };
    case '30d':
      return { start: now - 30 * 24 * HOUR, end: now, key };
    default:
      return { start: now - 24 * HOUR, end: now, key: '24h' };
  }
}

/** The targets and period in the URL. @param {string} defaultRange @returns {{ targets: Targets, period: Period }} */
export function fromUrl(defaultRange) {
  const q = new URLSearchParams(location.search);
  const list = (/** @type {string} */ k) => (q.get(k) ?? '').split(',').filter((s) => s !== '');
  const start = Date.parse(q.get('start_date') ?? '');
  const end = Date.parse(q.get('end_date') ?? '');
  const range = q.get('range');
  const period =
    Number.isFinite(start) && range === null
      ? { start: start / 1000, end: Number.isFinite(end) ? end / 1000 : Date.now() / 1000, key: 'custom' }
      : presetPeriod(range ?? defaultRange);
  return { targets: { entities: list('entity_id'), areas: list('area_id'), devices: list('device_id'), labels: list('label_id') }, period };
}

/** @param {Targets} t @param {Period} p */
export function toUrl(t, p) {
  const q = new URLSearchParams();
  if (t.entities.length > 0) q.set('entity_id', t.entities.join(','));
  if (t.areas.length > 0) q.set('area_id', t.areas.join(','));
  if (t.devices.length > 0) q.set('device_id', t.devices.join(','));
  if (t.labels.length > 0) q.set('label_id', t.labels.join(','));
  if (p.key === 'custom') {
    q.set('start_date', new Date(p.start * 1000).toISOString());
    q.set('end_date', new Date(p.end * 1000).toISOString());
  } else q.set('range', p.key);
  history.replaceState(null, '', `${location.pathname}?${q}`);
}

/** The entities the targets name, as Home Assistant resolves them (an area's own and its devices'). @param {Targets} t @param {Registries | null} reg */
export function resolveTargets(t, reg) {
  const out = new Set(t.entities);
  if (reg === null) return [...out];
  const deviceArea = new Map(reg.devices.map((d) => [d.id, d.area_id]));
  const deviceLabels = new Map(reg.devices.map((d) => [d.id, d.labels ?? []]));
  for (const e of reg.entities) {
    const area = e.area_id ?? deviceArea.get(e.device_id) ?? null;
    if (
      (area !== null && t.areas.includes(area)) ||
      (e.device_id !== null && t.devices.includes(e.device_id)) ||
      e.labels.some((/** @type {string} */ l) => t.labels.includes(l)) ||
      (deviceLabels.get(e.device_id) ?? []).some((/** @type {string} */ l) => t.labels.includes(l))
    )
      out.add(e.entity_id);
  }
  return [...out];
}

/** @param {number} s */
function localInput(s) {
  const d = new Date(s * 1000);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
}

/** @param {{ targets: Targets, period: Period, reg: Registries | null, onTargets: (t: Targets) => void, onPeriod: (p: Period) => void }} props */
export function Picker({ targets, period, reg, onTargets, onPeriod }) {
  const [adding, setAdding] = useState('');
  const options = [
    ...store
      .ids()
      .sort(byText)
      .map((id) => ({ value: `entity:${id}`, label: `${store.get(id)?.attributes.friendly_name ?? id} (${id})` })),
    ...(reg?.areas ?? []).map((a) => ({ value: `area:${a.area_id}`, label: `Area: ${a.name}` })),
    ...(reg?.devices ?? []).map((d) => ({ value: `device:${d.id}`, label: `Device: ${d.name_by_user ?? d.name}` })),
    ...(reg?.labels ?? []).map((l) => ({ value: `label:${l.label_id}`, label: `Label: ${l.name}` })),
  ];
  const labelOf = (/** @type {string} */ v) => options.find((o) => o.value === v)?.label ?? v.slice(v.indexOf(':') + 1);
  const key = /** @type {const} */ ({ entity: 'entities', area: 'areas', device: 'devices', label: 'labels' });
  const add = (/** @type {string} */ text) => {
    const found = options.find((o) => o.value === text || o.label === text) ?? (store.get(text) ? { value: `entity:${text}` } : undefined);
    if (found === undefined) return;
    const kind = /** @type {keyof typeof key} */ (found.value.slice(0, found.value.indexOf(':')));
    const id = found.value.slice(found.value.indexOf(':') + 1);
    if (!targets[key[kind]].includes(id)) onTargets({ ...targets, [key[kind]]: [...targets[key[kind]], id] });
    setAdding('');
  };
  const chosen = Object.entries(key).flatMap(([kind, k]) => targets[k].map((id) => ({ kind, k, id })));
  return html`<div class="panel picker">
    <div class="bar">
      <input class="target-input" list="target-options" placeholder="Add an entity, area, device or label" aria-label="Add an entity, area, device or label" value=${adding}
        onInput=${(/** @type {Event} */ e) => setAdding(inputValue(e))} onChange=${(/** @type {Event} */ e) => add(inputValue(e))} />
      <datalist id="target-options">${options.map((o) => html`<option value=${o.label}></option>`)}</datalist>
    </div>
    <div class="chips targets">${chosen.map(
      (
        c,
      ) => html`<span class="chip" key=${`${c.kind}:${c.id}`}>${labelOf(`${c.kind}:${c.id}`)} <button type="button" class="link" aria-label=${`Remove ${labelOf(`${c.kind}:${c.id}`)}`}
        onClick=${() => onTargets({ ...targets, [c.k]: targets[/** @type {keyof Targets} */ (c.k)].filter((x) => x !== c.id) })}>×</button></span>`,
    )}</div>
    <div class="bar ranges" role="group" aria-label="Period">
      ${PRESETS.map(([k, label]) => html`<button type="button" key=${k} data-range=${k} aria-pressed=${period.key === k} onClick=${() => onPeriod(presetPeriod(k))}>${label}</button>`)}
      <label>From <input type="datetime-local" name="start" value=${localInput(period.start)} onChange=${(/** @type {Event} */ e) => onPeriod({ start: new Date(inputValue(e)).getTime() / 1000, end: period.end, key: 'custom' })} /></label>
      <label>To <input type="datetime-local" name="end" value=${localInput(period.end)} onChange=${(/** @type {Event} */ e) => onPeriod({ start: period.start, end: new Date(inputValue(e)).getTime() / 1000, key: 'custom' })} /></label>
    </div>
  </div>`;
}
