import { randomBytes } from 'node:crypto';
import type { Micros } from './clock.js';

/** Who or what caused a change; carried by every state write and event (Home Assistant's Context). */
export interface Context {
  readonly id: string;
  readonly parent_id: string | null;
  readonly user_id: string | null;
}

/**
 * 48 bits drawn once per process, the last part of every id made here; the counter starts at a random point.
 * Together they keep ids of two processes apart; within a process the counter does.
 */
const seed = randomBytes(10);
const TAG = seed.readUIntBE(0, 6);
const TAG_HEX = seed.toString('hex', 0, 6);
let counter = seed.readUInt32BE(6);
let lastMs = Number.NaN;
/** The id's first 18 hex digits (the millisecond, the counter but its low byte) while they stay the same. */
let prefix = '';
let prefixHigh = -1;
/** The last 14 hex digits by the counter's low byte: each id is one concatenation (a 32-byte rope). */
const SUFFIX: readonly string[] = Array.from({ length: 256 }, (_, low) => low.toString(16).padStart(2, '0') + TAG_HEX);

/**
 * A 32-character lower-case hex id: 48 bits of milliseconds, a 32-bit counter, then the process's 48 random
 * bits. Ids sort by creation time (within a millisecond, by creation order) the way Home Assistant's ULIDs
 * do, in the hex form the interface asks for. The parts are what makes them cheap to record: the recorder
 * stores a context as the differences of its parts from the point's time and from the previous context,
 * a few bytes instead of sixteen random ones (src/recorder/series.ts). Nothing takes a context id for a
 * secret: every client of the hub sees them, as Home Assistant's clients see its own.
 */
export function newContextId(nowMicros: Micros): string {
  const ms = Math.floor(nowMicros / 1000);
  counter = (counter + 1) >>> 0;
  const c = counter;
  lastMadeContext = undefined;
  // Ids come in bursts within one millisecond: the digits before the counter's low byte are formatted once.
  const high = c >>> 8;
  if (ms !== lastMs || high !== prefixHigh) {
    lastMs = ms;
    prefixHigh = high;
    prefix = ms.toString(16).padStart(12, '0').slice(-12) + high.toString(16).padStart(6, '0');
  }
  return prefix + (SUFFIX[c & 0xff] as string);
}

/**
 * The context createContext made last, while its id is still the last one made: its id is lower-case hex
 * (contextJson writes it without escaping) and its parts are at hand (idParts). Known by the object: two
 * ids of the same length would compare by their text.
 */
let lastMadeContext: Context | undefined;

/** A context id read as the three parts newContextId makes it of. */
export interface IdParts {
  ms: number;
  counter: number;
  tag: number;
}

const CONTEXT_ID = /^[0-9a-f]{32}$/;

/**
 * Fills `out` with the parts of a context's id: at once for the context made last (a call's, as the recorder
 * stores it right after), parsed for any other id of 32 lower-case hex characters (made here or by Home
 * Assistant: any such id has the three parts). False for an id of another form.
 */
export function idParts(ctx: Context, out: IdParts): boolean {
  // (A millisecond outside the id's 48 bits, a clock set before 1970, is read back from the id's text.)
  if (ctx === lastMadeContext && lastMs >= 0 && lastMs < 2 ** 48) {
    out.ms = lastMs;
    out.counter = counter;
    out.tag = TAG;
    return true;
  }
  const id = ctx.id;
  if (!CONTEXT_ID.test(id)) return false;
  out.ms = Number.parseInt(id.slice(0, 12), 16);
  out.counter = Number.parseInt(id.slice(12, 20), 16);
  out.tag = Number.parseInt(id.slice(20), 16);
  return true;
}

/** The id of these parts (idParts' inverse). */
export function idFromParts(ms: number, count: number, tag: number): string {
  return ms.toString(16).padStart(12, '0') + count.toString(16).padStart(8, '0') + tag.toString(16).padStart(12, '0');
}

export function createContext(nowMicros: Micros, userId: string | null = null, parentId: string | null = null): Context {
  const ctx = { id: newContextId(nowMicros), parent_id: parentId, user_id: userId };
  lastMadeContext = ctx;
  return ctx;
}

export function isContextId(value: unknown): value is string {
  return typeof value === 'string' && CONTEXT_ID.test(value);
}

/**
 * The JSON of a context. The last one is remembered: a state change serializes its context twice in a row
 * (in the new state and in its event), and a service call's context is shared by every state it changes.
 * A WeakMap per context cost more than building the text again (an ephemeron entry per state change).
 */
let lastContext: Context | undefined;
let lastContextJson = '';

export function contextJson(ctx: Context): string {
  if (ctx === lastContext) return lastContextJson;
  const { id, parent_id, user_id } = ctx;
  // Built from its parts rather than through an object; anything but strings and null goes the general
  // way, so the text is exactly JSON.stringify's. The usual context is the one just made, by a user seen before.
  const json =
    typeof id === 'string' && (parent_id === null || typeof parent_id === 'string') && (user_id === null || typeof user_id === 'string')
      ? `{"id":${ctx === lastMadeContext ? `"${id}"` : JSON.stringify(id)},"parent_id":${parent_id === null ? 'null' : JSON.stringify(parent_id)},"user_id":${user_id === null ? 'null' : userIdJson(user_id)}}`
      : JSON.stringify({ id, parent_id, user_id });
  lastContext = ctx;
  lastContextJson = json;
  return json;
}

let lastUserId: string | undefined;
let lastUserIdJson = '';

function userIdJson(userId: string): string {
  if (userId !== lastUserId) {
    lastUserId = userId;
    lastUserIdJson = JSON.stringify(userId);
  }
  return lastUserIdJson;
}
