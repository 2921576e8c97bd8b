/** The value of a lowercase hex digit, or -1. */
function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/**
 * A growable byte buffer with LEB128 varints (numbers up to 2^53, not only 32-bit ones).
 *
 * By default it doubles one contiguous buffer, copying what it holds: right for a record built and handed on
 * at once. With `blockBytes` (the recorder's hot series, which live for up to an hour) it doubles only up to
 * that size; past it, it keeps what it wrote in place and starts a new block of that size, so nothing more is
 * copied and no outgrown buffer is left behind. Outgrown buffers are old-generation garbage until the next full
 * collection: under the flood bench (50 lights, 10,000 changes) they were about as many bytes as the points
 * themselves, and the malloc heap stayed that much larger. A quiet series (a sensor's hour, a few hundred bytes)
 * still has one buffer, as each block costs some 250 bytes of objects besides its bytes.
 * A view that spans blocks is a copy; reads (commits, seals, history) are rare next to writes.
 */
export class ByteWriter {
  private buf: Uint8Array;
  /** Bytes written into `buf`. */
  private pos = 0;
  /** The blocks before `buf` (block mode only), and the bytes used in each: a block ends where a write did not fit. */
  private full: Uint8Array[] | undefined;
  private used: number[] | undefined;
  private fullBytes = 0;
  private fullCapacity = 0;

  constructor(
    capacity = 64,
    private readonly blockBytes = 0,
  ) {
    this.buf = new Uint8Array(capacity);
  }

  /** Bytes written. */
  get length(): number {
    return this.fullBytes + this.pos;
  }

  /** Bytes held (capacity), for the memory budget. */
  get capacity(): number {
    return this.fullCapacity + this.buf.length;
  }

  /** Makes `n` contiguous bytes free at `pos`. Small enough to be inlined into every write; growing is not. */
  private room(n: number): void {
    if (this.pos + n > this.buf.length) this.grow(n);
  }

  private grow(n: number): void {
    const buf = this.buf;
    const needed = this.pos + n;
    const block = this.blockBytes;
    if (block === 0 || buf.length < block) {
      let size = buf.length * 2;
      while (size < needed) size *= 2;
      if (block > 0) size = Math.max(needed, Math.min(size, block));
      const next = new Uint8Array(size);
      next.set(buf.subarray(0, this.pos));
      this.buf = next;
      return;
    }
    if (this.pos > 0) {
      if (this.full === undefined || this.used === undefined) {
        this.full = [];
        this.used = [];
      }
      this.full.push(buf);
      this.used.push(this.pos);
      this.fullBytes += this.pos;
      this.fullCapacity += buf.length;
    }
    this.buf = new Uint8Array(Math.max(n, block));
    this.pos = 0;
  }

  u8(v: number): void {
    this.room(1);
    this.buf[this.pos++] = v;
  }

  varint(v: number): void {
    this.room(8);
    const buf = this.buf;
    let at = this.pos;
    while (v >= 0x80) {
      buf[at++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    buf[at++] = v;
    this.pos = at;
  }

  /** Signed as zigzag: small magnitudes of either sign take one byte. */
  zigzag(v: number): void {
    this.varint(v >= 0 ? v * 2 : -v * 2 - 1);
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /**
   * Writes a 32-digit lowercase hex id as 16 bytes and returns true; writes nothing and returns false for
   * anything else (a client's own context id), which the caller then writes as text. One pass: no regexp first.
   */
  hex16(s: string): boolean {
    if (s.length !== 32) return false;
    this.room(16);
    const buf = this.buf;
    let at = this.pos;
    for (let i = 0; i < 32; i += 2) {
      const hi = hexValue(s.charCodeAt(i));
      const lo = hexValue(s.charCodeAt(i + 1));
      if (hi < 0 || lo < 0) return false;
      buf[at++] = (hi << 4) | lo;
    }
    this.pos = at;
    return true;
  }

  /** Overwrites a byte already written (a flags byte whose bits are known only after what follows it). */
  setU8(at: number, v: number): void {
    let base = this.fullBytes;
    if (at >= base) {
      this.buf[at - base] = v;
      return;
    }
    const full = this.full as Uint8Array[];
    const used = this.used as number[];
    for (let i = full.length - 1; i >= 0; i--) {
      base -= used[i] as number;
      if (at >= base) {
        (full[i] as Uint8Array)[at - base] = v;
        return;
      }
    }
  }

  string(s: string): void {
    const b = Buffer.from(s, 'utf8');
    this.varint(b.length);
    this.bytes(b);
  }

  /** The bytes [from, to): a view into the buffer (valid until the next write) when they lie in the last block, else a copy. */
  view(from = 0, to = this.length): Uint8Array {
    const base = this.fullBytes;
    if (from >= base) return this.buf.subarray(from - base, to - base);
    const out = new Uint8Array(to - from);
    this.slices(from, to, (bytes, at) => out.set(bytes, at));
    return out;
  }

  /** Writes the bytes from `from` on into `target`, block by block: no copy of the whole first. */
  appendTo(target: ByteWriter, from = 0): void {
    this.slices(from, this.length, (bytes) => target.bytes(bytes));
  }

  /** The bytes [from, to) in order, one view per block they span, with each view's offset from `from`. */
  private slices(from: number, to: number, visit: (bytes: Uint8Array, at: number) => void): void {
    const full = this.full ?? [];
    const used = this.used ?? [];
    let start = 0;
    for (let i = 0; i <= full.length; i++) {
      const block = i < full.length ? (full[i] as Uint8Array) : this.buf;
      const end = start + (i < full.length ? (used[i] as number) : this.pos);
      if (end > from && start < to)
        visit(block.subarray(Math.max(from, start) - start, Math.min(to, end) - start), Math.max(0, start - from));
      start = end;
    }
  }

  /** A copy of everything written. */
  toBuffer(): Buffer {
    return Buffer.from(this.view());
  }
}

export class ByteReader {
  constructor(
    private readonly buf: Uint8Array,
    public pos = 0,
    private readonly end = buf.length,
  ) {}

  get done(): boolean {
    return this.pos >= this.end;
  }

  u8(): number {
    if (this.pos >= this.end) throw new RangeError('read past the end');
    return this.buf[this.pos++] as number;
  }

  varint(): number {
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = this.u8();
      v += (b & 0x7f) * scale;
      if (b < 0x80) return v;
      scale *= 0x80;
      if (scale > 2 ** 56) throw new RangeError('varint too long');
    }
  }

  zigzag(): number {
    const v = this.varint();
    return v % 2 === 0 ? v / 2 : -(v + 1) / 2;
  }

  bytes(n: number): Uint8Array {
    if (this.pos + n > this.end) throw new RangeError('read past the end');
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  string(): string {
    const n = this.varint();
    return Buffer.from(this.bytes(n)).toString('utf8');
  }
}
