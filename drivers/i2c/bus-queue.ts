import type { Timers } from '../../src/util/timers.js';
import { errorCode, type I2cBus, type I2cBusOpener } from './bus.js';

export interface BusQueueOptions {
  readonly busNumber: number;
  readonly open: I2cBusOpener;
  readonly timers: Timers;
  /** How long one transfer may take before it counts as failed. */
  readonly timeoutMs: number;
  /** Extra attempts for a transfer that failed in a way that can pass (a NACK, EIO). */
  readonly retries: number;
  /** Transfers that may wait for the bus; more are refused at once. */
  readonly maxQueue: number;
}

/** Errors worth an immediate second attempt: the device NACKed or the bus glitched. */
const RETRYABLE = new Set(['EREMOTEIO', 'EIO', 'EAGAIN', 'EBUSY', 'ENXIO']);

interface Job {
  readonly op: (bus: I2cBus) => Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (err: unknown) => void;
}

function coded(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * One I²C bus, one transfer at a time. Chips on a bus share it, so their transfers are serialized here
 * rather than left to interleave in libuv's thread pool. Each transfer has a timeout and a few retries
 * for NACKs; the queue is bounded. A transfer that times out cannot be cancelled (it runs in a pool
 * thread), so the bus refuses new transfers until it settles: piling more onto a stuck bus would only
 * use up the threads that file I/O needs too.
 */
export class BusQueue {
  private bus: Promise<I2cBus> | undefined;
  private readonly waiting: Job[] = [];
  private running = false;
  private stuck = false;
  private closed = false;

  constructor(private readonly options: BusQueueOptions) {}

  get busNumber(): number {
    return this.options.busNumber;
  }

  /** Runs `op` when the bus is free; rejects when it fails after its retries, times out or the queue is full. */
  run<T>(op: (bus: I2cBus) => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(coded('ECLOSED', `i2c-${this.busNumber} is closed`));
    if (this.waiting.length >= this.options.maxQueue) {
      return Promise.reject(coded('EQUEUEFULL', `i2c-${this.busNumber} has ${this.waiting.length} transfers waiting already`));
    }
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ op, resolve: resolve as (value: unknown) => void, reject });
      this.pump();
    });
  }

  /** Refuses new transfers, fails the waiting ones and closes the bus. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.splice(0)) job.reject(coded('ECLOSED', `i2c-${this.busNumber} is closed`));
    const bus = this.bus;
    this.bus = undefined;
    if (bus !== undefined) await bus.then((b) => b.close()).catch(() => {});
  }

  private pump(): void {
    if (this.running) return;
    const job = this.waiting.shift();
    if (job === undefined) return;
    this.running = true;
    this.execute(job.op)
      .then(job.resolve, job.reject)
      .finally(() => {
        this.running = false;
        this.pump();
      });
  }

  private async execute(op: (bus: I2cBus) => Promise<unknown>): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      if (this.stuck) {
        throw coded('EBUSSTUCK', `i2c-${this.busNumber} is stuck: an earlier transfer timed out and has not finished`);
      }
      const bus = await this.openBus();
      try {
        return await this.withTimeout(op(bus));
      } catch (err) {
        const code = errorCode(err);
        if (attempt >= this.options.retries || code === undefined || !RETRYABLE.has(code)) throw err;
      }
    }
  }

  private openBus(): Promise<I2cBus> {
    this.bus ??= this.options.open(this.busNumber).catch((err: unknown) => {
      // Try again on the next transfer (i2c-bus may get installed, permissions may change).
      this.bus = undefined;
      throw err;
    });
    return this.bus;
  }

  private withTimeout<T>(transfer: Promise<T>): Promise<T> {
    const { timers, timeoutMs } = this.options;
    return new Promise<T>((resolve, reject) => {
      let timedOut = false;
      const timer = timers.timeout(() => {
        timedOut = true;
        this.stuck = true;
        const clear = () => {
          this.stuck = false;
        };
        transfer.then(clear, clear);
        reject(coded('ETIMEDOUT', `i2c-${this.busNumber}: transfer timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      transfer.then(
        (value) => {
          timers.clear(timer);
          if (!timedOut) resolve(value);
        },
        (err: unknown) => {
          timers.clear(timer);
          if (!timedOut) reject(err);
        },
      );
    });
  }
}
