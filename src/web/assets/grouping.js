// @ts-check
/**
 * Cards are grouped by area (an entity's own area, else its device's, as Home Assistant resolves it),
 * areas ordered by floor and name, then by domain in a fixed order, then by name.
 */

/**
 * @typedef {object} Registries
 * @property {Map<string, { name: string, floor_id: string | null }>} areas
 * @property {Map<string, { level: number | null, name: string }>} floors
 * @property {Map<string, string | null>} deviceAreas device id -> area id
 * @property {Map<string, { area_id: string | null, device_id: string | null, hidden: boolean, labels: string[] }>} entities
 * @property {Map<string, string>} labels label id -> name
 */

/** @typedef {{ domain: string, title: string, ids: string[] }} DomainGroup */
/** @typedef {{ key: string, title: string | null, domains: DomainGroup[] }} AreaGroup */

/** @returns {Registries} */
export function emptyRegistries() {
  return { areas: new Map(), floors: new Map(), deviceAreas: new Map(), entities: new Map(), labels: new Map(), precision: new Map() };
}

/**
 * A sensor's display precision in its registry options: the user's, else the integration's suggestion (as Home
 * Assistant's frontend reads `options.sensor`). @param {any} options @returns {number | undefined}
 */
export function displayPrecision(options) {
  const sensor = options?.sensor;
  for (const p of [sensor?.display_precision, sensor?.suggested_display_precision]) if (typeof p === 'number') return p;
  return undefined;
}

export const DOMAIN_ORDER = [
  'light',
  'switch',
  'climate',
  'cover',
  'fan',
  'lock',
  'alarm_control_panel',
  'media_player',
  'vacuum',
  'camera',
  'number',
  'select',
  'button',
  'sensor',
  'binary_sensor',
  'scene',
  'script',
  'automation',
];

/** @type {Record<string, string>} */
const DOMAIN_TITLES = {
  alarm_control_panel: 'Alarm',
  light: 'Lights',
  switch: 'Switches',
  climate: 'Climate',
  cover: 'Covers',
  fan: 'Fans',
  lock: 'Locks',
  media_player: 'Media',
  vacuum: 'Vacuums',
  camera: 'Cameras',
  number: 'Numbers',
  select: 'Selects',
  button: 'Buttons',
  sensor: 'Sensors',
  binary_sensor: 'Binary sensors',
  scene: 'Scenes',
  script: 'Scripts',
  automation: 'Automations',
};

/** @param {string} domain */
export function domainTitle(domain) {
  return (
    (Object.hasOwn(DOMAIN_TITLES, domain) ? DOMAIN_TITLES[domain] : undefined) ??
    domain.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase())
  );
}

/** @param {string} domain */
function domainRank(domain) {
  const i = DOMAIN_ORDER.indexOf(domain);
  return i === -1 ? DOMAIN_ORDER.length : i;
}

/**
 * @param {Iterable<import('./entity-store.js').EntityState>} states
 * @param {Registries} reg
 * @returns {AreaGroup[]}
 */
export function groupEntities(states, reg) {
  /** @type {Map<string, Map<string, import('./entity-store.js').EntityState[]>>} */
  const byArea = new Map();
  for (const st of states) {
    const entry = reg.entities.get(st.entity_id);
    if (entry?.hidden) continue;
    let area = entry?.area_id ?? null;
    if (area === null && entry?.device_id) area = reg.deviceAreas.get(entry.device_id) ?? null;
    if (area !== null && !reg.areas.has(area)) area = null;
    const key = area ?? '';
    let domains = byArea.get(key);
    if (domains === undefined) {
      domains = new Map();
      byArea.set(key, domains);
    }
    const domain = st.entity_id.slice(0, st.entity_id.indexOf('.'));
    let list = domains.get(domain);
    if (list === undefined) {
      list = [];
      domains.set(domain, list);
    }
    list.push(st);
  }
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  /** @param {import('./entity-store.js').EntityState} s */
  const nameOf = (s) => String(s.attributes.friendly_name ?? s.entity_id);
  /** @param {string} key */
  const floorLevel = (key) => {
    const floor = reg.floors.get(reg.areas.get(key)?.floor_id ?? '');
    return floor?.level ?? Number.MAX_SAFE_INTEGER;
  };
  const keys = [...byArea.keys()].sort((a, b) => {
    if (a === '' || b === '') return a === '' ? 1 : -1;
    return floorLevel(a) - floorLevel(b) || collator.compare(reg.areas.get(a)?.name ?? a, reg.areas.get(b)?.name ?? b);
  });
  const anyArea = keys.some((k) => k !== '');
  return keys.map((key) => {
    const domains = /** @type {Map<string, import('./entity-store.js').EntityState[]>} */ (byArea.get(key));
    return {
      key: key === '' ? '-' : key,
      // Without any areas there is one unnamed group; otherwise the rest is "Other".
      title: key === '' ? (anyArea ? 'Other' : null) : (reg.areas.get(key)?.name ?? key),
      domains: [...domains.keys()]
        .sort((a, b) => domainRank(a) - domainRank(b) || a.localeCompare(b))
        .map((domain) => ({
          domain,
          title: domainTitle(domain),
          ids: /** @type {import('./entity-store.js').EntityState[]} */ (domains.get(domain))
            .sort((a, b) => collator.compare(nameOf(a), nameOf(b)))
            .map((s) => s.entity_id),
        })),
    };
  });
}

/**
 * Reads the registries over the WebSocket (Home Assistant's `config/*_registry/list` commands). A hub
 * without one of them still gets a dashboard: that part is simply empty.
 * @param {(message: object) => Promise<any>} command
 * @returns {Promise<Registries>}
 */
export async function loadRegistries(command) {
  /** @param {string} type */
  const list = (type) =>
    command({ type }).then(
      (r) => (Array.isArray(r) ? r : []),
      () => [],
    );
  const [areas, floors, devices, entities, labels] = await Promise.all([
    list('config/area_registry/list'),
    list('config/floor_registry/list'),
    list('config/device_registry/list'),
    list('config/entity_registry/list'),
    list('config/label_registry/list'),
  ]);
  const reg = emptyRegistries();
  for (const a of areas)
    if (typeof a?.area_id === 'string') reg.areas.set(a.area_id, { name: String(a.name ?? a.area_id), floor_id: a.floor_id ?? null });
  for (const f of floors) {
    if (typeof f?.floor_id === 'string')
      reg.floors.set(f.floor_id, { level: typeof f.level === 'number' ? f.level : null, name: String(f.name ?? f.floor_id) });
  }
  for (const d of devices) if (typeof d?.id === 'string') reg.deviceAreas.set(d.id, d.area_id ?? null);
  for (const e of entities) {
    if (typeof e?.entity_id !== 'string') continue;
    const own = Array.isArray(e.labels) ? e.labels.map(String) : [];
    reg.entities.set(e.entity_id, { area_id: e.area_id ?? null, device_id: e.device_id ?? null, hidden: e.hidden_by != null, labels: own });
    const dp = displayPrecision(e.options);
    if (dp !== undefined) reg.precision.set(e.entity_id, dp);
  }
  for (const l of labels) if (typeof l?.label_id === 'string') reg.labels.set(l.label_id, String(l.name ?? l.label_id));
  return reg;
}
