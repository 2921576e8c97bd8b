/** A fixed-length binary frame: how it starts, how long it is, and how to tell a corrupt one. */
export interface FrameSpec {
  readonly header: readonly number[];
  readonly length: number;
  /** Why a complete frame (header included) is corrupt, or undefined when it is good. */
  readonly check: (frame: Buffer) => string | undefined;
}

/**
 * Finds frames in a byte stream. Bytes before a header are dropped as they arrive, so a stream of
 * garbage costs nothing and memory is one frame, whatever comes in. A frame may arrive split across any
 * number of chunks. After a corrupt frame the search resumes one byte after its start, so a real frame
 * hidden behind a false header is still found.
 */
export class FrameScanner {
  private readonly frame: Buffer;
  private filled = 0;

  constructor(
    private readonly spec: FrameSpec,
    /** A good frame; valid only during the call (the buffer is reused). */
    private readonly onFrame: (frame: Buffer) => void,
    private readonly onCorrupt: (reason: string) => void,
  ) {
    this.frame = Buffer.alloc(spec.length);
  }

  push(chunk: Buffer): void {
    for (let i = 0; i < chunk.length; i++) this.step(chunk.readUInt8(i));
  }

  /** Drops a partial frame (after a reconnect, the rest of it will never come). */
  reset(): void {
    this.filled = 0;
  }

  private step(byte: number): void {
    const { header, length } = this.spec;
    if (this.filled < header.length) {
      if (byte === header[this.filled]) this.frame[this.filled++] = byte;
      else if (byte === header[0]) {
        this.frame[0] = byte;
        this.filled = 1;
      } else this.filled = 0;
      return;
    }
    this.frame[this.filled++] = byte;
    if (this.filled < length) return;
    this.filled = 0;
    const problem = this.spec.check(this.frame);
    if (problem === undefined) {
      this.onFrame(this.frame);
      return;
    }
    this.onCorrupt(problem);
    // Rescan what followed the false start; fewer than `length` bytes, so this cannot recurse.
    const rest = Buffer.from(this.frame.subarray(1));
    for (let i = 0; i < rest.length; i++) this.step(rest.readUInt8(i));
  }
}

/** Sum of bytes [start, end) — the checksum both Plantower and Nova Fitness use (truncated by the caller). */
export function byteSum(data: Buffer, start: number, end: number): number {
  let sum = 0;
  for (let i = start; i < end; i++) sum += data.readUInt8(i);
  return sum;
}
