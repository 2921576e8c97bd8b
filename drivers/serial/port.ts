/**
 * The part of a serialport stream the driver uses. serialport's SerialPort and SerialPortMock both
 * satisfy it, so tests run the real stream code over the mock binding.
 */
export interface SerialStream {
  readonly isOpen: boolean;
  open(callback: (err: Error | null) => void): void;
  close(callback?: (err: Error | null) => void): void;
  on(event: 'data' | 'close' | 'error', listener: (...args: unknown[]) => void): unknown;
}

export interface SerialStreamOptions {
  readonly path: string;
  readonly baudRate: number;
}

/** Creates an unopened stream for a port. */
export type SerialStreamFactory = (options: SerialStreamOptions) => Promise<SerialStream>;

interface SerialportModule {
  SerialPort: new (options: SerialStreamOptions & { autoOpen: false }) => SerialStream;
}

let loading: Promise<SerialportModule> | undefined;

/** serialport (and its native binding) is loaded on first use, so a hub without serial devices starts without it. */
async function loadSerialport(): Promise<SerialportModule> {
  loading ??= import('serialport').then(
    (m) => m as unknown as SerialportModule,
    (err: unknown) => {
      loading = undefined;
      const reason = err instanceof Error ? err.message : String(err);
      throw Object.assign(new Error(`the serialport package could not be loaded (${reason})`), { code: 'ENOPKG' });
    },
  );
  return loading;
}

export const systemSerialFactory: SerialStreamFactory = async (options) => {
  const { SerialPort } = await loadSerialport();
  return new SerialPort({ path: options.path, baudRate: options.baudRate, autoOpen: false });
};
