/**
 * Timers owned by one driver or extension, cleared together on stop so nothing fires after it. A
 * callback that throws is reported, never allowed to escape into the event loop.
 */
export class Timers {
  private readonly active = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(private readonly onError: (err: unknown) => void) {}

  timeout(fn: () => void, ms: number): NodeJS.Timeout | undefined {
    if (this.stopped) return undefined;
    const t = setTimeout(() => {
      this.active.delete(t);
      this.run(fn);
    }, ms);
    this.active.add(t);
    return t;
  }

  interval(fn: () => void, ms: number): NodeJS.Timeout | undefined {
    if (this.stopped) return undefined;
    const t = setInterval(() => this.run(fn), ms);
    this.active.add(t);
    return t;
  }

  clear(t: NodeJS.Timeout | undefined): void {
    if (t === undefined) return;
    clearTimeout(t);
    this.active.delete(t);
  }

  /** Clears every timer; later calls to timeout/interval do nothing. */
  stopAll(): void {
    this.stopped = true;
    for (const t of this.active) clearTimeout(t);
    this.active.clear();
  }

  private run(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.onError(err);
    }
  }
}
