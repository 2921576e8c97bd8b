import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A stand-in for systemd's notification socket: Node has no unix datagram sockets, so python3 binds one
// and prints every datagram it receives as a JSON string on its own line.
const LISTENER = `
import json, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
print(json.dumps("listening"), flush=True)
while True:
    print(json.dumps(s.recv(65536).decode()), flush=True)
`;

export interface Notification {
  /** The datagram's assignments, e.g. { READY: '1', STATUS: '…', MAINPID: '123' }. */
  readonly fields: Readonly<Record<string, string>>;
  /** When it arrived (Date.now()). */
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
        const text = JSON.parse(buffer.slice(0, nl)) as string;
        buffer = buffer.slice(nl + 1);
        nl = buffer.indexOf('\n');
        if (text === 'listening') listening();
        else socket.add(text);
      }
    });
    await ready;
    return socket;
  }

  private add(text: string): void {
    const fields: Record<string, string> = {};
    for (const line of text.split('\n')) {
      const eq = line.indexOf('=');
      if (eq > 0) fields[line.slice(0, eq)] = line.slice(eq + 1);
    }
    this.received.push({ fields, at: Date.now() });
    for (const w of this.waiters) w();
  }

  /** Notifications carrying `key` (BARRIER=1 datagrams are systemd-notify's handshake, not messages). */
  with(key: string): Notification[] {
    return this.received.filter((n) => n.fields[key] !== undefined);
  }

  /** Resolves once `count` notifications carry `key`; rejects past the deadline. */
  waitFor(key: string, count = 1, timeoutMs = 10_000): Promise<Notification[]> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const hits = this.with(key);
        if (hits.length >= count) {
          finish();
          resolve(hits);
        }
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`${count} x ${key} not received within ${timeoutMs} ms; got ${JSON.stringify(this.received)}`));
      }, timeoutMs);
      const finish = (): void => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }

  async close(): Promise<void> {
    this.child.kill();
    await rm(this.dir, { recursive: true, force: true });
  }
}
