/**
 * The few I²C transfers the chip drivers use. i2c-bus's PromisifiedBus satisfies it as it is; tests plug
 * in a simulated bus.
 */
export interface I2cBus {
  readByte(address: number, command: number): Promise<number>;
  writeByte(address: number, command: number, byte: number): Promise<void>;
  /** SMBus "read I²C block data": write `command`, repeated start, read `length` (at most 32) bytes. */
  readI2cBlock(address: number, command: number, length: number, buffer: Buffer): Promise<{ bytesRead: number; buffer: Buffer }>;
  /** Plain read of `length` bytes (no register pointer written first). */
  i2cRead(address: number, length: number, buffer: Buffer): Promise<{ bytesRead: number; buffer: Buffer }>;
  /** Plain write of `length` bytes. */
  i2cWrite(address: number, length: number, buffer: Buffer): Promise<{ bytesWritten: number; buffer: Buffer }>;
  close(): Promise<void>;
}

/** Opens bus N (/dev/i2c-N). */
export type I2cBusOpener = (busNumber: number) => Promise<I2cBus>;

interface I2cBusModule {
  openPromisified(busNumber: number): Promise<I2cBus>;
}

let loading: Promise<I2cBusModule> | undefined;

/** i2c-bus is an optional native package: loaded on first use, and a clear error when it is missing. */
async function loadI2cBus(): Promise<I2cBusModule> {
  loading ??= import('i2c-bus').then(
    (m) => m as unknown as I2cBusModule,
    (err: unknown) => {
      loading = undefined;
      const reason = err instanceof Error ? err.message : String(err);
      throw Object.assign(new Error(`the i2c-bus package is not available (${reason}); install it with npm install i2c-bus`), {
        code: 'ENOPKG',
      });
    },
  );
  return loading;
}

/**
 * The real bus through i2c-bus. Opening never touches the device file (i2c-bus opens /dev/i2c-N per
 * transfer), so a missing bus only shows when the first transfer fails with ENOENT.
 */
export const systemBusOpener: I2cBusOpener = async (busNumber) => {
  const mod = await loadI2cBus();
  return mod.openPromisified(busNumber);
};

/** The errno name of a failed transfer (EREMOTEIO, ENOENT, ETIMEDOUT ...), if it has one. */
export function errorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  const errno = (err as { errno?: unknown }).errno;
  // Nan::ErrnoException may carry only the number; 121 is EREMOTEIO (a NACK) on Linux.
  if (errno === 121 || errno === -121) return 'EREMOTEIO';
  return undefined;
}

/** `0x76` */
export function hex(address: number): string {
  return `0x${address.toString(16).padStart(2, '0')}`;
}
