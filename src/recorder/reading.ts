// Reading history: the recorder's HistoryReader queries over sealed chunks and the hot tier.
import type { Micros } from '../core/clock.js';
import type { Context } from '../core/context.js';
import { markDamaged } from './chunk-check.js';
import { DAY_MS, EVENTS, type RecorderState } from './recorder-state.js';
import { type ChunkRef, readChunk } from './segments.js';
import { decodeChunk, forEachInChunk, type PointVisitor } from './series.js';
import type { EventVisitor, StateVisitor } from './types.js';

/** Visits the points of one chunk: from memory while it waits for the disk, else from the cache or its day file. */
export function visitChunk(s: RecorderState, ref: ChunkRef, visit: PointVisitor): void {
  const key = `${ref.day}:${ref.offset}:${ref.entityId}`;
  let inflated = ref.pending === undefined ? s.cache.get(key) : undefined;
  if (inflated === undefined) {
    if (ref.damaged) return;
    try {
      inflated = readChunk(s.dir, ref);
    } catch (err) {
      markDamaged(ref, err, s.options.log);
      return;
    }
    if (ref.pending === undefined) s.cache.put(key, inflated);
  }
  forEachInChunk(decodeChunk(inflated), visit);
}

export function oldestUs(s: RecorderState): Micros {
  const now = s.nowMs();
  let first = now;
  for (const list of s.refs.values()) if (list[0] !== undefined) first = Math.min(first, list[0].firstMs);
  for (const h of s.hot.values()) if (h.writer.count > 0) first = Math.min(first, h.writer.firstMs);
  return Math.max(first, now - s.options.config.purgeKeepDays * DAY_MS) * 1000;
}

export function forEachEvent(s: RecorderState, startUs: Micros, endUs: Micros, visit: EventVisitor): void {
  visitSeries(s, EVENTS, startUs, endUs, false, (type, data, _lc, lu, ctx) => {
    if (ctx !== null) visit(type, data, lu, ctx);
  });
}

export function entitiesDuring(s: RecorderState, startUs: Micros, endUs: Micros): string[] {
  const start = Math.floor(startUs / 1000);
  const end = Math.ceil(endUs / 1000);
  const out = new Set<string>();
  for (const [id, list] of s.refs) {
    if (id === EVENTS) continue;
    if (list.some((r) => r.firstMs < end && r.lastMs >= start)) out.add(id);
  }
  for (const [id, h] of s.hot) {
    if (id !== EVENTS && h.writer.count > 0 && h.writer.firstMs < end && h.writer.lastMs >= start) out.add(id);
  }
  return [...out];
}

/** Visits one series' points in [startUs, endUs), with `initial` the last one before first; returns how many. */
export function visitSeries(s: RecorderState, id: string, startUs: Micros, endUs: Micros, initial: boolean, visit: StateVisitor): number {
  // Points are kept to the millisecond: [start, end) in microseconds, compared on the microsecond value.
  let count = 0;
  let held = false;
  let hState = '';
  let hAttrs = '';
  let hLc = 0;
  let hLu = 0;
  let hCtx: Context | null = null;
  const onPoint: PointVisitor = (state, attrs, lc, lu, ctx) => {
    const luUs = lu * 1000;
    if (luUs < startUs) {
      if (initial) {
        held = true;
        hState = state;
        hAttrs = attrs;
        hLc = lc;
        hLu = lu;
        hCtx = ctx;
      }
      return;
    }
    if (luUs >= endUs) return;
    if (held) {
      held = false;
      visit(hState, hAttrs, hLc * 1000, hLu * 1000, hCtx);
      count++;
    }
    visit(state, attrs, lc * 1000, luUs, ctx);
    count++;
  };
  const start = Math.floor(startUs / 1000);
  const end = endUs / 1000;
  const list = s.refs.get(id) ?? [];
  // For the initial state only the last chunk that ends before the start is needed.
  let lastBefore = -1;
  if (initial) for (let i = 0; i < list.length; i++) if ((list[i] as ChunkRef).lastMs < start) lastBefore = i;
  for (let i = 0; i < list.length; i++) {
    const ref = list[i] as ChunkRef;
    if (ref.firstMs >= end) break;
    if (ref.lastMs < start && i !== lastBefore) continue;
    visitChunk(s, ref, onPoint);
  }
  s.hot.get(id)?.writer.forEach(onPoint);
  if (held) {
    visit(hState, hAttrs, hLc * 1000, hLu * 1000, hCtx);
    count++;
  }
  return count;
}
