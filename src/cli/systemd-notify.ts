import type { ChildProcess, SpawnOptions } from 'node:child_process';
import type { Logger } from '../core/log.js';

/**
 * systemd's service notifications (sd_notify) without a native addon: Node has no unix datagram
 * sockets, so each message is sent by systemd's own `systemd-notify` tool (always installed where
 * systemd is, and it speaks every NOTIFY_SOCKET form systemd does). The sender is a child process, so
 * the unit needs NotifyAccess=all; systemd-notify waits (BARRIER=1) until systemd has read the message,
 * so systemd attributes it to the service even though the child exits at once.
 *
 * Not run by systemd (no NOTIFY_SOCKET): every method does nothing, and no process is ever started.
 */
export interface SystemdNotifier {
  /** READY=1 with a status line: the API listens and the drivers were started. */
  ready(status: string): void;
  /** STATUS=: a line `systemctl status hearth` shows. */
  status(text: string): void;
  /** STOPPING=1 with a status line: the hub is shutting down (pings go on until the process exits). */
  stopping(status: string): void;
  /** Stops the watchdog pings (tests; a stopping hub). */
  close(): void;
}

export interface SystemdNotifierOptions {
  readonly log: Logger;
  /** The environment systemd gave the process: NOTIFY_SOCKET, WATCHDOG_USEC, WATCHDOG_PID. */
  readonly env?: NodeJS.ProcessEnv;
  /** The main PID systemd is told (MAINPID=). */
  readonly pid?: number;
  /** The sender (tests point it elsewhere). */
  readonly command?: string;
}

/** systemd-notify waits for systemd to read each message; one that hangs longer than this is killed. */
const SEND_TIMEOUT_MS = 5_000;

const SILENT: SystemdNotifier = {
  ready() {},
  status() {},
  stopping() {},
  close() {},
};

/**
 * How often to ping the watchdog, in ms: half of WATCHDOG_USEC as systemd recommends, or undefined when
 * systemd watches no watchdog for this process (WATCHDOG_PID names another process, as after a fork).
 */
export function watchdogIntervalMs(env: NodeJS.ProcessEnv, pid: number): number | undefined {
  const usec = env.WATCHDOG_USEC;
  if (usec === undefined || !/^\d+$/.test(usec) || Number(usec) === 0) return undefined;
  if (env.WATCHDOG_PID !== undefined && env.WATCHDOG_PID !== String(pid)) return undefined;
  return Math.max(1, Math.floor(Number(usec) / 2_000));
}

/**
 * node:child_process, loaded on the first message: a hub outside systemd never needs it, and with it come net, dgram
 * and their internals, some milliseconds of a start (bench/RESULTS.md, Startup).
 */
function spawnChild(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  return process.getBuiltinModule('node:child_process').spawn(command, args, options);
}

export function createSystemdNotifier(options: SystemdNotifierOptions): SystemdNotifier {
  const env = options.env ?? process.env;
  const socket = env.NOTIFY_SOCKET;
  if (socket === undefined || socket === '') return SILENT;
  const pid = options.pid ?? process.pid;
  const command = options.command ?? 'systemd-notify';
  const log = options.log.child({ component: 'systemd' });
  // Only what the sender needs: the socket, and a PATH to find it.
  const childEnv: NodeJS.ProcessEnv = { NOTIFY_SOCKET: socket, PATH: env.PATH ?? '/usr/bin:/bin' };
  let broken = false;
  let warned = false;
  let pingInFlight = false;
  let timer: NodeJS.Timeout | undefined;

  const send = (args: readonly string[], onDone?: () => void): void => {
    if (broken) return;
    let settled = false;
    const done = (problem?: string, err?: Error): void => {
      if (settled) return;
      settled = true;
      onDone?.();
      // Logged once: a sender that fails every 10 s must not fill the journal.
      if (problem !== undefined && !warned) {
        warned = true;
        log.warn({ err, command, args }, `systemd notification failed: ${problem}`);
      }
    };
    const child = spawnChild(command, args, { env: childEnv, stdio: 'ignore' });
    const kill = setTimeout(() => {
      child.kill('SIGKILL');
      done(`${command} did not finish within ${SEND_TIMEOUT_MS / 1000} s`);
    }, SEND_TIMEOUT_MS);
    kill.unref();
    child.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(kill);
      // Nothing can be sent without the tool: say so once and stop trying.
      if (err.code === 'ENOENT') {
        broken = true;
        stopWatchdog();
      }
      done(`cannot run ${command}`, err);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(kill);
      done(code === 0 ? undefined : `${command} ${signal ?? `exited with ${code}`}`);
    });
  };

  const stopWatchdog = (): void => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };

  // The ping comes from a timer on the event loop itself: a loop that is stuck sends none, and systemd
  // restarts the service. A ping still waiting for systemd is not doubled up.
  const interval = watchdogIntervalMs(env, pid);
  if (interval !== undefined) {
    const ping = (): void => {
      if (pingInFlight) return;
      pingInFlight = true;
      send(['WATCHDOG=1'], () => {
        pingInFlight = false;
      });
    };
    timer = setInterval(ping, interval);
    // The pings never keep the process alive on their own.
    timer.unref();
    ping();
  }

  return {
    ready(status) {
      send(['--ready', `--pid=${pid}`, `--status=${status}`]);
    },
    status(text) {
      send([`--status=${text}`]);
    },
    stopping(status) {
      send(['STOPPING=1', `STATUS=${status}`]);
    },
    close: stopWatchdog,
  };
}
