// @ts-check
/**
 * The entities the dashboard shows, kept from `subscribe_entities` events (Home Assistant's compressed
 * format: `a` added, `c` changed as `+`/`-` diffs, `r` removed). Changes are applied to the data at once
 * but shown once per animation frame: a burst of a thousand updates costs one render of the cards that
 * changed, and a hidden tab does no rendering at all.
 */

/**
 * @typedef {object} EntityState
 * @property {string} entity_id
 * @property {string} state
 * @property {Record<string, any>} attributes
 * @property {number} last_changed epoch seconds
 * @property {number} last_updated epoch seconds
 */

/** @param {string} entityId @param {any} c */
function fromCompressed(entityId, c) {
  return /** @type {EntityState} */ ({
    entity_id: entityId,
    state: c.s,
    attributes: c.a ?? {},
    last_changed: c.lc,
    last_updated: c.lu ?? c.lc,
  });
}

/** @param {EntityState} old @param {any} diff */
function applyDiff(old, diff) {
  const plus = diff['+'] ?? {};
  const minus = diff['-'];
  let attributes = old.attributes;
  if (plus.a !== undefined || minus?.a !== undefined) {
    attributes = { ...attributes, ...(plus.a ?? {}) };
    for (const key of minus?.a ?? []) delete attributes[key];
  }
  const lastChanged = plus.lc ?? old.last_changed;
  return /** @type {EntityState} */ ({
    entity_id: old.entity_id,
    state: plus.s ?? old.state,
    attributes,
    last_changed: lastChanged,
    last_updated: plus.lu ?? (plus.lc !== undefined ? plus.lc : old.last_updated),
  });
}

const schedule = typeof requestAnimationFrame === 'function' ? requestAnimationFrame : (/** @type {() => void} */ fn) => setTimeout(fn, 16);

export class EntityStore {
  constructor() {
    /** @type {Map<string, EntityState>} */
    this.states = new Map();
    /** @type {Map<string, Set<() => void>>} */
    this.watchers = new Map();
    /** @type {Set<() => void>} */
    this.structureWatchers = new Set();
    /** Entities changed since the last frame (at most every entity once). @type {Set<string>} */
    this.changed = new Set();
    this.structureChanged = false;
    this.scheduled = false;
    /** Set when a (re)subscription starts: its first event is a full snapshot, replacing everything. */
    this.expectSnapshot = false;
    /** @type {Map<string, number>} Display precision per sensor (registry options). */
    this.precision = new Map();
    /** Renders done, for tests and the performance check. */
    this.frames = 0;
  }

  /**
   * The display precisions of sensors (registry options); the cards whose precision changed render again.
   * @param {Map<string, number>} next
   */
  setPrecision(next) {
    for (const id of new Set([...this.precision.keys(), ...next.keys()])) {
      if (this.precision.get(id) !== next.get(id)) this.changed.add(id);
    }
    this.precision = next;
    this.requestFrame();
  }

  /** @param {string} id */
  get(id) {
    return this.states.get(id);
  }

  ids() {
    return [...this.states.keys()];
  }

  /** The next event is the snapshot of a new subscription. */
  beginSnapshot() {
    this.expectSnapshot = true;
  }

  /** One `subscribe_entities` event. @param {any} event */
  apply(event) {
    if (this.expectSnapshot) {
      this.expectSnapshot = false;
      const fresh = event.a ?? {};
      for (const id of this.states.keys()) {
        if (!(id in fresh)) {
          this.states.delete(id);
          this.structureChanged = true;
        }
      }
    }
    if (event.a) {
      for (const [id, c] of Object.entries(event.a)) {
        if (!this.states.has(id)) this.structureChanged = true;
        this.states.set(id, fromCompressed(id, c));
        this.changed.add(id);
      }
    }
    if (event.r) {
      for (const id of event.r) {
        if (this.states.delete(id)) this.structureChanged = true;
        this.changed.add(id);
      }
    }
    if (event.c) {
      for (const [id, diff] of Object.entries(event.c)) {
        const old = this.states.get(id);
        if (old === undefined) continue;
        const next = applyDiff(old, diff);
        // A new name re-sorts the cards.
        if (next.attributes.friendly_name !== old.attributes.friendly_name) this.structureChanged = true;
        this.states.set(id, next);
        this.changed.add(id);
      }
    }
    this.requestFrame();
  }

  requestFrame() {
    if (this.scheduled) return;
    this.scheduled = true;
    schedule(() => this.flush());
  }

  flush() {
    this.scheduled = false;
    this.frames++;
    if (this.structureChanged) {
      this.structureChanged = false;
      for (const fn of this.structureWatchers) fn();
    }
    const changed = this.changed;
    this.changed = new Set();
    for (const id of changed) {
      const set = this.watchers.get(id);
      if (set !== undefined) for (const fn of set) fn();
    }
  }

  /**
   * Calls `fn` (once per frame at most) when the entity changes; returns the unsubscribe function.
   * @param {string} id
   * @param {() => void} fn
   */
  watch(id, fn) {
    let set = this.watchers.get(id);
    if (set === undefined) {
      set = new Set();
      this.watchers.set(id, set);
    }
    set.add(fn);
    return () => {
      set.delete(fn);
      if (set.size === 0) this.watchers.delete(id);
    };
  }

  /** Calls `fn` when entities appear, disappear or are renamed. @param {() => void} fn */
  watchStructure(fn) {
    this.structureWatchers.add(fn);
    return () => this.structureWatchers.delete(fn);
  }
}
