const LF = 0x0a;
const CR = 0x0d;

/**
 * Splits a byte stream into lines (LF or CRLF) in a buffer of fixed size: a line longer than that is
 * dropped up to its end and reported, so a stream without newlines never grows memory.
 */
export class LineSplitter {
  private readonly buffer: Buffer;
  private filled = 0;
  private overflowed = false;

  constructor(
    maxLineBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOverflow: (maxLineBytes: number) => void,
  ) {
    this.buffer = Buffer.alloc(maxLineBytes);
  }

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const lf = chunk.indexOf(LF, start);
      const end = lf === -1 ? chunk.length : lf;
      this.append(chunk, start, end);
      if (lf === -1) return;
      this.endLine();
      start = lf + 1;
    }
  }

  reset(): void {
    this.filled = 0;
    this.overflowed = false;
  }

  private append(chunk: Buffer, start: number, end: number): void {
    if (this.overflowed || start >= end) return;
    const room = this.buffer.length - this.filled;
    if (end - start > room) {
      this.overflowed = true;
      return;
    }
    chunk.copy(this.buffer, this.filled, start, end);
    this.filled += end - start;
  }

  private endLine(): void {
    if (this.overflowed) {
      this.reset();
      this.onOverflow(this.buffer.length);
      return;
    }
    let end = this.filled;
    if (end > 0 && this.buffer.readUInt8(end - 1) === CR) end--;
    const line = this.buffer.toString('utf8', 0, end);
    this.filled = 0;
    this.onLine(line);
  }
}
