/** The value of a lower-case hex digit (the caller checked the text is hex). */
/** The value of a lowercase hex digit, or -1. */
function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/** A growable byte buffer with LEB128 varints (numbers up to 2^53, not only 32-bit ones). */
export class ByteWriter {
  private buf: Uint8Array;
  length = 0;

  constructor(capacity = 64) {
    this.buf = new Uint8Array(capacity);
  }

  /** Bytes held (capacity), for the memory budget. */
  get capacity(): number {
    return this.buf.length;
  }

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  u8(v: number): void {
    this.room(1);
    this.buf[this.length++] = v;
  }

  varint(v: number): void {
    this.room(8);
    while (v >= 0x80) {
      this.buf[this.length++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.length++] = v;
  }

  /** Signed as zigzag: small magnitudes of either sign take one byte. */
  zigzag(v: number): void {
    this.varint(v >= 0 ? v * 2 : -v * 2 - 1);
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  /** 32 lower-case hex digits (a context id) as their 16 bytes, without a Buffer per id. */
  /**
   * Writes a 32-digit lowercase hex id as 16 bytes and returns true; writes nothing and returns false for
   * anything else (a client's own context id), which the caller then writes as text. One pass: no regexp first.
   */
  hex16(s: string): boolean {
    if (s.length !== 32) return false;
    this.room(16);
    const buf = this.buf;
    let at = this.length;
    for (let i = 0; i < 32; i += 2) {
      const hi = hexValue(s.charCodeAt(i));
      const lo = hexValue(s.charCodeAt(i + 1));
      if (hi < 0 || lo < 0) return false;
      buf[at++] = (hi << 4) | lo;
    }
    this.length = at;
    return true;
  }

  /** Overwrites a byte already written (a flags byte whose bits are known only after what follows it). */
  setU8(at: number, v: number): void {
    this.buf[at] = v;
  }

  string(s: string): void {
    const b = Buffer.from(s, 'utf8');
    this.varint(b.length);
    this.bytes(b);
  }

  /** A view of bytes [from, to) (valid until the next write grows the buffer). */
  view(from = 0, to = this.length): Uint8Array {
    return this.buf.subarray(from, to);
  }

  /** A copy of everything written. */
  toBuffer(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.length));
  }

  /** Drops everything after `length` (a failed append's partial bytes). */
  truncate(length: number): void {
    this.length = length;
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
