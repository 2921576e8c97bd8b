/**
 * The test's side of the simulated GPIO kernel (test/fixtures/gpio/fake_kernel.py): gpio-helper.py, started
 * by the real character-device backend, loads it in place of its ioctls, connects here and reports every
 * line's state; the test drives inputs through it. Nothing in the driver or the backend is replaced.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Teardown } from './helpers.js';

export const FAKE_KERNEL = fileURLToPath(new URL('../../fixtures/gpio/fake_kernel.py', import.meta.url));

export interface SimChipSpec {
  readonly name: string;
  readonly label: string;
  readonly lines: number;
  /** Opening it fails with EACCES (a user outside the gpio group). */
  readonly denied?: boolean;
}

/** One line as the simulated kernel sees it. */
export interface SimLine {
  readonly chip: string;
  readonly offset: number;
  readonly requested: boolean;
  readonly consumer: string;
  readonly direction: 'in' | 'out';
  readonly bias: 'as-is' | 'pull_up' | 'pull_down' | 'disabled';
  readonly edges: boolean;
  readonly value: 0 | 1;
}

/** A Pi 5 on a kernel before 6.6.45: the SoC's banks come first, the header (RP1) is gpiochip4. */
export const PI5_OLD_KERNEL: readonly SimChipSpec[] = [
  { name: 'gpiochip0', label: 'gpio-brcmstb@107d508500', lines: 32 },
  { name: 'gpiochip1', label: 'gpio-brcmstb@107d508520', lines: 4 },
  { name: 'gpiochip4', label: 'pinctrl-rp1', lines: 54 },
];

/** A Pi 5 on a newer kernel: the RP1 is gpiochip0. */
export const PI5_NEW_KERNEL: readonly SimChipSpec[] = [
  { name: 'gpiochip0', label: 'pinctrl-rp1', lines: 54 },
  { name: 'gpiochip10', label: 'gpio-brcmstb@107d508500', lines: 32 },
];

export class SimChips {
  /** Every helper process that connected (its pid). */
  readonly helpers: number[] = [];
  private readonly lines = new Map<string, SimLine>();
  private readonly sockets = new Set<Socket>();
  private readonly waiters = new Set<() => void>();

  private constructor(readonly env: NodeJS.ProcessEnv) {}

  /** Listens for helpers on a socket in a fresh directory; stopped at teardown. */
  static async start(t: Teardown, chips: readonly SimChipSpec[]): Promise<SimChips> {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-gpio-sim-'));
    const socketPath = join(dir, 'sim.sock');
    const server = createServer();
    const env = {
      ...process.env,
      // No __pycache__ next to the fixture.
      PYTHONDONTWRITEBYTECODE: '1',
      HEARTH_GPIO_FAKE_KERNEL: FAKE_KERNEL,
      HEARTH_GPIO_SIM_SOCKET: socketPath,
      HEARTH_GPIO_SIM_CHIPS: JSON.stringify(chips),
    };
    const sim = new SimChips(env);
    server.on('connection', (socket) => sim.accept(socket));
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    t.teardown(async () => {
      for (const s of sim.sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
      await rm(dir, { recursive: true, force: true });
    });
    return sim;
  }

  line(chip: string, offset: number): SimLine | undefined {
    return this.lines.get(`${chip}:${offset}`);
  }

  /** Drives an input from outside (a button, a PIR), as the wire would. */
  drive(chip: string, offset: number, value: 0 | 1): void {
    for (const s of this.sockets) s.write(`${JSON.stringify({ drive: { chip, offset, value } })}\n`);
  }

  /** Resolves with the line once `check` holds for it; rejects after `ms`. */
  waitLine(chip: string, offset: number, check: (l: SimLine) => boolean, what: string, ms = 5000): Promise<SimLine> {
    return this.waitFor(
      () => {
        const l = this.line(chip, offset);
        return l !== undefined && check(l) ? l : undefined;
      },
      `${chip} line ${offset}: ${what}`,
      ms,
    );
  }

  /** Resolves once `count` helpers have connected in all. */
  waitHelpers(count: number, ms = 5000): Promise<number> {
    return this.waitFor(() => (this.helpers.length >= count ? this.helpers.length : undefined), `${count} helpers`, ms);
  }

  private waitFor<T>(probe: () => T | undefined, what: string, ms: number): Promise<T> {
    const now = probe();
    if (now !== undefined) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const v = probe();
        if (v === undefined) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(v);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`simulated GPIO: no ${what} within ${ms} ms; lines: ${JSON.stringify([...this.lines.values()])}`));
      }, ms);
      this.waiters.add(check);
    });
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => {});
    let buffer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      let nl = buffer.indexOf('\n');
      while (nl >= 0) {
        const msg = JSON.parse(buffer.slice(0, nl)) as { hello?: number; line?: SimLine };
        buffer = buffer.slice(nl + 1);
        if (msg.hello !== undefined) this.helpers.push(msg.hello);
        if (msg.line !== undefined) this.lines.set(`${msg.line.chip}:${msg.line.offset}`, msg.line);
        // After each message, not each chunk: a chunk can hold a line's state and the next (a relay held on, then
        // released as its process dies), and a waiter for the first must see it before the second replaces it.
        for (const w of [...this.waiters]) w();
        nl = buffer.indexOf('\n');
      }
    });
  }
}
