import type { EdgeCallback, GpioBackend, GpioLine, Level, LineRequest } from './line.js';

/** One simulated wire: its level, how it was opened, and what was written to it. */
export class FakeWire {
  level: Level = 0;
  request: LineRequest | undefined;
  exported = false;
  /** Every level written by the driver, in order. */
  readonly writes: Level[] = [];
  /** When set, open/read/write on this wire throw it (an unplugged board, a dead line). */
  failure: Error | undefined;
  /** Reads by the driver so far (polls, reads after a debounce). */
  reads = 0;
  /** Times the line was driven to its safe level (on release or from an exit handler); not in `writes`. */
  safeWrites = 0;
  /** Times the driver tried to export this wire, failed attempts included. */
  opens = 0;
  private readonly callbacks: EdgeCallback[] = [];
  private readonly waiters: { done: () => boolean; resolve: () => void }[] = [];

  constructor(readonly sysfsNumber: number) {}

  /** Drives an input to `level`; an actual change fires an edge to the watchers, at once. */
  set(level: Level): void {
    if (level === this.level) return;
    this.level = level;
    if (!this.exported || !this.request?.edges) return;
    for (let i = 0; i < this.callbacks.length; i++) (this.callbacks[i] as EdgeCallback)(null, level);
  }

  /** Resolves once the driver has read this wire `count` times in all; rejects after `ms`. */
  waitForReads(count: number, ms = 3000): Promise<void> {
    return this.waitFor(() => this.reads >= count, `${count} reads (${this.reads} so far)`, ms);
  }

  /** Resolves once the driver has tried to export this wire `count` times in all; rejects after `ms`. */
  waitForOpens(count: number, ms = 3000): Promise<void> {
    return this.waitFor(() => this.opens >= count, `${count} export attempts (${this.opens} so far)`, ms);
  }

  private waitFor(done: () => boolean, what: string, ms: number): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter = { done, resolve: () => {} };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`gpio${this.sysfsNumber}: no ${what} within ${ms} ms`));
      }, ms);
      waiter.resolve = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push(waiter);
    });
  }

  /** @internal */
  count(what: 'reads' | 'opens'): void {
    this[what]++;
    for (const w of this.waiters.filter((x) => x.done())) {
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve();
    }
  }

  /** Fires an error to the watchers, as epoll would when the value file goes away. */
  fireError(err: Error): void {
    for (const cb of this.callbacks.slice()) cb(err, this.level);
  }

  /** @internal */
  addWatcher(cb: EdgeCallback): void {
    this.callbacks.push(cb);
  }

  /** @internal */
  release(): void {
    this.exported = false;
    this.callbacks.length = 0;
  }
}

/**
 * A GpioBackend in memory, for tests and the latency bench: wires keyed by sysfs number (so a test also
 * sees whether the chip base was applied), edges fired synchronously by `wire(n).set(level)`.
 */
export class FakeGpioBackend implements GpioBackend {
  readonly name = 'fake';
  private readonly wires = new Map<number, FakeWire>();
  /** When set, every open fails with it (no controller). */
  openFailure: Error | undefined;

  /** The wire with this sysfs number (created on first use). */
  wire(sysfsNumber: number): FakeWire {
    let w = this.wires.get(sysfsNumber);
    if (w === undefined) {
      w = new FakeWire(sysfsNumber);
      this.wires.set(sysfsNumber, w);
    }
    return w;
  }

  async open(request: LineRequest): Promise<GpioLine> {
    const w = this.wire(request.sysfsNumber);
    w.count('opens');
    if (this.openFailure !== undefined) throw this.openFailure;
    if (w.failure !== undefined) throw w.failure;
    if (w.exported) throw Object.assign(new Error(`gpio${request.sysfsNumber} is already exported`), { code: 'EBUSY' });
    w.request = request;
    w.exported = true;
    if (request.direction === 'out') w.level = request.initial ?? 0;
    return new FakeLine(w);
  }
}

class FakeLine implements GpioLine {
  private open = true;

  constructor(private readonly w: FakeWire) {}

  private check(): void {
    if (this.w.failure !== undefined) throw this.w.failure;
    if (!this.open) throw Object.assign(new Error(`gpio${this.w.sysfsNumber} is not exported`), { code: 'ENOENT' });
  }

  async read(): Promise<Level> {
    this.check();
    this.w.count('reads');
    return this.w.level;
  }

  async write(level: Level): Promise<void> {
    this.check();
    if (this.w.request?.direction !== 'out') throw Object.assign(new Error(`gpio${this.w.sysfsNumber} is an input`), { code: 'EPERM' });
    this.w.level = level;
    this.w.writes.push(level);
  }

  watch(callback: EdgeCallback): void {
    this.w.addWatcher(callback);
  }

  unexport(): void {
    if (!this.open) return;
    this.safeSync();
    this.open = false;
    this.w.release();
  }

  safeSync(): void {
    const safe = this.w.request?.safe;
    if (!this.open || this.w.request?.direction !== 'out' || safe === undefined || this.w.failure !== undefined) return;
    this.w.level = safe;
    this.w.safeWrites++;
  }
}
