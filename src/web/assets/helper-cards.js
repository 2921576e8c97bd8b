// @ts-check
/**
 * Controls of the cards of values a user sets: the helpers (input_number, input_select, input_button, counter, timer)
 * and the devices' and templates' number, select and button, which share the helpers' controls.
 */

import { Buttons, Choice, NumberBox, Slider } from './controls.js';
import { html } from './html.js';

/** @typedef {import('./entity-store.js').EntityState} EntityState */
/** @typedef {(service: string, data?: Record<string, unknown>, domain?: string) => Promise<unknown>} Act */

/**
 * A slider, or a box for mode `box` (and for `auto` when a slider would have too many steps, as Home Assistant does).
 * @param {{ st: EntityState, act: Act }} props
 */
function NumberControls({ st, act }) {
  const a = st.attributes;
  const value = Number(st.state);
  if (typeof a.min !== 'number' || typeof a.max !== 'number') return null;
  const step = typeof a.step === 'number' ? a.step : 1;
  const set = (/** @type {number} */ v) => act('set_value', { value: v });
  const box = a.mode === 'box' || (a.mode === 'auto' && (a.max - a.min) / step > 256);
  const unit = typeof a.unit_of_measurement === 'string' ? a.unit_of_measurement : undefined;
  if (box) {
    return html`<div class="controls"><${NumberBox} label="Value" value=${Number.isFinite(value) ? value : ''} min=${a.min} max=${a.max} step=${step} unit=${unit} onCommit=${set} /></div>`;
  }
  if (!Number.isFinite(value)) return null;
  return html`<div class="controls"><${Slider} label="Value" value=${value} min=${a.min} max=${a.max} step=${step} onCommit=${set} /></div>`;
}

/** @param {{ st: EntityState, act: Act }} props */
function SelectControls({ st, act }) {
  const options = Array.isArray(st.attributes.options) ? st.attributes.options.map(String) : [];
  return html`<div class="controls"><${Choice} label="Option" value=${st.state} options=${options} onPick=${(/** @type {string} */ v) => act('select_option', { option: v })} /></div>`;
}

/** @param {{ st: EntityState, act: Act }} props */
function PressControls({ act }) {
  return html`<div class="controls"><${Buttons} buttons=${[{ label: 'Press', primary: true, onClick: () => act('press') }]} /></div>`;
}

/** @param {{ st: EntityState, act: Act }} props */
function CounterControls({ act }) {
  return html`<div class="controls"><${Buttons} buttons=${[
    { label: '−', onClick: () => act('decrement') },
    { label: '+', primary: true, onClick: () => act('increment') },
    { label: 'Reset', onClick: () => act('reset') },
  ]} /></div>`;
}

/** @param {{ st: EntityState, act: Act }} props */
function TimerControls({ st, act }) {
  const active = st.state === 'active';
  const ends = st.attributes.finishes_at;
  return html`<div class="controls">
  ${active && typeof ends === 'string' ? html`<p class="detail">Ends ${new Date(ends).toLocaleTimeString()}</p>` : null}
  ${st.state === 'paused' && typeof st.attributes.remaining === 'string' ? html`<p class="detail">${st.attributes.remaining} left</p>` : null}
  <${Buttons} buttons=${[
    { label: active ? 'Pause' : 'Start', primary: !active, onClick: () => act(active ? 'pause' : 'start') },
    { label: 'Cancel', disabled: st.state === 'idle', onClick: () => act('cancel') },
  ]} />
</div>`;
}

/** @type {Record<string, (props: { st: EntityState, act: Act }) => unknown>} */
export const VALUE_CONTROLS = {
  input_number: NumberControls,
  number: NumberControls,
  input_select: SelectControls,
  select: SelectControls,
  input_button: PressControls,
  button: PressControls,
  counter: CounterControls,
  timer: TimerControls,
};
