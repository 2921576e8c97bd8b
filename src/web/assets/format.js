// @ts-check
/** How states read on a card. */

/** @typedef {import('./entity-store.js').EntityState} EntityState */

/** @type {Record<string, [string, string]>} binary_sensor device class -> [off, on] */
const BINARY_LABELS = {
  battery: ['Normal', 'Low'],
  battery_charging: ['Not charging', 'Charging'],
  cold: ['Normal', 'Cold'],
  connectivity: ['Disconnected', 'Connected'],
  door: ['Closed', 'Open'],
  garage_door: ['Closed', 'Open'],
  gas: ['Clear', 'Detected'],
  heat: ['Normal', 'Hot'],
  light: ['No light', 'Light detected'],
  lock: ['Locked', 'Unlocked'],
  moisture: ['Dry', 'Wet'],
  motion: ['Clear', 'Detected'],
  moving: ['Not moving', 'Moving'],
  occupancy: ['Clear', 'Detected'],
  opening: ['Closed', 'Open'],
  plug: ['Unplugged', 'Plugged in'],
  power: ['Off', 'On'],
  presence: ['Away', 'Home'],
  problem: ['OK', 'Problem'],
  running: ['Not running', 'Running'],
  safety: ['Safe', 'Unsafe'],
  smoke: ['Clear', 'Detected'],
  sound: ['Clear', 'Detected'],
  tamper: ['Clear', 'Tampering detected'],
  update: ['Up-to-date', 'Update available'],
  vibration: ['Clear', 'Detected'],
  window: ['Closed', 'Open'],
};

/** @param {string} text */
export function humanize(text) {
  const t = text.replace(/_/g, ' ');
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/** @param {number} value @param {number} [digits] */
export function formatNumber(value, digits) {
  return value.toLocaleString(
    undefined,
    digits === undefined ? { maximumFractionDigits: 2 } : { minimumFractionDigits: digits, maximumFractionDigits: digits },
  );
}

/** The card's state line; a sensor's number with its display precision when it has one. @param {EntityState} st @param {number} [precision] */
export function stateText(st, precision) {
  const domain = st.entity_id.slice(0, st.entity_id.indexOf('.'));
  const s = st.state;
  if (s === 'unavailable') return 'Unavailable';
  if (s === 'unknown') return 'Unknown';
  const a = st.attributes;
  switch (domain) {
    case 'sensor': {
      const unit = typeof a.unit_of_measurement === 'string' ? a.unit_of_measurement : '';
      const n = Number(s);
      const shown = s.trim() !== '' && Number.isFinite(n) ? formatNumber(n, precision) : s;
      if (a.device_class === 'timestamp' && !Number.isNaN(Date.parse(s))) return new Date(s).toLocaleString();
      return unit === '' ? shown : unit === '%' ? `${shown}%` : `${shown} ${unit}`;
    }
    case 'binary_sensor': {
      // Any client can set a device class: only the table's own keys are labels (`constructor` is not).
      const dc = String(a.device_class);
      const labels = (Object.hasOwn(BINARY_LABELS, dc) ? BINARY_LABELS[dc] : undefined) ?? ['Off', 'On'];
      return s === 'on' ? labels[1] : s === 'off' ? labels[0] : humanize(s);
    }
    case 'light':
      if (s === 'on' && typeof a.brightness === 'number') return `On · ${Math.round((a.brightness / 255) * 100)}%`;
      return humanize(s);
    case 'cover':
      if (typeof a.current_position === 'number' && (s === 'open' || s === 'opening' || s === 'closing')) {
        return `${humanize(s)} · ${a.current_position}%`;
      }
      return humanize(s);
    case 'fan':
      if (s === 'on' && typeof a.percentage === 'number') return `On · ${a.percentage}%`;
      return humanize(s);
    case 'climate': {
      const current = typeof a.current_temperature === 'number' ? ` · ${formatNumber(a.current_temperature)} °` : '';
      return `${humanize(a.hvac_action ?? s)}${current}`;
    }
    case 'vacuum':
      return typeof a.battery_level === 'number' ? `${humanize(s)} · ${a.battery_level}% battery` : humanize(s);
    case 'scene':
      return Number.isNaN(Date.parse(s)) ? humanize(s) : `Activated ${relativeTime(Date.parse(s) / 1000)}`;
    case 'button':
    case 'input_button':
      return Number.isNaN(Date.parse(s)) ? humanize(s) : `Pressed ${relativeTime(Date.parse(s) / 1000)}`;
    case 'number':
    case 'input_number': {
      const unit = typeof a.unit_of_measurement === 'string' ? ` ${a.unit_of_measurement}` : '';
      const n = Number(s);
      return `${s.trim() !== '' && Number.isFinite(n) ? formatNumber(n) : s}${unit}`;
    }
    case 'select':
      // Options are shown as the device names them.
      return s;
    case 'automation':
    case 'script':
      return humanize(s);
    default:
      return humanize(s);
  }
}

/** @param {number} epochSeconds */
export function relativeTime(epochSeconds) {
  const diff = Date.now() / 1000 - epochSeconds;
  if (diff < 45) return 'just now';
  if (diff < 3600) return `${Math.round(diff / 60)} min ago`;
  if (diff < 86400) return `${Math.round(diff / 3600)} h ago`;
  return new Date(epochSeconds * 1000).toLocaleDateString();
}

/** Whether the entity is "on" in the sense the card's accent shows. @param {EntityState} st */
export function isActive(st) {
  return [
    'on',
    'open',
    'opening',
    'closing',
    'unlocked',
    'playing',
    'cleaning',
    'heat',
    'cool',
    'heat_cool',
    'auto',
    'dry',
    'fan_only',
    'triggered',
    'armed_away',
    'armed_home',
    'armed_night',
    'armed_vacation',
    'armed_custom_bypass',
    'arming',
    'pending',
  ].includes(st.state);
}
