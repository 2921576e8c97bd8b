import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A stand-in for systemd's notification socket: Node has no unix datagram sockets, so python3 binds one
// and prints every datagram it receives, with the time it arrived (ms since the epoch, taken by the
// listener: the test's own loop may be busy then), as a JSON pair on its own line.
const LISTENER = `
import json, socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
print(json.dumps([time.time() * 1000, "listening"]), flush=True)
while True:
    data = s.recv(65536)
    print(json.dumps([time.time() * 1000, data.decode()]), flush=True)
`;

export interface Notification {
  /** The datagram's assignments, e.g. { READY: '1', STATUS: '…', MAINPID: '123' }. */
  readonly fields: Readonly<Record<string, string>>;
  /** When the listener received it, in Date.now() terms. */
  readonly at: number;
}

export class FakeNotifySocket {
  readonly received: Notification[] = [];
  private readonly waiters = new Set<() => void>();

  private constructor(
    readonly path: string,
    private readonly dir: string,
    private readonly child: ChildProcess,
  ) {}

  static async open(): Promise<FakeNotifySocket> {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-notify-'));
    const path = join(dir, 'notify.sock');
    const child = spawn('python3', ['-c', LISTENER, path], { stdio: ['ignore', 'pipe', 'inherit'] });
    const socket = new FakeNotifySocket(path, dir, child);
    let buffer = '';
    let listening: () => void = () => {};
    const ready = new Promise<void>((resolve, reject) => {
      listening = resolve;
      child.on('error', reject);
      child.on('exit', (code) => reject(new Error(`the python3 notify listener exited (${code})`)));
    });
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      buffer += d;
      let nl = buffer.indexOf('\n');
      while (nl >= 0) {
        const [at, text] = JSON.parse(buffer.slice(0, nl)) as [number, string];
        buffer = buffer.slice(nl + 1);
        nl = buffer.indexOf('\n');
        if (text === 'listening') listening();
        else socket.add(text, at);
      }
    });
    await ready;
    return socket;
  }

  private add(text: string, at: number): void {
    const fields: Record<string, string> = {};
    for (const line of text.split('\n')) {
      const eq = line.indexOf('=');
      if (eq > 0) fields[line.slice(0, eq)] = line.slice(eq + 1);
    }
    this.received.push({ fields, at });
    for (const w of this.waiters) w();
  }

  /** Notifications carrying `key` (BARRIER=1 datagrams are systemd-notify's handshake, not messages). */
  with(key: string): Notification[] {
    return this.received.filter((n) => n.fields[key] !== undefined);
  }

  /** Resolves once `count` notifications carry `key`; rejects past the deadline. */
  waitFor(key: string, count = 1, timeoutMs = 10_000): Promise<Notification[]> {
    return this.waitUntil(
      `${count} x ${key}`,
      () => {
        const hits = this.with(key);
        return hits.length >= count ? hits : undefined;
      },
      timeoutMs,
    );
  }

  /** Resolves with what `check` returns once it returns something; rejects past the deadline. */
  waitUntil<T>(what: string, check: () => T | undefined, timeoutMs = 10_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const attempt = (): void => {
        const result = check();
        if (result !== undefined) {
          finish();
          resolve(result);
        }
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`${what} not received within ${timeoutMs} ms; got ${JSON.stringify(this.received)}`));
      }, timeoutMs);
      const finish = (): void => {
        clearTimeout(timer);
        this.waiters.delete(attempt);
      };
      this.waiters.add(attempt);
      attempt();
    });
  }

  async close(): Promise<void> {
    this.child.kill();
    await rm(this.dir, { recursive: true, force: true });
  }
}
