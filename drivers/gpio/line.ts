/**
 * The boundary between the GPIO driver and the operating system: open one line, read, write, watch its
 * edges, unexport it. Levels are physical (1 = high); the driver applies invert_logic itself, so a fake
 * line in tests models the wire, not the configuration.
 */
export type Level = 0 | 1;

export interface LineRequest {
  /** The BCM line number (for messages). */
  readonly line: number;
  /** The number sysfs knows the line by: the header chip's base + line. */
  readonly sysfsNumber: number;
  readonly direction: 'in' | 'out';
  /** Outputs: the level the line is configured with, so a relay does not click on start. */
  readonly initial?: Level;
  /** Inputs: whether edges are reported (both rising and falling). */
  readonly edges?: boolean;
}

/** Called with the level after each edge, or with an error when the line can no longer be watched. */
export type EdgeCallback = (err: Error | null, level: Level) => void;

export interface GpioLine {
  read(): Promise<Level>;
  write(level: Level): Promise<void>;
  /** Inputs opened with `edges`: calls back on every edge until unexported. */
  watch(callback: EdgeCallback): void;
  /** Stops watching and gives the line back to the kernel. Never throws. */
  unexport(): void;
}

export interface GpioBackend {
  /** For logs: "onoff (sysfs)". */
  readonly name: string;
  open(request: LineRequest): Promise<GpioLine>;
}

/** Loads a backend; called again after a failure (a package installed later, a permission fixed). */
export type GpioBackendLoader = () => Promise<GpioBackend>;
