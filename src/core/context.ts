import { randomFillSync } from 'node:crypto';
import type { Micros } from './clock.js';

/** Who or what caused a change; carried by every state write and event (Home Assistant's Context). */
export interface Context {
  readonly id: string;
  readonly parent_id: string | null;
  readonly user_id: string | null;
}

// Random bytes come from a pooled buffer: one getrandom() call per 409 ids instead of one per id.
const POOL_SIZE = 4096;
const pool = Buffer.allocUnsafe(POOL_SIZE);
let poolOffset = POOL_SIZE;
const RANDOM_BYTES = 10;
let lastMs = Number.NaN;
let lastMsHex = '';

/**
 * A 32-character lower-case hex id: 48 bits of milliseconds then 80 random bits, so ids sort by creation
 * time the way Home Assistant's ULIDs do, while keeping the hex form the interface asks for.
 */
export function newContextId(nowMicros: Micros): string {
  if (poolOffset + RANDOM_BYTES > POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const ms = Math.floor(nowMicros / 1000);
  // Ids come in bursts within one millisecond: its hex digits are formatted once.
  if (ms !== lastMs) {
    lastMs = ms;
    lastMsHex = ms.toString(16).padStart(12, '0').slice(-12);
  }
  const time = lastMsHex;
  const rand = pool.toString('hex', poolOffset, poolOffset + RANDOM_BYTES);
  lastRandOffset = poolOffset;
  poolOffset += RANDOM_BYTES;
  lastMadeId = time + rand;
  return lastMadeId;
}

/** The last id newContextId made: lower-case hex, so its JSON needs no escaping (contextJson). */
let lastMadeId = '';
let lastRandOffset = 0;
/** The 16 bytes behind lastMadeId (madeIdBytes), filled on first ask. */
const lastMadeBytes = new Uint8Array(16);
let lastMadeBytesOf = '';

/**
 * The 16 bytes a context id stands for, when it is the last one newContextId made (a call's, as the recorder
 * stores it right after): taken from the clock and the random pool instead of parsed back from its hex.
 * Undefined for any other id.
 */
export function madeIdBytes(id: string): Uint8Array | undefined {
  if (id !== lastMadeId || !(lastMs >= 0)) return undefined;
  if (lastMadeBytesOf !== id) {
    // The low 48 bits of the millisecond, big-endian (its 12 hex digits), then the random bytes as drawn: the
    // pool is refilled only by the next newContextId, which makes another id the last.
    let t = lastMs;
    for (let i = 5; i >= 0; i--) {
      lastMadeBytes[i] = t % 256;
      t = Math.floor(t / 256);
    }
    for (let i = 0; i < RANDOM_BYTES; i++) lastMadeBytes[6 + i] = pool[lastRandOffset + i] as number;
    lastMadeBytesOf = id;
  }
  return lastMadeBytes;
}

export function createContext(nowMicros: Micros, userId: string | null = null, parentId: string | null = null): Context {
  return { id: newContextId(nowMicros), parent_id: parentId, user_id: userId };
}

const CONTEXT_ID = /^[0-9a-f]{32}$/;
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
      ? `{"id":${id === lastMadeId ? `"${id}"` : JSON.stringify(id)},"parent_id":${parent_id === null ? 'null' : JSON.stringify(parent_id)},"user_id":${user_id === null ? 'null' : userIdJson(user_id)}}`
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
