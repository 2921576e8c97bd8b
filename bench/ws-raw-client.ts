/**
 * A minimal WebSocket client for the fan-out benchmark's client process: the HTTP upgrade, masked text
 * frames out, and unmasked frames in, parsed straight from the TCP chunks. A general client library spends
 * more per frame than the server under test does, which would make the benchmark measure the clients; this
 * one hands each text frame to the caller as a byte range of the chunk it arrived in, with no copy unless
 * the frame spans chunks.
 */
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

export type TextHandler = (buf: Buffer, start: number, end: number) => void;

const HEADER_END = Buffer.from('\r\n\r\n');

export class RawWsClient {
  private socket: Socket | undefined;
  private buf: Buffer = Buffer.alloc(0);
  private pos = 0;
  private upgraded = false;
  /** Payload of a fragmented message, while its continuation frames arrive. */
  private fragments: Buffer[] = [];
  closed = false;

  constructor(
    private readonly url: URL,
    private readonly onText: TextHandler,
    private readonly onClose: () => void,
  ) {}

  open(): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: this.url.hostname, port: Number(this.url.port), noDelay: true });
      this.socket = socket;
      socket.once('error', reject);
      socket.on('close', () => {
        this.closed = true;
        this.onClose();
      });
      socket.on('connect', () => {
        const key = randomBytes(16).toString('base64');
        socket.write(
          `GET ${this.url.pathname} HTTP/1.1\r\nHost: ${this.url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
        );
      });
      socket.on('data', (chunk: Buffer) => {
        this.append(chunk);
        if (!this.upgraded) {
          const end = this.buf.indexOf(HEADER_END, this.pos);
          if (end === -1) return;
          const head = this.buf.toString('latin1', this.pos, end);
          if (!head.startsWith('HTTP/1.1 101')) {
            reject(new Error(`upgrade refused: ${head.split('\r\n')[0]}`));
            socket.destroy();
            return;
          }
          this.pos = end + HEADER_END.length;
          this.upgraded = true;
          resolve();
        }
        this.parse();
      });
    });
  }

  /** Sends a text frame (masked, as a client must; the all-zero key leaves the payload as it is). */
  send(text: string): void {
    const payload = Buffer.from(text);
    const len = payload.length;
    const header = len < 126 ? Buffer.alloc(6) : len < 65536 ? Buffer.alloc(8) : Buffer.alloc(14);
    header[0] = 0x81;
    if (len < 126) header[1] = 0x80 | len;
    else if (len < 65536) {
      header[1] = 0x80 | 126;
      header.writeUInt16BE(len, 2);
    } else {
      header[1] = 0x80 | 127;
      header.writeBigUInt64BE(BigInt(len), 2);
    }
    this.socket?.write(Buffer.concat([header, payload]));
  }

  destroy(): void {
    this.socket?.destroy();
  }

  private append(chunk: Buffer): void {
    if (this.pos >= this.buf.length) this.buf = chunk;
    else this.buf = Buffer.concat([this.buf.subarray(this.pos), chunk]);
    this.pos = 0;
  }

  private parse(): void {
    const buf = this.buf;
    let pos = this.pos;
    for (;;) {
      if (buf.length - pos < 2) break;
      const b0 = buf[pos] as number;
      const b1 = buf[pos + 1] as number;
      let len = b1 & 0x7f;
      let header = 2;
      if (len === 126) {
        if (buf.length - pos < 4) break;
        len = buf.readUInt16BE(pos + 2);
        header = 4;
      } else if (len === 127) {
        if (buf.length - pos < 10) break;
        len = Number(buf.readBigUInt64BE(pos + 2));
        header = 10;
      }
      if (b1 & 0x80) header += 4; // servers do not mask, but be exact
      if (buf.length - pos < header + len) break;
      const start = pos + header;
      const end = start + len;
      pos = end;
      this.frame(b0, buf, start, end);
    }
    this.pos = pos;
  }

  private frame(b0: number, buf: Buffer, start: number, end: number): void {
    const fin = (b0 & 0x80) !== 0;
    const opcode = b0 & 0x0f;
    if (opcode === 0x1 || opcode === 0x0) {
      if (fin && this.fragments.length === 0) this.onText(buf, start, end);
      else {
        this.fragments.push(Buffer.from(buf.subarray(start, end)));
        if (fin) {
          const whole = Buffer.concat(this.fragments);
          this.fragments = [];
          this.onText(whole, 0, whole.length);
        }
      }
    } else if (opcode === 0x9) {
      // Ping: answer with a pong carrying the same payload.
      const payload = buf.subarray(start, end);
      const header = Buffer.from([0x8a, 0x80 | payload.length, 0, 0, 0, 0]);
      this.socket?.write(Buffer.concat([header, payload]));
    } else if (opcode === 0x8) {
      this.socket?.end();
    }
  }
}
