/**
 * The boundary between the GPIO driver and the operating system: open one line, read, write, watch its
 * edges, give it back. Levels are physical (1 = high); the driver applies invert_logic itself, so a fake
 * line in tests models the wire, not the configuration.
 */
export type Level = 0 | 1;

/** An input's pull resistor, set through the character device (sysfs cannot). */
export type Bias = 'pull_up' | 'pull_down' | 'disabled';

export interface LineRequest {
  /** The BCM line number: the line's offset on the header chip. */
  readonly line: number;
  /** The number sysfs knows the line by: the header chip's base + line. */
  readonly sysfsNumber: number;
  /** The character device of the header chip (`/dev/gpiochip0`), when the backend found it. */
  readonly chipPath?: string;
  readonly direction: 'in' | 'out';
  /** Outputs: the level the line is configured with, so a relay does not click on start. */
  readonly initial?: Level;
  /** Outputs: the level that de-energises the load, driven before the line is given back or the hub goes away. */
  readonly safe?: Level;
  /** Inputs: whether edges are reported (both rising and falling). */
  readonly edges?: boolean;
  /** Inputs: the pull resistor; unset leaves it as the firmware configured it. */
  readonly bias?: Bias;
}

/** Called with the level after each edge, or with an error when the line can no longer be watched. */
export type EdgeCallback = (err: Error | null, level: Level) => void;

export interface GpioLine {
  read(): Promise<Level>;
  write(level: Level): Promise<void>;
  /** Inputs opened with `edges`: calls back on every edge until unexported. */
  watch(callback: EdgeCallback): void;
  /** Drives an output to its safe level, then stops watching and gives the line back. Never throws. */
  unexport(): void;
  /**
   * The process is going away (exit, uncaught error): drive an output to its safe level now, synchronously,
   * as far as the backend can. Never throws.
   */
  safeSync(): void;
}

/** A controller as a backend sees it; the driver picks the header one by label (see chip.ts). */
export interface BackendChip {
  /** `gpiochip0`. */
  readonly name: string;
  /** `/dev/gpiochip0`. */
  readonly path: string;
  readonly label: string;
  readonly lines: number;
}

export interface GpioBackend {
  /** For logs: "onoff (sysfs)". */
  readonly name: string;
  open(request: LineRequest): Promise<GpioLine>;
  /** Backends that reach lines by chip and offset list the chips themselves; sysfs ones leave it out. */
  listChips?(): Promise<BackendChip[]>;
  /** Gives everything back (the driver stopped). Never throws. */
  close?(): void;
}

/** Loads a backend; called again after a failure (a package installed later, a permission fixed). */
export type GpioBackendLoader = () => Promise<GpioBackend>;
