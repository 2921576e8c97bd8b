import type { Timers } from '../../src/util/timers.js';

/** Reads a file as text; the driver's is fs.readFile, tests wrap it to count or stall reads. */
export type ReadText = (path: string) => Promise<string>;

/**
 * Reads w1_slave files one at a time. Each read makes the kernel run a conversion (about 750 ms at 12 bits)
 * inside a libuv thread-pool thread; reading every sensor at once would tie up the whole pool (4 threads)
 * and stall the hub's other file and crypto work. One at a time, a 1-Wire bus costs at most one thread.
 * A read that takes longer than `timeoutMs` fails; while it is still stuck in the kernel, that file is not
 * read again, so a hung bus cannot pile up threads.
 */
export class BusReader {
  private tail: Promise<unknown> = Promise.resolve();
  /** Reads that have not returned yet (timed out or not), by path: at most one per sensor. */
  private readonly inFlight = new Set<string>();

  constructor(
    private readonly readText: ReadText,
    private readonly timeoutMs: number,
    private readonly timers: Timers,
  ) {}

  read(path: string): Promise<string> {
    const run = this.tail.then(() => this.readOne(path));
    this.tail = run.catch(() => {});
    return run;
  }

  private readOne(path: string): Promise<string> {
    if (this.inFlight.has(path)) {
      return Promise.reject(new Error(`the previous read of ${path} has not finished (the 1-Wire bus is hung)`));
    }
    this.inFlight.add(path);
    const read = this.readText(path).catch((err: unknown) => {
      throw describeReadError(err, path);
    });
    const done = () => this.inFlight.delete(path);
    read.then(done, done);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = this.timers.timeout(() => reject(new Error(`reading ${path} took longer than ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    return Promise.race([read, timeout]).finally(() => this.timers.clear(timer));
  }
}

function describeReadError(err: unknown, path: string): Error {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new Error(`${path} does not exist: the sensor is unplugged or not on the bus`);
  if (code === 'EIO' || code === 'ENXIO' || code === 'ENODEV')
    return new Error(`reading ${path} failed (${code}): the sensor did not answer`);
  return err instanceof Error ? err : new Error(String(err));
}
