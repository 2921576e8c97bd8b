/**
 * Timeouts owned by one trigger attachment or run, cleared together, so nothing fires after its owner
 * stopped. A callback that throws is reported, never allowed to escape into the event loop.
 */
export class TimerSet {
  private readonly active = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(private readonly onError: (err: unknown) => void) {}

  after(ms: number, fn: () => void): NodeJS.Timeout | undefined {
    if (this.closed) return undefined;
    const t = setTimeout(() => {
      this.active.delete(t);
      try {
        fn();
      } catch (err) {
        this.onError(err);
      }
    }, ms);
    this.active.add(t);
    return t;
  }

  cancel(t: NodeJS.Timeout | undefined): void {
    if (t === undefined) return;
    clearTimeout(t);
    this.active.delete(t);
  }

  /** Clears every timer; later calls to after() do nothing. */
  close(): void {
    this.closed = true;
    for (const t of this.active) clearTimeout(t);
    this.active.clear();
  }
}
