// @ts-check
/**
 * A logbook entry in Home Assistant's words: what happened by domain and device class ("detected motion",
 * "was opened", "rose") and what caused it ("triggered by action script.good_night", "triggered by automation
 * Hallway light triggered by state of binary_sensor.hall_motion").
 */

/** @typedef {{ when: number | string, state?: string, entity_id?: string | null, name?: string, message?: string, domain?: string, context_user_id?: string, context_event_type?: string, context_domain?: string, context_service?: string, context_entity_id?: string, context_entity_id_name?: string, context_name?: string, context_message?: string }} LogEntry */

const OPENED = ['was opened', 'was closed'];
/** binary_sensor device class -> [on, off] @type {Record<string, string[]>} */
const BINARY = {
  battery: ['was low', 'was normal'],
  connectivity: ['was connected', 'was disconnected'],
  door: OPENED,
  garage_door: OPENED,
  opening: OPENED,
  window: OPENED,
  lock: ['was unlocked', 'was locked'],
  plug: ['was plugged in', 'was unplugged'],
  presence: ['was detected at home', 'was detected away'],
  safety: ['was unsafe', 'was safe'],
  tamper: ['detected tampering', 'cleared tampering'],
};
const DETECTED = new Set([
  'cold',
  'gas',
  'heat',
  'moisture',
  'motion',
  'occupancy',
  'power',
  'problem',
  'smoke',
  'sound',
  'vibration',
  'moving',
  'running',
  'light',
  'carbon_monoxide',
]);

/** @type {Record<string, Record<string, string>>} */
const BY_DOMAIN = {
  sun: { above_horizon: 'rose', below_horizon: 'set' },
  cover: { open: 'was opened', closed: 'was closed', opening: 'is opening', closing: 'is closing' },
  lock: {
    locked: 'was locked',
    unlocked: 'was unlocked',
    locking: 'is locking',
    unlocking: 'is unlocking',
    jammed: 'is jammed',
    open: 'was opened',
  },
  person: { home: 'was detected at home', not_home: 'was detected away' },
  device_tracker: { home: 'was detected at home', not_home: 'was detected away' },
};

/** What a state change means. @param {string} entityId @param {string} state @param {string | undefined} deviceClass */
export function stateMessage(entityId, state, deviceClass) {
  if (state === 'unavailable') return 'became unavailable';
  if (state === 'unknown') return 'became unknown';
  const domain = entityId.slice(0, entityId.indexOf('.'));
  if (domain === 'binary_sensor' && (state === 'on' || state === 'off')) {
    const dc = deviceClass ?? '';
    const pair = BINARY[dc];
    if (pair !== undefined) return /** @type {string} */ (pair[state === 'on' ? 0 : 1]);
    if (DETECTED.has(dc)) return state === 'on' ? `detected ${dc.replace(/_/g, ' ')}` : `cleared (no ${dc.replace(/_/g, ' ')} detected)`;
  }
  const special = BY_DOMAIN[domain]?.[state];
  if (special !== undefined) return special;
  if ((domain === 'person' || domain === 'device_tracker') && state !== '') return `was detected at ${state}`;
  if (state === 'on') return 'turned on';
  if (state === 'off') return 'turned off';
  return `changed to ${state}`;
}

/** What caused it, or '' when the hub does not know. @param {LogEntry} e @param {(userId: string) => string | undefined} [userName] */
export function causeText(e, userName) {
  if (e.context_event_type === 'call_service') return `triggered by action ${e.context_domain}.${e.context_service}`;
  if (e.context_event_type === 'script_started' && e.context_entity_id !== undefined) return `triggered by action ${e.context_entity_id}`;
  if (e.context_event_type === 'automation_triggered') {
    const name = e.context_entity_id_name ?? e.context_name ?? e.context_entity_id ?? '';
    return `triggered by automation ${name} ${e.context_message ?? 'triggered'}`.trim();
  }
  if (e.context_user_id !== undefined) return `by ${userName?.(e.context_user_id) ?? 'a user'}`;
  return '';
}

/** The whole line after the entity's name. @param {LogEntry} e @param {(id: string) => string | undefined} deviceClassOf @param {(userId: string) => string | undefined} [userName] */
export function entryText(e, deviceClassOf, userName) {
  const what = e.message ?? stateMessage(e.entity_id ?? '', e.state ?? '', e.entity_id ? deviceClassOf(e.entity_id) : undefined);
  const cause = causeText(e, userName);
  return cause === '' ? what : `${what} ${cause}`;
}
