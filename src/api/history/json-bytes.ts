/**
 * A growable UTF-8 buffer for building large JSON answers (a day of history is megabytes) without a string
 * per element: ASCII pieces are copied in with latin1Write, repeated pieces (a state's attributes, the same
 * state text) are encoded once and copied as bytes.
 */
export class JsonBytes {
  private buf: Buffer;
  length = 0;
  /** The last piece encoded by `cached`, and its bytes: consecutive states mostly share their attributes. */
  private lastText = '';
  private lastBytes: Buffer = Buffer.alloc(0);
  private readonly small = new Map<string, Buffer>();

  constructor(capacity = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(capacity);
  }

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.length);
    this.buf = next;
  }

  /** Text known to be ASCII (keys, punctuation, numbers). */
  ascii(s: string): void {
    const n = s.length;
    this.room(n);
    const buf = this.buf;
    let at = this.length;
    // Short pieces are most of them: a loop here beats a call into C++ for each.
    if (n < 64) for (let i = 0; i < n; i++) buf[at++] = s.charCodeAt(i);
    else at += buf.write(s, at, 'latin1');
    this.length = at;
  }

  utf8(s: string): void {
    this.room(s.length * 3);
    this.length += this.buf.write(s, this.length, 'utf8');
  }

  bytes(b: Uint8Array): void {
    const n = b.length;
    this.room(n);
    const buf = this.buf;
    let at = this.length;
    if (n < 64) for (let i = 0; i < n; i++) buf[at++] = b[i] as number;
    else {
      buf.set(b, at);
      at += n;
    }
    this.length = at;
  }

  /** A piece that repeats (attributes JSON): encoded once while it stays the same. */
  repeated(s: string): void {
    if (s !== this.lastText) {
      this.lastText = s;
      this.lastBytes = Buffer.from(s);
    }
    this.bytes(this.lastBytes);
  }

  /** A JSON string of a short text (a state): plain printable ASCII is copied as is, the rest escaped by JSON. */
  jsonString(s: string): void {
    const n = s.length;
    if (n < 48) {
      let plain = true;
      for (let i = 0; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) {
          plain = false;
          break;
        }
      }
      if (plain) {
        this.room(n + 2);
        const buf = this.buf;
        let at = this.length;
        buf[at++] = 0x22;
        for (let i = 0; i < n; i++) buf[at++] = s.charCodeAt(i);
        buf[at++] = 0x22;
        this.length = at;
        return;
      }
    }
    let b = this.small.get(s);
    if (b === undefined) {
      b = Buffer.from(JSON.stringify(s));
      // Numeric series have many distinct values: bounded, the rest are encoded each time.
      if (this.small.size < 4096) this.small.set(s, b);
    }
    this.bytes(b);
  }

  /**
   * Microseconds since the epoch as Home Assistant's float seconds (`1773100803.5`), written digit by digit:
   * a day of states is 86,400 of them, and formatting a double each time costs more than the rest of the state.
   */
  seconds(us: number): void {
    if (!Number.isSafeInteger(us) || us < 0) {
      this.ascii(String(us / 1_000_000));
      return;
    }
    const whole = Math.floor(us / 1_000_000);
    let frac = us - whole * 1_000_000;
    this.ascii(String(whole));
    if (frac === 0) return;
    let digits = 6;
    while (frac % 10 === 0) {
      frac /= 10;
      digits--;
    }
    this.room(digits + 1);
    const buf = this.buf;
    let at = this.length + digits;
    this.length = at + 1;
    for (let i = 0; i < digits; i++) {
      buf[at--] = 0x30 + (frac % 10);
      frac = Math.floor(frac / 10);
    }
    buf[at] = 0x2e;
  }

  /** The bytes written (a view: valid until the next write). */
  view(): Buffer {
    return this.buf.subarray(0, this.length);
  }
}
