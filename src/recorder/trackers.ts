/**
 * What statistics know of each tracked sensor during the open 5-minute period, as rows of one Float64Array:
 * eight numbers a sensor, 64 bytes. An object with eight number fields costs about 230 bytes, because V8 keeps
 * every non-integer field (NaN and the infinities included) in a box of its own; with a thousand sensors
 * that is a sixth of a megabyte for nothing. Trackers are only ever added: a sensor that goes away keeps its
 * row until the hub restarts, as its statistic's metadata does.
 */

/** The value in force, NaN while unavailable. */
export const VALUE = 0;
/** When the value took effect (seconds), or the period start if earlier. */
export const SINCE = 1;
/** Value × seconds over the period so far, and the seconds it covers. */
export const INTEGRAL = 2;
export const COVERED = 3;
export const MIN = 4;
export const MAX = 5;
/** For totals: the last value and the running sum of increases. */
export const STATE = 6;
export const SUM = 7;
const FIELDS = 8;

export class TrackerTable {
  private numbers = new Float64Array(FIELDS * 16);
  private metas = new Int32Array(16);
  /** For totals: the last_reset attribute in force. */
  private readonly resets: (string | null)[] = [];
  private readonly index = new Map<string, number>();
  private count = 0;

  /** The tracker of an entity, or undefined. */
  of(entityId: string): number | undefined {
    return this.index.get(entityId);
  }

  /** A new tracker for `meta`, starting at `since`: no value, no extremes, no total yet. */
  add(entityId: string, meta: number, since: number): number {
    const t = this.count;
    if (t === this.metas.length) this.grow();
    this.count++;
    this.metas[t] = meta;
    this.resets.push(null);
    const n = this.numbers;
    const b = t * FIELDS;
    n[b + VALUE] = Number.NaN;
    n[b + SINCE] = since;
    n[b + INTEGRAL] = 0;
    n[b + COVERED] = 0;
    n[b + MIN] = Number.POSITIVE_INFINITY;
    n[b + MAX] = Number.NEGATIVE_INFINITY;
    n[b + STATE] = Number.NaN;
    n[b + SUM] = 0;
    this.index.set(entityId, t);
    return t;
  }

  get size(): number {
    return this.count;
  }

  meta(t: number): number {
    return this.metas[t] as number;
  }

  get(t: number, field: number): number {
    return this.numbers[t * FIELDS + field] as number;
  }

  set(t: number, field: number, value: number): void {
    this.numbers[t * FIELDS + field] = value;
  }

  lastReset(t: number): string | null {
    return this.resets[t] ?? null;
  }

  setLastReset(t: number, value: string | null): void {
    this.resets[t] = value;
  }

  private grow(): void {
    const numbers = new Float64Array(this.numbers.length * 2);
    numbers.set(this.numbers);
    this.numbers = numbers;
    const metas = new Int32Array(this.metas.length * 2);
    metas.set(this.metas);
    this.metas = metas;
  }
}
