import type { I2cBus } from '../../drivers/i2c/bus.js';

/** A chip on the simulated bus, at the level of I²C transactions. */
export interface SimulatedChip {
  /** A write transaction: the bytes the master sent (the first is usually a register or command). */
  write(data: Buffer): void;
  /** A read transaction of `length` bytes. Throw nackError() to NACK it. */
  read(length: number): Buffer;
}

/** What i2c-bus rejects with when the addressed device does not acknowledge (Linux errno 121). */
export function nackError(): Error {
  return Object.assign(new Error('EREMOTEIO, Remote I/O error'), { code: 'EREMOTEIO', errno: 121 });
}

/** What i2c-bus rejects with when /dev/i2c-N does not exist (it opens the file per transfer). */
export function missingBusError(busNumber: number): Error {
  return Object.assign(new Error(`ENOENT: no such file or directory, open '/dev/i2c-${busNumber}'`), {
    code: 'ENOENT',
    errno: -2,
    syscall: 'open',
  });
}

type Fault = { readonly kind: 'nack'; remaining: number } | { readonly kind: 'hang' };

/**
 * An I²C bus with simulated chips behind the I2cBus interface the driver uses. Faults can be injected per
 * address: NACKs (EREMOTEIO) for the next N transfers or until healed, and hangs (a transfer that never
 * finishes until healed, then fails as the kernel's adapter timeout would). Transfers finish on a later
 * turn of the event loop, as i2c-bus's thread-pool calls do.
 */
export class FakeI2cBus implements I2cBus {
  private readonly chips = new Map<number, SimulatedChip>();
  private readonly faults = new Map<number, Fault>();
  private readonly hung: { address: number; fail: (err: Error) => void }[] = [];
  /** Set to make every transfer fail as on a Pi without /dev/i2c-N. */
  missing = false;
  /** Transfers running right now, and the most seen at once (the driver must serialize them). */
  active = 0;
  maxActive = 0;
  /** Finished transfers per address, including failed ones. */
  readonly transfers = new Map<number, number>();
  closed = false;
  private readonly watchers = new Set<() => void>();

  constructor(readonly busNumber = 1) {}

  /** Resolves once `count` more transfers to `address` have finished (failed ones included); rejects after `ms`. */
  afterTransfers(address: number, count: number, ms = 3000): Promise<void> {
    const target = (this.transfers.get(address) ?? 0) + count;
    return new Promise((resolve, reject) => {
      const check = () => {
        if ((this.transfers.get(address) ?? 0) < target) return;
        this.watchers.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.watchers.delete(check);
        reject(new Error(`only ${this.transfers.get(address) ?? 0} of ${target} transfers to 0x${address.toString(16)} in ${ms} ms`));
      }, ms);
      this.watchers.add(check);
    });
  }

  attach(address: number, chip: SimulatedChip): this {
    this.chips.set(address, chip);
    return this;
  }

  detach(address: number): void {
    this.chips.delete(address);
  }

  /** The next `times` transfers to `address` are NACKed (all of them until heal() when omitted). */
  nack(address: number, times = Number.POSITIVE_INFINITY): void {
    this.faults.set(address, { kind: 'nack', remaining: times });
  }

  /** Transfers to `address` never finish until heal(). */
  hang(address: number): void {
    this.faults.set(address, { kind: 'hang' });
  }

  /** Clears the faults of `address`; its hung transfers now fail with ETIMEDOUT. */
  heal(address: number): void {
    this.faults.delete(address);
    for (let i = this.hung.length - 1; i >= 0; i--) {
      const h = this.hung[i];
      if (h?.address === address) {
        this.hung.splice(i, 1);
        h.fail(Object.assign(new Error('ETIMEDOUT, Connection timed out'), { code: 'ETIMEDOUT', errno: 110 }));
      }
    }
  }

  readByte(address: number, command: number): Promise<number> {
    return this.transfer(address, (chip) => {
      chip.write(Buffer.from([command]));
      return chip.read(1).readUInt8(0);
    });
  }

  writeByte(address: number, command: number, byte: number): Promise<void> {
    return this.transfer(address, (chip) => chip.write(Buffer.from([command, byte])));
  }

  readI2cBlock(address: number, command: number, length: number, buffer: Buffer): Promise<{ bytesRead: number; buffer: Buffer }> {
    return this.transfer(address, (chip) => {
      chip.write(Buffer.from([command]));
      const data = chip.read(length);
      data.copy(buffer);
      return { bytesRead: data.length, buffer };
    });
  }

  i2cRead(address: number, length: number, buffer: Buffer): Promise<{ bytesRead: number; buffer: Buffer }> {
    return this.transfer(address, (chip) => {
      const data = chip.read(length);
      data.copy(buffer);
      return { bytesRead: data.length, buffer };
    });
  }

  i2cWrite(address: number, length: number, buffer: Buffer): Promise<{ bytesWritten: number; buffer: Buffer }> {
    return this.transfer(address, (chip) => {
      chip.write(Buffer.from(buffer.subarray(0, length)));
      return { bytesWritten: length, buffer };
    });
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private async transfer<T>(address: number, op: (chip: SimulatedChip) => T): Promise<T> {
    this.active++;
    this.maxActive = Math.max(this.maxActive, this.active);
    try {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.missing) throw missingBusError(this.busNumber);
      const fault = this.faults.get(address);
      if (fault?.kind === 'hang') {
        await new Promise<never>((_, reject) => this.hung.push({ address, fail: reject }));
      }
      if (fault?.kind === 'nack') {
        fault.remaining--;
        if (fault.remaining <= 0) this.faults.delete(address);
        throw nackError();
      }
      const chip = this.chips.get(address);
      if (chip === undefined) throw nackError();
      return op(chip);
    } finally {
      this.active--;
      this.transfers.set(address, (this.transfers.get(address) ?? 0) + 1);
      for (const check of [...this.watchers]) check();
    }
  }
}
