// @ts-check
/** One card per entity: its name and state, and the controls its domain offers. */

import { Buttons, Choice, Slider, Toggle } from './controls.js';
import { formatNumber, isActive, stateText } from './format.js';
import { VALUE_CONTROLS } from './helper-cards.js';
import { html } from './html.js';
import { useEffect, useRef, useState } from './vendor/hooks.js';
import { Component, h } from './vendor/preact.js';

/** @typedef {import('./entity-store.js').EntityState} EntityState */
/** @typedef {import('./entity-store.js').EntityStore} EntityStore */
/** @typedef {(service: string, data?: Record<string, unknown>, domain?: string) => Promise<unknown>} Act */

/**
 * The entity's current state; the component re-renders (once per frame at most) when it changes.
 * @param {EntityStore} store
 * @param {string} id
 */
function useEntity(store, id) {
  const [, bump] = useState(0);
  useEffect(() => store.watch(id, () => bump((n) => n + 1)), [store, id]);
  return store.get(id);
}

/** @param {number | undefined} features @param {number} bit */
const has = (features, bit) => typeof features === 'number' && (features & bit) !== 0;

const TOGGLE_DOMAINS = new Set(['light', 'switch', 'fan', 'automation', 'input_boolean', 'siren', 'humidifier']);

/**
 * @param {{ id: string, store: EntityStore, call: (domain: string, service: string, id: string, data?: object) => Promise<unknown> }} props
 */
export function Card({ id, store, call }) {
  const st = useEntity(store, id);
  if (st === undefined) return null;
  const domain = id.slice(0, id.indexOf('.'));
  const unavailable = st.state === 'unavailable';
  /** @type {Act} */
  const act = (service, data = {}, other = domain) => call(other, service, id, data);
  // A domain is any entity id's (a client can set `constructor.x`): only the table's own keys are controls.
  const Controls = Object.hasOwn(CONTROLS, domain) ? CONTROLS[domain] : undefined;
  const name = String(st.attributes.friendly_name ?? id);
  const style = accentStyle(st);
  const toggle = TOGGLE_DOMAINS.has(domain) && !unavailable && (st.state === 'on' || st.state === 'off');
  return html`<article class=${`card d-${domain}${isActive(st) ? ' active' : ''}${unavailable ? ' unavailable' : ''}`} data-entity=${id} style=${style}>
  <header>
    <div class="title"><h4 class="name" title=${`${name} (${id})`}><button type="button" class="history-link" aria-haspopup="dialog" onClick=${() => window.dispatchEvent(new CustomEvent('hearth-history', { detail: id }))}>${name}</button></h4><p class="state">${stateText(st, store.precision.get(id))}</p></div>
    ${toggle ? html`<${Toggle} on=${st.state === 'on'} label=${`${name} on or off`} onToggle=${() => act('toggle')} />` : null}
  </header>
  ${Controls !== undefined && !unavailable ? html`<${Controls} st=${st} act=${act} />` : null}
</article>`;
}

/**
 * The card as the grid renders it: a parent re-render (filtering, regrouping) skips cards whose props did
 * not change; a card's own entity updates still reach it through its store subscription.
 * @extends {Component<{ id: string, store: EntityStore, call: (domain: string, service: string, id: string, data?: object) => Promise<unknown> }>}
 */
export class CardSlot extends Component {
  /** @param {{ id: string, store: EntityStore, call: Function }} next */
  shouldComponentUpdate(next) {
    return next.id !== this.props.id || next.store !== this.props.store || next.call !== this.props.call;
  }

  /** @param {{ id: string, store: EntityStore, call: (domain: string, service: string, id: string, data?: object) => Promise<unknown> }} props */
  render(props) {
    return h(Card, props);
  }
}

/** A light's colour (or a warm white) as the card's accent. @param {EntityState} st */
function accentStyle(st) {
  const rgb = st.attributes.rgb_color;
  if (st.state === 'on' && Array.isArray(rgb) && rgb.length === 3) return { '--accent': `rgb(${rgb.map(Number).join(',')})` };
  return undefined;
}

/** @param {unknown} rgb */
function rgbHex(rgb) {
  if (!Array.isArray(rgb) || rgb.length !== 3) return '#ffffff';
  return `#${rgb
    .map((v) =>
      Math.max(0, Math.min(255, Math.round(Number(v))))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** @param {string} hex */
function hexRgb(hex) {
  return [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
}

/** @param {{ st: EntityState, act: Act }} props */
function LightControls({ st, act }) {
  const a = st.attributes;
  const modes = Array.isArray(a.supported_color_modes) ? a.supported_color_modes : [];
  const on = st.state === 'on';
  const dimmable = modes.some((m) => m !== 'onoff');
  const colour = modes.some((m) => ['hs', 'rgb', 'rgbw', 'rgbww', 'xy'].includes(m));
  const ct = modes.includes('color_temp');
  const minK = typeof a.min_color_temp_kelvin === 'number' ? a.min_color_temp_kelvin : 2000;
  const maxK = typeof a.max_color_temp_kelvin === 'number' ? a.max_color_temp_kelvin : 6500;
  return html`<div class="controls">
  ${dimmable ? html`<${Slider} label="Brightness" min=${1} max=${100} value=${on && typeof a.brightness === 'number' ? Math.max(1, Math.round((a.brightness / 255) * 100)) : 0} format=${(/** @type {number} */ v) => `${v}%`} onCommit=${(/** @type {number} */ v) => act('turn_on', { brightness_pct: v })} />` : null}
  ${colour ? html`<label class="color"><span class="label">Colour</span><input type="color" value=${rgbHex(a.rgb_color)} onChange=${(/** @type {Event} */ e) => act('turn_on', { rgb_color: hexRgb(/** @type {HTMLInputElement} */ (e.currentTarget).value) })} /></label>` : null}
  ${ct ? html`<${Slider} label="White" min=${minK} max=${maxK} step=${50} value=${typeof a.color_temp_kelvin === 'number' ? a.color_temp_kelvin : Math.round((minK + maxK) / 2)} format=${(/** @type {number} */ v) => `${v} K`} onCommit=${(/** @type {number} */ v) => act('turn_on', { color_temp_kelvin: v })} />` : null}
</div>`;
}

/** @param {{ st: EntityState, act: Act }} props */
function ClimateControls({ st, act }) {
  const a = st.attributes;
  const step = typeof a.target_temp_step === 'number' ? a.target_temp_step : 0.5;
  const min = typeof a.min_temp === 'number' ? a.min_temp : 7;
  const max = typeof a.max_temp === 'number' ? a.max_temp : 35;
  /** @param {string} key @param {number} value @param {number} delta */
  const nudge = (key, value, delta) => {
    const next = Math.min(max, Math.max(min, Math.round((value + delta) / step) * step));
    return act(
      'set_temperature',
      key === 'temperature'
        ? { temperature: next }
        : { target_temp_low: key === 'low' ? next : a.target_temp_low, target_temp_high: key === 'high' ? next : a.target_temp_high },
    );
  };
  /** @param {string} key @param {string} label @param {unknown} value */
  const setpoint = (key, label, value) =>
    typeof value === 'number'
      ? html`<div class="setpoint"><span class="label">${label}</span>
  <button type="button" aria-label=${`${label} down`} onClick=${() => nudge(key, value, -step)}>−</button>
  <output>${formatNumber(value, step < 1 ? 1 : 0)} °</output>
  <button type="button" aria-label=${`${label} up`} onClick=${() => nudge(key, value, step)}>+</button></div>`
      : null;
  const modes = Array.isArray(a.hvac_modes) ? a.hvac_modes : [];
  return html`<div class="controls">
  ${setpoint('temperature', 'Target', a.temperature)}
  ${setpoint('low', 'Low', a.target_temp_low)}
  ${setpoint('high', 'High', a.target_temp_high)}
  ${modes.length > 0 ? html`<${Choice} label="Mode" value=${st.state} options=${modes} onPick=${(/** @type {string} */ v) => act('set_hvac_mode', { hvac_mode: v })} />` : null}
  ${Array.isArray(a.preset_modes) ? html`<${Choice} label="Preset" value=${a.preset_mode} options=${a.preset_modes} onPick=${(/** @type {string} */ v) => act('set_preset_mode', { preset_mode: v })} />` : null}
  ${Array.isArray(a.fan_modes) ? html`<${Choice} label="Fan" value=${a.fan_mode} options=${a.fan_modes} onPick=${(/** @type {string} */ v) => act('set_fan_mode', { fan_mode: v })} />` : null}
</div>`;
}

/** @param {{ st: EntityState, act: Act }} props */
function CoverControls({ st, act }) {
  const a = st.attributes;
  const f = a.supported_features;
  return html`<div class="controls">
  ${has(f, 4) && typeof a.current_position === 'number' ? html`<${Slider} label="Position" min=${0} max=${100} value=${a.current_position} format=${(/** @type {number} */ v) => `${v}%`} onCommit=${(/** @type {number} */ v) => act('set_cover_position', { position: v })} />` : null}
  ${has(f, 128) && typeof a.current_tilt_position === 'number' ? html`<${Slider} label="Tilt" min=${0} max=${100} value=${a.current_tilt_position} format=${(/** @type {number} */ v) => `${v}%`} onCommit=${(/** @type {number} */ v) => act('set_cover_tilt_position', { tilt_position: v })} />` : null}
  <${Buttons} buttons=${[
    ...(has(f, 1)
      ? [{ label: 'Open', onClick: () => act('open_cover'), disabled: st.state === 'open' && a.current_position === 100 }]
      : []),
    ...(has(f, 8) ? [{ label: 'Stop', onClick: () => act('stop_cover') }] : []),
    ...(has(f, 2) ? [{ label: 'Close', onClick: () => act('close_cover'), disabled: st.state === 'closed' }] : []),
  ]} />
</div>`;
}

/** @param {{ st: EntityState, act: Act }} props */
function LockControls({ st, act }) {
  const a = st.attributes;
  const [code, setCode] = useState('');
  // A lock with a code asks for it instead of sending an empty one the hub can only refuse.
  const [asking, setAsking] = useState(/** @type {string | null} */ (null));
  const needsCode = typeof a.code_format === 'string';
  const locked = st.state === 'locked' || st.state === 'locking';
  const run = (/** @type {string} */ service) => {
    if (needsCode && code === '') return setAsking(service);
    setAsking(null);
    act(service, code === '' ? {} : { code });
    setCode('');
  };
  return html`<div class="controls">
  ${
    needsCode
      ? html`<label class="code"><span class="label">Code</span><input type="password" inputmode="numeric" autocomplete="off" aria-label=${`Code for ${a.friendly_name ?? st.entity_id}`} value=${code} ref=${(/** @type {HTMLInputElement | null} */ el) => asking !== null && el?.focus()}
        onInput=${(/** @type {Event} */ e) => setCode(/** @type {HTMLInputElement} */ (e.currentTarget).value)} onKeyDown=${(/** @type {KeyboardEvent} */ e) => e.key === 'Enter' && asking !== null && run(asking)} /></label>
      ${asking !== null ? html`<p class="code-prompt" role="alert">Enter the code to ${asking.replace('_', ' ')}, then press ${asking === 'open' ? 'Open' : locked ? 'Unlock' : 'Lock'} again.</p>` : null}`
      : null
  }
  <${Buttons} buttons=${[
    { label: locked ? 'Unlock' : 'Lock', primary: true, onClick: () => run(locked ? 'unlock' : 'lock') },
    ...(has(a.supported_features, 1) ? [{ label: 'Open', onClick: () => run('open') }] : []),
  ]} />
</div>`;
}

const ARM_MODES = [
  { bit: 1, service: 'alarm_arm_home', label: 'Home' },
  { bit: 2, service: 'alarm_arm_away', label: 'Away' },
  { bit: 4, service: 'alarm_arm_night', label: 'Night' },
  { bit: 32, service: 'alarm_arm_vacation', label: 'Vacation' },
];

/** @param {{ st: EntityState, act: Act }} props */
function AlarmControls({ st, act }) {
  const a = st.attributes;
  const [code, setCode] = useState('');
  // The keypad opens on demand, so the card stays small on a phone.
  const [pad, setPad] = useState(false);
  const numeric = a.code_format === 'number';
  const needsCode = a.code_format != null;
  /** @param {string} service */
  const send = async (service) => {
    try {
      await act(service, code === '' ? {} : { code });
    } finally {
      setCode('');
      setPad(false);
    }
  };
  const disarmed = st.state === 'disarmed';
  const modes = ARM_MODES.filter((m) => has(a.supported_features, m.bit));
  return html`<div class="controls">
  ${needsCode ? html`<input class="code-display" type="password" readonly=${numeric} inputmode="numeric" autocomplete="off" aria-label="Alarm code" placeholder=${numeric && !pad ? 'Tap for the keypad' : 'Code'} value=${code} onClick=${() => setPad(true)} onInput=${(/** @type {Event} */ e) => setCode(/** @type {HTMLInputElement} */ (e.currentTarget).value)} />` : null}
  ${numeric && pad ? html`<div class="keypad">${['1', '2', '3', '4', '5', '6', '7', '8', '9', 'C', '0', '⌫'].map((k) => html`<button type="button" aria-label=${k === 'C' ? 'Clear' : k === '⌫' ? 'Delete' : k} onClick=${() => setCode((c) => (k === 'C' ? '' : k === '⌫' ? c.slice(0, -1) : (c + k).slice(0, 16)))}>${k}</button>`)}</div>` : null}
  <${Buttons} buttons=${
    disarmed
      ? modes.map((m) => ({ label: `Arm ${m.label}`, onClick: () => send(m.service) }))
      : [{ label: 'Disarm', primary: true, onClick: () => send('alarm_disarm') }]
  } />
</div>`;
}

/** @param {{ st: EntityState, act: Act }} props */
function FanControls({ st, act }) {
  const a = st.attributes;
  const f = a.supported_features;
  const step = typeof a.percentage_step === 'number' && a.percentage_step > 0 ? a.percentage_step : 1;
  return html`<div class="controls">
  ${has(f, 1) ? html`<${Slider} label="Speed" min=${0} max=${100} step=${step} value=${typeof a.percentage === 'number' ? a.percentage : 0} format=${(/** @type {number} */ v) => `${Math.round(v)}%`} onCommit=${(/** @type {number} */ v) => act('set_percentage', { percentage: Math.round(v) })} />` : null}
  ${has(f, 8) && Array.isArray(a.preset_modes) ? html`<${Choice} label="Preset" value=${a.preset_mode} options=${a.preset_modes} onPick=${(/** @type {string} */ v) => act('set_preset_mode', { preset_mode: v })} />` : null}
  <${Buttons} buttons=${[
    ...(has(f, 2)
      ? [{ label: 'Oscillate', pressed: a.oscillating === true, onClick: () => act('oscillate', { oscillating: a.oscillating !== true }) }]
      : []),
    ...(has(f, 4)
      ? [
          {
            label: a.direction === 'reverse' ? 'Direction: reverse' : 'Direction: forward',
            onClick: () => act('set_direction', { direction: a.direction === 'reverse' ? 'forward' : 'reverse' }),
          },
        ]
      : []),
  ]} />
</div>`;
}

/** @param {{ st: EntityState, act: Act }} props */
function MediaControls({ st, act }) {
  const a = st.attributes;
  const f = a.supported_features;
  const off = st.state === 'off' || st.state === 'standby';
  const playing = st.state === 'playing';
  const title = [a.media_title, a.media_artist].filter((x) => typeof x === 'string' && x !== '').join(' · ');
  return html`<div class="controls">
  ${title !== '' ? html`<p class="media-title">${title}</p>` : null}
  ${
    off
      ? null
      : html`<${Buttons} buttons=${[
          ...(has(f, 16) ? [{ label: 'Previous', icon: 'previous', onClick: () => act('media_previous_track') }] : []),
          ...(has(f, 1) || has(f, 16384)
            ? [
                {
                  label: playing ? 'Pause' : 'Play',
                  icon: playing ? 'pause' : 'play',
                  primary: true,
                  onClick: () => act('media_play_pause'),
                },
              ]
            : []),
          ...(has(f, 32) ? [{ label: 'Next', icon: 'next', onClick: () => act('media_next_track') }] : []),
          ...(has(f, 8)
            ? [
                {
                  label: a.is_volume_muted ? 'Unmute' : 'Mute',
                  pressed: a.is_volume_muted === true,
                  onClick: () => act('volume_mute', { is_volume_muted: !a.is_volume_muted }),
                },
              ]
            : []),
        ]} />`
  }
  ${!off && has(f, 4) ? html`<${Slider} label="Volume" min=${0} max=${100} value=${typeof a.volume_level === 'number' ? Math.round(a.volume_level * 100) : 0} format=${(/** @type {number} */ v) => `${v}%`} onCommit=${(/** @type {number} */ v) => act('volume_set', { volume_level: v / 100 })} />` : null}
  ${has(f, 128) || has(f, 256) ? html`<${Buttons} buttons=${[{ label: off ? 'Turn on' : 'Turn off', onClick: () => act(off ? 'turn_on' : 'turn_off') }]} />` : null}
</div>`;
}

/** @param {{ st: EntityState, act: Act }} props */
function VacuumControls({ st, act }) {
  const a = st.attributes;
  const f = a.supported_features;
  const cleaning = st.state === 'cleaning';
  return html`<div class="controls">
  ${typeof a.status === 'string' ? html`<p class="detail">${a.status}</p>` : null}
  <${Buttons} buttons=${[
    ...(has(f, 8192) && !cleaning ? [{ label: 'Start', primary: true, onClick: () => act('start') }] : []),
    ...(has(f, 4) && cleaning ? [{ label: 'Pause', primary: true, onClick: () => act('pause') }] : []),
    ...(has(f, 8) ? [{ label: 'Stop', onClick: () => act('stop') }] : []),
    ...(has(f, 16) ? [{ label: 'Dock', onClick: () => act('return_to_base') }] : []),
    ...(has(f, 512) ? [{ label: 'Locate', onClick: () => act('locate') }] : []),
  ]} />
  ${has(f, 32) && Array.isArray(a.fan_speed_list) ? html`<${Choice} label="Suction" value=${a.fan_speed} options=${a.fan_speed_list} onPick=${(/** @type {string} */ v) => act('set_fan_speed', { fan_speed: v })} />` : null}
</div>`;
}

/** Refresh period of a camera snapshot while it is on screen and the tab is visible. */
const CAMERA_REFRESH_MS = 10_000;

/** @param {{ st: EntityState }} props */
function CameraControls({ st }) {
  const picture = typeof st.attributes.entity_picture === 'string' ? st.attributes.entity_picture : undefined;
  const [tick, setTick] = useState(0);
  const ref = useRef(/** @type {HTMLElement | null} */ (null));
  useEffect(() => {
    let visible = false;
    const io = new IntersectionObserver((entries) => {
      visible = entries.some((e) => e.isIntersecting);
    });
    if (ref.current) io.observe(ref.current);
    const timer = setInterval(() => {
      if (visible && document.visibilityState === 'visible') setTick((n) => n + 1);
    }, CAMERA_REFRESH_MS);
    return () => {
      io.disconnect();
      clearInterval(timer);
    };
  }, []);
  if (picture === undefined || st.state === 'off') return null;
  const src = `${picture}${picture.includes('?') ? '&' : '?'}t=${tick}`;
  return html`<div class="controls" ref=${ref}><img class="snapshot" src=${src} alt=${`Snapshot of ${String(st.attributes.friendly_name ?? st.entity_id)}`} loading="lazy" decoding="async" /></div>`;
}

/** @param {{ st: EntityState, act: Act }} props */
function SceneControls({ act }) {
  return html`<div class="controls"><${Buttons} buttons=${[{ label: 'Activate', primary: true, onClick: () => act('turn_on') }]} /></div>`;
}

/**
 * Opens the dialog of an automation's or script's last runs (traces.js, loaded on the first click). Traces are
 * kept under the automation's `id` (its object id without one) and the script's object id.
 * @param {EntityState} st
 */
function showRuns(st) {
  const [domain, objectId] = st.entity_id.split('.');
  const itemId = domain === 'automation' && typeof st.attributes.id === 'string' ? st.attributes.id : objectId;
  const name = String(st.attributes.friendly_name ?? st.entity_id);
  window.dispatchEvent(new CustomEvent('hearth-traces', { detail: { domain, itemId, name } }));
}

/** @param {{ st: EntityState, act: Act }} props */
function ScriptControls({ st, act }) {
  const running = st.state === 'on';
  return html`<div class="controls"><${Buttons} buttons=${[
    { label: running ? 'Stop' : 'Run', primary: !running, onClick: () => act(running ? 'turn_off' : 'turn_on') },
    { label: 'Last runs', onClick: () => showRuns(st) },
  ]} /></div>`;
}

/** @param {{ st: EntityState, act: Act }} props */
function AutomationControls({ st, act }) {
  const last = st.attributes.last_triggered;
  return html`<div class="controls">
  ${typeof last === 'string' ? html`<p class="detail">Last run ${new Date(last).toLocaleString()}</p>` : null}
  <${Buttons} buttons=${[{ label: 'Run now', onClick: () => act('trigger') }, { label: 'Last runs', onClick: () => showRuns(st) }]} />
</div>`;
}

/** @type {Record<string, (props: { st: EntityState, act: Act }) => unknown>} */
const CONTROLS = {
  light: LightControls,
  climate: ClimateControls,
  cover: CoverControls,
  lock: LockControls,
  alarm_control_panel: AlarmControls,
  fan: FanControls,
  media_player: MediaControls,
  vacuum: VacuumControls,
  camera: CameraControls,
  scene: SceneControls,
  script: ScriptControls,
  automation: AutomationControls,
  ...VALUE_CONTROLS,
};
