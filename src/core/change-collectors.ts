import type { State } from './state.js';

const INITIAL_SLOTS = 16;

/**
 * The service calls collecting the states they change (a REST call answers with them), by context id. A call
 * adds itself and removes itself again within a few microseconds, thousands of times a second under load: in a
 * long-lived Map that churn made V8 rehash the Map's table into a new old-generation table every few calls
 * (about 145 bytes of old-space garbage per call, most of what a flood of REST calls left for the next full
 * collection). Slots in arrays that only grow, scanned in order, allocate nothing per call; a call is usually
 * alone, and the slots are bounded by the calls in flight at once.
 */
export class ChangeCollectors {
  private ids: (string | undefined)[] = new Array<string | undefined>(INITIAL_SLOTS).fill(undefined);
  private lists: (State[] | undefined)[] = new Array<State[] | undefined>(INITIAL_SLOTS).fill(undefined);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Collects into `list` the states changed under `id`; false when a call under that id already collects. */
  add(id: string, list: State[]): boolean {
    if (this.indexOf(id) >= 0) return false;
    if (this.count === this.ids.length) {
      this.ids = this.ids.concat(new Array<string | undefined>(this.ids.length).fill(undefined));
      this.lists = this.lists.concat(new Array<State[] | undefined>(this.lists.length).fill(undefined));
    }
    this.ids[this.count] = id;
    this.lists[this.count] = list;
    this.count++;
    return true;
  }

  /** Stops collecting into `list` (only if it is the one collecting under `id`). */
  remove(id: string, list: State[]): void {
    const i = this.indexOf(id);
    if (i < 0 || this.lists[i] !== list) return;
    const last = --this.count;
    this.ids[i] = this.ids[last];
    this.lists[i] = this.lists[last];
    this.ids[last] = undefined;
    this.lists[last] = undefined;
  }

  /** A state changed under `id`: the call collecting under it, if any, gets it. */
  collect(id: string, state: State): void {
    const i = this.indexOf(id);
    if (i >= 0) this.lists[i]?.push(state);
  }

  private indexOf(id: string): number {
    for (let i = 0; i < this.count; i++) if (this.ids[i] === id) return i;
    return -1;
  }
}
