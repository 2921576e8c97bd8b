import type { Logger } from '../core/log.js';

const CAUSES: Readonly<Record<string, string>> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EIO: 'the disk reported an I/O error',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

/** A short cause for the log: "ENOSPC: the disk is full". */
export function writeFailureCause(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code === undefined) return err instanceof Error ? err.message : String(err);
  return `${code}: ${CAUSES[code] ?? (err as Error).message}`;
}

/**
 * The one policy for a store's disk writes: a failure (ENOSPC, EROFS, EIO) is logged once, the store keeps
 * serving from memory and retries later; the first success after failures is logged too. Every store under
 * the data directory goes through it: the append-only stores (restore state, recorder) call `run`, the
 * whole-file writer (src/storage/data-file.ts) reports its outcomes with `failed` and `succeeded`.
 */
export class WriteGuard {
  private failure: { readonly code: string; attempts: number } | undefined;

  constructor(
    private readonly log: Logger,
    private readonly what: string,
  ) {}

  get failing(): boolean {
    return this.failure !== undefined;
  }

  /** Runs one write; true when it succeeded. Never throws. */
  async run(write: () => Promise<void>): Promise<boolean> {
    try {
      await write();
    } catch (err) {
      this.failed(err);
      return false;
    }
    this.succeeded();
    return true;
  }

  /** Records a failed write; only the first of a run of failures is logged (with `retrying`, what happens next). */
  failed(err: unknown, retrying = 'serving from memory and retrying'): void {
    if (this.failure !== undefined) {
      this.failure.attempts++;
      return;
    }
    const code = (err as NodeJS.ErrnoException | null)?.code ?? 'error';
    this.failure = { code, attempts: 1 };
    this.log.error({ err, code }, `could not write ${this.what} (${writeFailureCause(err)}); ${retrying}`);
  }

  /** Records a write that worked; logged when it ends a run of failures. */
  succeeded(): void {
    if (this.failure === undefined) return;
    const { code, attempts } = this.failure;
    this.failure = undefined;
    this.log.info({ code, failedAttempts: attempts }, `${this.what} is written again`);
  }
}
