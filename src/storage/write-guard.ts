import type { Logger } from '../core/log.js';

/**
 * The one policy for a store's disk writes: a failure (ENOSPC, EROFS, EIO) is logged once, the store keeps
 * serving from memory and retries later; the first success after failures is logged too. Small on purpose,
 * so the registry and auth files can share it.
 */
export class WriteGuard {
  private failingCode: string | undefined;

  constructor(
    private readonly log: Logger,
    private readonly what: string,
  ) {}

  get failing(): boolean {
    return this.failingCode !== undefined;
  }

  /** Runs one write; true when it succeeded. Never throws. */
  async run(write: () => Promise<void>): Promise<boolean> {
    try {
      await write();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      if (this.failingCode === undefined) {
        this.log.error({ err, code }, `${this.what}: cannot write (${code}); serving from memory and retrying`);
      }
      this.failingCode = code;
      return false;
    }
    if (this.failingCode !== undefined) {
      this.log.info({ code: this.failingCode }, `${this.what}: writing again after ${this.failingCode}`);
      this.failingCode = undefined;
    }
    return true;
  }
}
