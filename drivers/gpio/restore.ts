import type { JsonValue } from '../../src/core/json.js';

/** What the hub remembers of an entity from before the restart: its state string and attributes. */
export interface RememberedState {
  readonly state: string;
  readonly attributes?: Readonly<Record<string, JsonValue>>;
}

/**
 * The entity's last known state across restarts, or undefined when nothing is stored. The restore-state store
 * provides it (as `lastState` on the driver context); until then nothing is stored and outputs with
 * `restore: last` start at their configured `initial`.
 */
export type LastStateLookup = (entityId: string) => RememberedState | undefined;

export const NOTHING_STORED: LastStateLookup = () => undefined;

/** A remembered state that means on or off, else undefined (unavailable, unknown, or another domain's words). */
export function rememberedOn(remembered: RememberedState | undefined, onWord: string, offWord: string): boolean | undefined {
  if (remembered?.state === onWord) return true;
  if (remembered?.state === offWord) return false;
  return undefined;
}

/** A remembered cover position (0-100), else undefined. */
export function rememberedPosition(remembered: RememberedState | undefined): number | undefined {
  const p = remembered?.attributes?.current_position;
  return typeof p === 'number' && Number.isInteger(p) && p >= 0 && p <= 100 ? p : undefined;
}

/**
 * Spread into every GPIO output's platform. The driver applies `restore:` itself when it opens the line, so the
 * restore-state store must not also re-apply the stored state through the domain's services: that would switch
 * a relay configured `restore: off` back on. (The store calls a platform's `restoreState` instead of the domain.)
 */
export const RESTORES_ITSELF = { restoreState(): void {} } as const;
