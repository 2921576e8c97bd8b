// @ts-check
/** Small form controls shared by the cards. */

import { html } from './html.js';
import { useState } from './vendor/hooks.js';

/**
 * An on/off switch.
 * @param {{ on: boolean, label: string, onToggle: () => void, disabled?: boolean }} props
 */
export function Toggle({ on, label, onToggle, disabled = false }) {
  return html`<button type="button" class="switch" role="switch" aria-checked=${on ? 'true' : 'false'} aria-label=${label} disabled=${disabled} onClick=${onToggle}><span class="knob"></span></button>`;
}

/**
 * A range that commits on release, showing the dragged value meanwhile (live state updates do not fight the finger).
 * @param {{ label: string, value: number, min: number, max: number, step?: number, format?: (v: number) => string, onCommit: (v: number) => Promise<unknown> | void, disabled?: boolean }} props
 */
export function Slider({ label, value, min, max, step = 1, format, onCommit, disabled = false }) {
  const [draft, setDraft] = useState(/** @type {number | null} */ (null));
  const shown = draft ?? value;
  /** @param {Event} e */
  const commit = async (e) => {
    const v = Number(/** @type {HTMLInputElement} */ (e.currentTarget).value);
    setDraft(v);
    try {
      await onCommit(v);
    } finally {
      setDraft(null);
    }
  };
  return html`<label class="slider"><span class="label">${label}</span><input type="range" min=${min} max=${max} step=${step} value=${shown} disabled=${disabled}
    onInput=${(/** @type {Event} */ e) => setDraft(Number(/** @type {HTMLInputElement} */ (e.currentTarget).value))} onChange=${commit} /><output>${format ? format(shown) : String(shown)}</output></label>`;
}

/**
 * A number typed in (a number or input_number in box mode), committed on change; the browser keeps it within min..max.
 * @param {{ label: string, value: number, min: number, max: number, step?: number, unit?: string, onCommit: (v: number) => Promise<unknown> | void, disabled?: boolean }} props
 */
export function NumberBox({ label, value, min, max, step = 1, unit, onCommit, disabled = false }) {
  /** @param {Event} e */
  const commit = (e) => {
    const input = /** @type {HTMLInputElement} */ (e.currentTarget);
    const v = Number(input.value);
    if (input.value.trim() !== '' && Number.isFinite(v) && input.checkValidity()) onCommit(v);
  };
  return html`<label class="slider"><span class="label">${label}</span><input type="number" min=${min} max=${max} step=${step} value=${value} disabled=${disabled} onChange=${commit} /><output>${unit ?? ''}</output></label>`;
}

/**
 * A choice from a list (modes, presets, speeds).
 * @param {{ label: string, value: string | null | undefined, options: readonly string[], onPick: (v: string) => void, disabled?: boolean }} props
 */
export function Choice({ label, value, options, onPick, disabled = false }) {
  return html`<label class="choice"><span class="label">${label}</span><select disabled=${disabled} value=${value ?? ''}
    onChange=${(/** @type {Event} */ e) => onPick(/** @type {HTMLSelectElement} */ (e.currentTarget).value)}>
    ${value == null || options.includes(value) ? null : html`<option value="">—</option>`}
    ${options.map((o) => html`<option value=${o}>${o.replace(/_/g, ' ')}</option>`)}
  </select></label>`;
}

/** Media glyphs as SVG paths: emoji fonts are missing on many systems. @type {Record<string, string>} */
const ICONS = {
  previous: 'M6 5h2v14H6zM20 5v14L9 12z',
  next: 'M16 5h2v14h-2zM4 5v14l11-7z',
  play: 'M7 4v16l13-8z',
  pause: 'M6 4h4v16H6zM14 4h4v16h-4z',
};

/**
 * A row of buttons; one with an `icon` shows it, with `label` for screen readers.
 * @param {{ buttons: { label: string, icon?: string, onClick: () => void, primary?: boolean, disabled?: boolean, pressed?: boolean }[] }} props
 */
export function Buttons({ buttons }) {
  return html`<div class="buttons">${buttons.map(
    (b) =>
      html`<button type="button" class=${b.primary ? 'primary' : ''} disabled=${b.disabled ?? false} aria-pressed=${b.pressed === undefined ? undefined : String(b.pressed)} aria-label=${b.icon === undefined ? undefined : b.label} title=${b.icon === undefined ? undefined : b.label} onClick=${b.onClick}>${
        b.icon === undefined
          ? b.label
          : html`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d=${ICONS[b.icon] ?? ''} /></svg>`
      }</button>`,
  )}</div>`;
}
