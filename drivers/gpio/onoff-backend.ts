import type { EdgeCallback, GpioBackend, GpioLine, Level, LineRequest } from './line.js';

/** The part of onoff's Gpio class the backend uses (onoff 6.0.3, onoff.d.ts). */
interface OnoffGpio {
  read(): Promise<Level>;
  write(value: Level): Promise<void>;
  writeSync(value: Level): void;
  watch(callback: EdgeCallback): void;
  unwatchAll(): void;
  unexport(): void;
}
interface OnoffGpioClass {
  new (
    gpio: number,
    direction: 'in' | 'out' | 'high' | 'low',
    edge?: 'none' | 'both',
    options?: { activeLow?: boolean; reconfigureDirection?: boolean },
  ): OnoffGpio;
}

/** A variable, so TypeScript does not need onoff's types when the optional package is absent. */
const ONOFF = 'onoff';

/** Raised when onoff cannot be loaded; the message says how to get it. */
export class OnoffMissingError extends Error {
  override readonly name = 'OnoffMissingError';
}

async function importGpioClass(): Promise<OnoffGpioClass> {
  let mod: { Gpio?: unknown; default?: { Gpio?: unknown } };
  try {
    mod = (await import(ONOFF)) as typeof mod;
  } catch (err) {
    throw new OnoffMissingError(
      `the onoff package is not installed or did not build (${(err as Error).message.split('\n')[0]}). It is an optional ` +
        'dependency of hearth: install it with `npm install onoff@6.0.3` (its epoll dependency compiles with node-gyp, so ' +
        'python3, make and g++ are needed); GPIO entities stay unavailable until then',
    );
  }
  // onoff is CommonJS: ESM sees `Gpio` as a named export or on the default export, depending on the loader.
  const gpio = mod.Gpio ?? mod.default?.Gpio;
  if (typeof gpio !== 'function') throw new OnoffMissingError('the onoff package does not export Gpio (expected onoff 6.x)');
  return gpio as OnoffGpioClass;
}

class OnoffLine implements GpioLine {
  private released = false;

  constructor(
    private readonly gpio: OnoffGpio,
    /** Outputs: the level that de-energises the load. */
    private readonly safe: Level | undefined,
  ) {}

  read(): Promise<Level> {
    return this.gpio.read();
  }

  write(level: Level): Promise<void> {
    return this.gpio.write(level);
  }

  watch(callback: EdgeCallback): void {
    this.gpio.watch(callback);
  }

  unexport(): void {
    if (this.released) return;
    this.safeSync();
    this.released = true;
    try {
      this.gpio.unwatchAll();
      this.gpio.unexport();
    } catch {
      // Already gone (unexported by someone else, or the controller vanished): nothing to give back.
    }
  }

  /** A sysfs write is a plain file write, so it can be done synchronously (from an exit handler too). */
  safeSync(): void {
    if (this.released || this.safe === undefined) return;
    try {
      this.gpio.writeSync(this.safe);
    } catch {
      // The line is gone: nothing more can be done from here.
    }
  }
}

/**
 * GPIO through onoff (the sysfs interface with epoll for edges), loaded on first use: the fallback for kernels
 * without the character device, or where python3 is missing. onoff always works
 * under /sys/class/gpio and takes sysfs numbers, which the driver computes from the header chip's base.
 * Inversion is done by the driver, so `activeLow` is forced off here (it survives in sysfs from other tools).
 */
export async function loadOnoffBackend(): Promise<GpioBackend> {
  const Gpio = await importGpioClass();
  return {
    name: 'onoff (sysfs)',
    async open(request: LineRequest): Promise<GpioLine> {
      const direction = request.direction === 'in' ? 'in' : request.initial === 1 ? 'high' : 'low';
      const edge = request.direction === 'in' && request.edges ? 'both' : 'none';
      if (request.bias !== undefined) {
        throw new Error(
          `cannot set bias ${request.bias} on GPIO${request.line} through sysfs: use the character device backend ` +
            `(gpio.backend: chardev), or set the pull in /boot/firmware/config.txt (gpio=${request.line}=ip,pu) and remove bias`,
        );
      }
      try {
        const safe = request.direction === 'out' ? request.safe : undefined;
        return new OnoffLine(new Gpio(request.sysfsNumber, direction, edge, { activeLow: false }), safe);
      } catch (err) {
        throw new Error(`cannot export GPIO${request.line} (sysfs gpio${request.sysfsNumber}): ${describeExportError(err)}`);
      }
    },
  };
}

function describeExportError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  const message = err instanceof Error ? err.message : String(err);
  if (code === 'EINVAL') return `${message} (the kernel does not know this number: is the chip base right?)`;
  if (code === 'EBUSY') return `${message} (the line is in use by another driver or program)`;
  if (code === 'EACCES') return `${message} (the hub's user needs to be in the gpio group)`;
  return message;
}
