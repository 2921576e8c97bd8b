import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Logger } from '../../src/core/log.js';
import { packageRoot } from '../../src/util/paths.js';
import type { BackendChip, EdgeCallback, GpioBackend, GpioBackendLoader, GpioLine, Level, LineRequest } from './line.js';

/** The helper that holds the lines: Python's standard library only, so nothing compiles on the Pi. */
export const GPIO_HELPER = join(packageRoot(), 'drivers', 'gpio', 'gpio-helper.py');

export interface ChardevBackendOptions {
  /** The Python 3 interpreter (default `python3` on PATH). */
  readonly python?: string;
  /** The helper's environment (tests put the simulated kernel in here); the hub's own by default. */
  readonly env?: NodeJS.ProcessEnv;
  /** Where the helper's complaints (stderr) go. */
  readonly log?: Logger;
}

/** An answer or an event from the helper, one JSON object per line. */
interface HelperMessage {
  readonly id?: number;
  readonly ok?: boolean;
  readonly error?: string;
  readonly code?: string;
  readonly event?: 'edge' | 'error';
  readonly handle?: number;
  readonly value?: number;
  readonly chips?: BackendChip[];
  /** Chips the helper could not open (permissions), with the errno name. */
  readonly unreadable?: { path: string; code: string; error: string }[];
}

/** Raised when the helper cannot run or refuses a request; `code` is the errno name (EBUSY, EACCES). */
export class GpioHelperError extends Error {
  override readonly name = 'GpioHelperError';
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/**
 * One gpio-helper.py child: requests with ids, answers matched back, edges dispatched by line handle. It is
 * in its own process group, so a Ctrl-C in a terminal reaches the hub, which stops in order; under systemd it
 * is in the unit's cgroup. It exits, driving every output to its safe level, when its stdin closes.
 */
class GpioHelper {
  exited = false;
  private readonly child: ChildProcess;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (m: HelperMessage) => void; reject: (e: Error) => void }>();
  private readonly watchers = new Map<number, EdgeCallback>();
  private exitReason: GpioHelperError | undefined;

  constructor(private readonly options: ChardevBackendOptions) {
    const python = options.python ?? 'python3';
    this.child = spawn(python, [GPIO_HELPER], { stdio: ['pipe', 'pipe', 'pipe'], detached: true, env: options.env ?? process.env });
    this.child.on('error', (err: NodeJS.ErrnoException) => {
      const text =
        err.code === 'ENOENT'
          ? `${python} was not found: the character-device GPIO backend runs drivers/gpio/gpio-helper.py with it ` +
            '(install it with `sudo apt-get install python3-minimal`, or set gpio.backend: sysfs)'
          : `cannot start the GPIO helper with ${python}: ${err.message}`;
      this.gone(new GpioHelperError(text, err.code ?? 'EIO'));
    });
    // A write to a helper that just died fails with EPIPE; the exit handler reports it.
    this.child.stdin?.on('error', () => {});
    this.child.on('exit', (code, signal) => {
      this.gone(new GpioHelperError(`the GPIO helper exited (${signal ?? `code ${code}`})`, 'EIO'));
    });
    if (this.child.stdout) createInterface({ input: this.child.stdout }).on('line', (line) => this.received(line));
    if (this.child.stderr) {
      createInterface({ input: this.child.stderr }).on('line', (line) => options.log?.warn({ helper: line }, 'GPIO helper'));
    }
  }

  call(op: string, fields: Record<string, string | number | boolean | null | undefined>): Promise<HelperMessage> {
    if (this.exitReason !== undefined) return Promise.reject(this.exitReason);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.stdin?.write(`${JSON.stringify({ ...fields, id, op })}\n`);
    });
  }

  watch(handle: number, callback: EdgeCallback): void {
    this.watchers.set(handle, callback);
  }

  unwatch(handle: number): void {
    this.watchers.delete(handle);
  }

  /** Synchronous: SIGTERM makes the helper drive every output safe, release it and exit. */
  terminate(): void {
    if (!this.exited) this.child.kill('SIGTERM');
  }

  /** Closing stdin is the helper's cue to drive outputs safe, release everything and exit. */
  close(): void {
    this.child.stdin?.end();
  }

  private received(line: string): void {
    let msg: HelperMessage;
    try {
      msg = JSON.parse(line) as HelperMessage;
    } catch {
      this.options.log?.warn({ helper: line }, 'GPIO helper wrote something that is not JSON');
      return;
    }
    if (msg.event !== undefined) {
      const cb = msg.handle === undefined ? undefined : this.watchers.get(msg.handle);
      if (msg.event === 'edge') cb?.(null, msg.value === 1 ? 1 : 0);
      else cb?.(new GpioHelperError(`watching the line failed: ${msg.error}`, 'EIO'), 0);
      return;
    }
    const waiter = msg.id === undefined ? undefined : this.pending.get(msg.id);
    if (waiter === undefined || msg.id === undefined) return;
    this.pending.delete(msg.id);
    if (msg.ok === true) waiter.resolve(msg);
    else waiter.reject(new GpioHelperError(msg.error ?? 'unknown error', msg.code ?? 'EIO'));
  }

  private gone(reason: GpioHelperError): void {
    if (this.exitReason !== undefined) return;
    this.exited = true;
    this.exitReason = reason;
    for (const w of this.pending.values()) w.reject(reason);
    this.pending.clear();
    for (const cb of [...this.watchers.values()]) cb(reason, 0);
    this.watchers.clear();
  }
}

class ChardevLine implements GpioLine {
  private released = false;

  constructor(
    private readonly helper: GpioHelper,
    private readonly handle: number,
  ) {}

  async read(): Promise<Level> {
    const answer = await this.helper.call('get', { handle: this.handle });
    return answer.value === 1 ? 1 : 0;
  }

  async write(level: Level): Promise<void> {
    await this.helper.call('set', { handle: this.handle, value: level });
  }

  watch(callback: EdgeCallback): void {
    this.helper.watch(this.handle, callback);
  }

  unexport(): void {
    if (this.released) return;
    this.released = true;
    this.helper.unwatch(this.handle);
    // The helper drives an output to its safe level before it releases the line.
    this.helper.call('release', { handle: this.handle }).catch(() => {});
  }

  safeSync(): void {
    this.helper.terminate();
  }
}

function describe(err: unknown): string {
  const code = err instanceof GpioHelperError ? err.code : undefined;
  const message = err instanceof Error ? err.message : String(err);
  if (code === 'EBUSY') return `${code}: ${message} (another program holds the line: see \`gpioinfo\`)`;
  if (code === 'EACCES' || code === 'EPERM') return `${code}: ${message} (the hub's user needs to be in the gpio group)`;
  if (code === 'ENOTTY') return `${code}: ${message} (a kernel older than 5.10 has no GPIO uAPI v2: set gpio.backend: sysfs)`;
  return code === undefined || message.startsWith(code) ? message : `${code}: ${message}`;
}

/**
 * GPIO through the kernel's character device (/dev/gpiochipN), by way of one gpio-helper.py child per driver.
 * Lines carry the consumer name "hearth", inputs can have a pull resistor, and outputs are driven to their
 * safe level when released, when the hub stops, and when it dies (the helper sees its stdin close).
 */
export class ChardevBackend implements GpioBackend {
  readonly name = 'character device (gpio-helper.py)';
  private helper: GpioHelper | undefined;
  private closed = false;

  constructor(private readonly options: ChardevBackendOptions = {}) {}

  /** The running helper, or a new one after the last exited; none once the driver closed the backend. */
  private live(): GpioHelper {
    if (this.closed) throw new GpioHelperError('the GPIO backend is closed (the driver stopped)', 'ESHUTDOWN');
    if (this.helper === undefined || this.helper.exited) this.helper = new GpioHelper(this.options);
    return this.helper;
  }

  async listChips(): Promise<BackendChip[]> {
    const answer = await this.live().call('chips', {});
    const chips = answer.chips ?? [];
    const unreadable = answer.unreadable ?? [];
    if (chips.length === 0 && unreadable.length > 0) {
      const first = unreadable[0];
      throw new GpioHelperError(
        `cannot open ${first?.path}: ${describe(new GpioHelperError(first?.error ?? '', first?.code ?? 'EIO'))}`,
        first?.code ?? 'EIO',
      );
    }
    return chips;
  }

  async open(request: LineRequest): Promise<GpioLine> {
    const chip = request.chipPath;
    if (chip === undefined) throw new Error(`cannot request GPIO${request.line}: no character device chip was resolved`);
    const helper = this.live();
    try {
      const answer = await helper.call('request', {
        chip,
        line: request.line,
        direction: request.direction,
        value: request.initial,
        safe: request.safe,
        bias: request.bias,
        edges: request.edges === true,
      });
      if (answer.handle === undefined) throw new Error('the helper gave no line handle');
      return new ChardevLine(helper, answer.handle);
    } catch (err) {
      throw new Error(`cannot request GPIO${request.line} on ${chip}: ${describe(err)}`);
    }
  }

  close(): void {
    this.closed = true;
    this.helper?.close();
    this.helper = undefined;
  }
}

export function chardevBackendLoader(options: ChardevBackendOptions = {}): GpioBackendLoader {
  return async () => new ChardevBackend(options);
}
