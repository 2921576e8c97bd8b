import { type Context, type IdParts, idFromParts, idParts } from '../core/context.js';
import { ByteReader, ByteWriter } from './bytes.js';

/**
 * One entity's changes, encoded a few bytes a point: a flags byte, the time since the previous point in
 * milliseconds, the state (numeric states as a scaled integer's difference from the previous one, others as
 * an index into the chunk's dictionary), the attributes only when they changed (a dictionary index), and a
 * context only where the logbook reads it. Deflated in a sealed chunk, a numeric series costs 2-3 bytes a point.
 * A context id of the usual form (src/core/context.ts) is kept as its parts' differences: its millisecond
 * from the point's, its counter from the series' previous context's, its random part only when that changed;
 * a call's context costs some four bytes instead of sixteen random ones.
 *
 * Times are kept to the millisecond: history answers carry them as float seconds anyway, and the microsecond
 * digits (random as far as compression goes) would cost two bytes a point.
 */

/** The largest block of a series' body: at most this much slack per series, and a block header per kilobyte. */
const BODY_BLOCK_BYTES = 1024;

/** The attributes differ from the previous point's: their dictionary index follows. */
const F_ATTR = 1;
/** last_changed differs from last_updated (an attributes-only update): its distance back follows. */
const F_LC = 2;
/** A context follows. */
const F_CTX = 4;
/** A numeric state's scaled integer is absolute, not a difference (the scale changed, or the first point). */
const F_ABS = 8;
/** Bits 4-6: digits after the decimal point (0-6) of a numeric state; 7 for a state kept as text. */
const SCALE_SHIFT = 4;
const TEXT_STATE = 7;

// Context flags. An id with neither C_ID_TEXT nor C_ID_PARTS is 16 bytes as its hex reads (chunks of version 1).
const C_USER = 1;
const C_PARENT = 2;
const C_ID_TEXT = 4;
const C_PARENT_TEXT = 8;
/** The id as its parts: the millisecond's and the counter's differences, then the tag unless C_TAG_SAME. */
const C_ID_PARTS = 16;
/** The id's random part is the previous context's in this series. */
const C_TAG_SAME = 32;

/** Chunks written now; version 1 (ids as 16 bytes) is still read. */
const CHUNK_VERSION = 2;

/** States that round-trip exactly through a scaled integer (at most 15 significant digits). */
const NUMERIC = /^-?(?:0|[1-9]\d{0,8})(?:\.\d{1,6})?$/;

const textDecoder = new TextDecoder();

export type PointVisitor = (
  state: string,
  attributesJson: string,
  lastChangedMs: number,
  lastUpdatedMs: number,
  context: Context | null,
) => void;

function scaledOf(state: string): { int: number; scale: number } | undefined {
  if (!NUMERIC.test(state)) return undefined;
  const dot = state.indexOf('.');
  const scale = dot < 0 ? 0 : state.length - dot - 1;
  const int = Number(dot < 0 ? state : state.slice(0, dot) + state.slice(dot + 1));
  // "-0" and "-0.0" do not come back from an integer: kept as text.
  if (renderScaled(int, scale) !== state) return undefined;
  return { int, scale };
}

function renderScaled(int: number, scale: number): string {
  if (scale === 0) return String(int);
  const negative = int < 0;
  const digits = String(Math.abs(int)).padStart(scale + 1, '0');
  const whole = `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
  return negative ? `-${whole}` : whole;
}

/**
 * Strings numbered in the order they were first seen. Most series have one or two (a sensor's attributes,
 * on and off), so the index map is made only past a few: a thousand entities do not cost three thousand Maps.
 */
export class Dictionary {
  private list: string[] | undefined;
  private index: Map<string, number> | undefined;
  /** Characters held, for the memory budget. */
  chars = 0;

  /** The strings, in index order (a shared empty list until the first). */
  get items(): readonly string[] {
    return this.list ?? NO_STRINGS;
  }

  indexOf(s: string): number {
    if (this.list === undefined) this.list = [];
    const items = this.list;
    if (this.index === undefined) {
      for (let i = 0; i < items.length; i++) if (items[i] === s) return i;
      if (items.length >= 8) this.index = new Map(items.map((item, i) => [item, i]));
    } else {
      const i = this.index.get(s);
      if (i !== undefined) return i;
    }
    const i = items.length;
    items.push(s);
    this.index?.set(s, i);
    this.chars += s.length;
    return i;
  }

  /** Whether `s` is held already (without adding it). */
  has(s: string): boolean {
    if (this.index !== undefined) return this.index.has(s);
    return this.list?.includes(s) ?? false;
  }

  push(s: string): void {
    this.indexOf(s);
  }

  get size(): number {
    return this.list?.length ?? 0;
  }
}

const NO_STRINGS: readonly string[] = Object.freeze([]);
/** What a series without text states or users reads: nothing, and no object of its own. */
const NO_DICTIONARY = new Dictionary();

/** What a decoder or encoder remembers of the previous point. */
class Previous {
  ms = 0;
  int = 0;
  scale = -1;
  attr = -1;
  /** The counter and random part of the last context id kept as parts. */
  counter = 0;
  tag = -1;
}

/** Scratch for idParts (the encoder runs one point at a time). */
const parts: IdParts = { ms: 0, counter: 0, tag: 0 };

/** Encodes points one after another into `body`, with its dictionaries. */
export class SeriesWriter {
  // In blocks: a series lives up to an hour, and outgrown buffers would wait for a full collection (bytes.ts).
  readonly body = new ByteWriter(32, BODY_BLOCK_BYTES);
  readonly attrs = new Dictionary();
  // Made on first use: numeric series have no text states, and only logbook entities have users.
  private ownStates: Dictionary | undefined;
  private ownUsers: Dictionary | undefined;
  count = 0;
  firstMs = -1;
  lastMs = -1;
  private readonly prev = new Previous();

  get states(): Dictionary {
    return this.ownStates ?? NO_DICTIONARY;
  }

  get users(): Dictionary {
    return this.ownUsers ?? NO_DICTIONARY;
  }

  private mutableStates(): Dictionary {
    if (this.ownStates === undefined) this.ownStates = new Dictionary();
    return this.ownStates;
  }

  private mutableUsers(): Dictionary {
    if (this.ownUsers === undefined) this.ownUsers = new Dictionary();
    return this.ownUsers;
  }

  append(state: string, attributesJson: string, lastChangedMs: number, lastUpdatedMs: number, context: Context | null): void {
    const prev = this.prev;
    // A clock that went backwards: the point keeps its order and takes the previous time (never a negative delta).
    const lu = Math.max(lastUpdatedMs, this.count === 0 ? 0 : prev.ms);
    const lc = Math.min(lastChangedMs, lu);
    let flags = 0;
    const attr = this.attrs.indexOf(attributesJson);
    if (attr !== prev.attr) flags |= F_ATTR;
    if (lc !== lu) flags |= F_LC;
    if (context !== null) flags |= F_CTX;
    const scaled = scaledOf(state);
    let value: number;
    if (scaled === undefined) {
      flags |= TEXT_STATE << SCALE_SHIFT;
      value = this.mutableStates().indexOf(state);
    } else {
      flags |= scaled.scale << SCALE_SHIFT;
      if (scaled.scale !== prev.scale) {
        flags |= F_ABS;
        value = scaled.int;
      } else value = scaled.int - prev.int;
      prev.int = scaled.int;
      prev.scale = scaled.scale;
    }
    const b = this.body;
    b.u8(flags);
    b.varint(lu - prev.ms);
    if (scaled === undefined) b.varint(value);
    else b.zigzag(value);
    if (flags & F_ATTR) b.varint(attr);
    if (flags & F_LC) b.varint(lu - lc);
    if (context !== null) writeContext(b, context, context.user_id === null ? NO_DICTIONARY : this.mutableUsers(), prev, lu);
    prev.ms = lu;
    prev.attr = attr;
    if (this.count === 0) this.firstMs = lu;
    this.lastMs = lu;
    this.count++;
  }

  /** Bytes this series holds in memory (body capacity and dictionary text), for the recorder's budget. */
  get memoryBytes(): number {
    return this.body.capacity + this.states.chars + this.attrs.chars + this.users.chars;
  }

  /** Takes points encoded elsewhere (a journal record being replayed) and brings `prev` up to date. */
  appendEncoded(bytes: Uint8Array, states: readonly string[], attrs: readonly string[], users: readonly string[]): void {
    for (const s of states) this.mutableStates().push(s);
    for (const s of attrs) this.attrs.push(s);
    for (const s of users) this.mutableUsers().push(s);
    const from = this.body.length;
    this.body.bytes(bytes);
    decodeBody(this.body.view(from), this, this.prev, (_s, _a, _lc, lu) => {
      if (this.count === 0) this.firstMs = lu;
      this.lastMs = lu;
      this.count++;
    });
  }

  /** Visits every point, oldest first. */
  forEach(visit: PointVisitor): void {
    decodeBody(this.body.view(), this, new Previous(), visit);
  }
}

interface Dictionaries {
  readonly states: { readonly items: readonly string[] };
  readonly attrs: { readonly items: readonly string[] };
  readonly users: { readonly items: readonly string[] };
}

function writeContext(b: ByteWriter, ctx: Context, users: Dictionary, prev: Previous, pointMs: number): void {
  // The flags byte first, its bits set once the fields after it are written (in readContext's order).
  const at = b.length;
  b.u8(0);
  let flags = 0;
  if (idParts(ctx, parts)) {
    flags |= C_ID_PARTS;
    b.zigzag(parts.ms - pointMs);
    b.zigzag(parts.counter - prev.counter);
    prev.counter = parts.counter;
    if (parts.tag === prev.tag) flags |= C_TAG_SAME;
    else {
      b.varint(parts.tag);
      prev.tag = parts.tag;
    }
  } else {
    flags |= C_ID_TEXT;
    b.string(ctx.id);
  }
  if (ctx.user_id !== null) {
    flags |= C_USER;
    b.varint(users.indexOf(ctx.user_id));
  }
  const parent = ctx.parent_id;
  if (parent !== null) {
    flags |= C_PARENT;
    if (!b.hex16(parent)) {
      flags |= C_PARENT_TEXT;
      b.string(parent);
    }
  }
  b.setU8(at, flags);
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex');
}

function readContext(r: ByteReader, users: readonly string[], prev: Previous, pointMs: number): Context {
  const flags = r.u8();
  let id: string;
  if (flags & C_ID_PARTS) {
    const ms = pointMs + r.zigzag();
    prev.counter += r.zigzag();
    if (!(flags & C_TAG_SAME)) prev.tag = r.varint();
    id = idFromParts(ms, prev.counter, prev.tag);
  } else id = flags & C_ID_TEXT ? r.string() : hex(r.bytes(16));
  const user = flags & C_USER ? (users[r.varint()] ?? null) : null;
  let parent: string | null = null;
  if (flags & C_PARENT) parent = flags & C_PARENT_TEXT ? r.string() : hex(r.bytes(16));
  return { id, parent_id: parent, user_id: user };
}

function decodeBody(bytes: Uint8Array, dicts: Dictionaries, prev: Previous, visit: PointVisitor): void {
  const r = new ByteReader(bytes);
  const states = dicts.states.items;
  const attrs = dicts.attrs.items;
  const users = dicts.users.items;
  let attrJson = prev.attr < 0 ? '{}' : (attrs[prev.attr] ?? '{}');
  while (!r.done) {
    const flags = r.u8();
    const lu = prev.ms + r.varint();
    const scale = (flags >> SCALE_SHIFT) & 7;
    let state: string;
    if (scale === TEXT_STATE) state = states[r.varint()] ?? '';
    else {
      const v = r.zigzag();
      prev.int = flags & F_ABS ? v : prev.int + v;
      prev.scale = scale;
      state = renderScaled(prev.int, scale);
    }
    if (flags & F_ATTR) {
      prev.attr = r.varint();
      attrJson = attrs[prev.attr] ?? '{}';
    }
    const lc = flags & F_LC ? lu - r.varint() : lu;
    const context = flags & F_CTX ? readContext(r, users, prev, lu) : null;
    prev.ms = lu;
    visit(state, attrJson, lc, lu, context);
  }
}

/**
 * A sealed chunk: the dictionaries and the body, standalone (the first point is absolute). Stored deflated.
 * Layout: version, count, first and last ms, the three dictionaries (count, then length-prefixed strings), body.
 */
export function encodeChunk(series: SeriesWriter): Buffer {
  const w = new ByteWriter(series.body.length + 64);
  w.varint(CHUNK_VERSION);
  w.varint(series.count);
  w.varint(series.firstMs);
  w.varint(series.lastMs);
  for (const dict of [series.states, series.attrs, series.users]) {
    w.varint(dict.size);
    for (const s of dict.items) w.string(s);
  }
  series.body.appendTo(w);
  return w.toBuffer();
}

export interface DecodedChunk extends Dictionaries {
  readonly count: number;
  readonly firstMs: number;
  readonly lastMs: number;
  readonly body: Uint8Array;
}

export function decodeChunk(bytes: Uint8Array): DecodedChunk {
  const r = new ByteReader(bytes);
  const version = r.varint();
  if (version !== 1 && version !== CHUNK_VERSION) throw new Error(`unknown chunk version ${version}`);
  const count = r.varint();
  const firstMs = r.varint();
  const lastMs = r.varint();
  const lists: string[][] = [];
  for (let d = 0; d < 3; d++) {
    const n = r.varint();
    const items: string[] = [];
    for (let i = 0; i < n; i++) items.push(textDecoder.decode(r.bytes(r.varint())));
    lists.push(items);
  }
  const body = bytes.subarray(r.pos);
  return {
    count,
    firstMs,
    lastMs,
    states: { items: lists[0] ?? [] },
    attrs: { items: lists[1] ?? [] },
    users: { items: lists[2] ?? [] },
    body,
  };
}

/** Visits a decoded chunk's points, oldest first. */
export function forEachInChunk(chunk: DecodedChunk, visit: PointVisitor): void {
  decodeBody(chunk.body, chunk, new Previous(), visit);
}
