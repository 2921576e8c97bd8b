// @ts-check
/** Controls of the helpers' cards (input_number, input_select, input_button, counter, timer). */

import { Buttons, Choice, Slider } from './controls.js';
import { html } from './html.js';

/** @typedef {import('./entity-store.js').EntityState} EntityState */
/** @typedef {(service: string, data?: Record<string, unknown>, domain?: string) => Promise<unknown>} Act */

/** @param {{ st: EntityState, act: Act }} props */
function InputNumberControls({ st, act }) {
  const a = st.attributes;
  const value = Number(st.state);
  if (!Number.isFinite(value) || typeof a.min !== 'number' || typeof a.max !== 'number') return null;
  const step = typeof a.step === 'number' ? a.step : 1;
  return html`<div class="controls"><${Slider} label="Value" value=${value} min=${a.min} max=${a.max} step=${step} onCommit=${(/** @type {number} */ v) => act('set_value', { value: v })} /></div>`;
}

/** @param {{ st: EntityState, act: Act }} props */
function InputSelectControls({ st, act }) {
  const options = Array.isArray(st.attributes.options) ? st.attributes.options.map(String) : [];
  return html`<div class="controls"><${Choice} label="Option" value=${st.state} options=${options} onPick=${(/** @type {string} */ v) => act('select_option', { option: v })} /></div>`;
}

/** @param {{ st: EntityState, act: Act }} props */
function InputButtonControls({ act }) {
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
export const HELPER_CONTROLS = {
  input_number: InputNumberControls,
  input_select: InputSelectControls,
  input_button: InputButtonControls,
  counter: CounterControls,
  timer: TimerControls,
};
