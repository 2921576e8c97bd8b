import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { createSystemdNotifier, watchdogIntervalMs } from '../../src/cli/systemd-notify.js';
import type { Logger } from '../../src/core/log.js';
import { ServeProcess } from './cli-process.js';
import { FakeNotifySocket } from './notify-socket.js';

const CONFIG = `hub:
  name: Notify Test Home
  time_zone: Europe/Amsterdam
virtual:
  - platform: light
    id: kitchen
    name: Kitchen
`;

/** A logger that keeps warnings, to assert what a user would read in the journal. */
function recordingLog(): { log: Logger; warnings: string[]; firstWarning: Promise<string> } {
  const warnings: string[] = [];
  let warned: (msg: string) => void = () => {};
  const firstWarning = new Promise<string>((resolve) => {
    warned = resolve;
  });
  const log: Logger = {
    trace() {},
    debug() {},
    info() {},
    warn(obj: object | string, msg?: string) {
      warnings.push(typeof obj === 'string' ? obj : (msg ?? ''));
      warned(warnings[0] ?? '');
    },
    error() {},
    fatal() {},
    child() {
      return log;
    },
  };
  return { log, warnings, firstWarning };
}

async function fakeSocket(t: { teardown(fn: () => unknown): void }): Promise<FakeNotifySocket> {
  const socket = await FakeNotifySocket.open();
  t.teardown(() => socket.close());
  return socket;
}

t.test('hearth serve under a (fake) systemd: READY once the API answers, watchdog pings, STOPPING on SIGTERM', async (t) => {
  const socket = await fakeSocket(t);
  const dir = await mkdtemp(join(tmpdir(), 'hearth-notify-serve-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const config = join(dir, 'configuration.yaml');
  await writeFile(config, CONFIG);
  const p = new ServeProcess(['--config', config, '--data', join(dir, 'data'), '--host', '127.0.0.1', '--port', '0'], {
    NOTIFY_SOCKET: socket.path,
    // 400 ms: a ping every 200 ms.
    WATCHDOG_USEC: '400000',
  });
  t.teardown(() => p.kill());

  const [ready] = await socket.waitFor('READY', 1, 30_000);
  const listening = await p.waitForLog('API listening');
  // READY means the API answers: ask it the moment READY arrives.
  const answer = await fetch(`http://127.0.0.1:${listening.port as number}/api/`);
  t.equal(answer.status, 401, 'the API answers when READY arrives (401: no token given)');
  t.equal(ready?.fields.READY, '1');
  t.equal(ready?.fields.MAINPID, String(p.child.pid), 'MAINPID is the hub, not the helper');
  t.match(ready?.fields.STATUS, /port \d+/, 'the status names the port');
  t.ok(
    p.records().some((r) => r.msg === 'hearth started'),
    'READY comes after the drivers were started',
  );

  await socket.waitFor('WATCHDOG', 3);
  t.pass('watchdog pings arrive');

  const stopped = await p.stop('SIGTERM', 5_000);
  t.equal(stopped.code, 0, p.stderr);
  const [stopping] = await socket.waitFor('STOPPING');
  t.equal(stopping?.fields.STOPPING, '1');
  t.match(stopping?.fields.STATUS, /SIGTERM/);
  t.equal(p.stderr, '');
});

t.test('the watchdog pings come from the event loop: a stuck loop sends none', async (t) => {
  const socket = await fakeSocket(t);
  const notifier = createSystemdNotifier({
    log: recordingLog().log,
    env: { ...process.env, NOTIFY_SOCKET: socket.path, WATCHDOG_USEC: '200000' },
  });
  t.teardown(() => notifier.close());
  await socket.waitFor('WATCHDOG', 2);

  // Block the loop for ten ping intervals (this busy loop is the stuck hub under test, not a wait).
  const stuckFrom = Date.now();
  while (Date.now() - stuckFrom < 1_000) {}
  const stuckUntil = Date.now();
  await socket.waitUntil('a ping after the loop ran again', () => socket.with('WATCHDOG').find((n) => n.at >= stuckUntil));
  const during = socket.with('WATCHDOG').filter((n) => n.at > stuckFrom + 150 && n.at < stuckUntil);
  // A ping spawned just before the loop stuck may still land; no further ones do.
  t.ok(during.length <= 1, `${during.length} pings while the loop was stuck`);
  // (Date.now() is whole milliseconds and the listener's clock is not: the grace covers both.)
  const before = socket.with('WATCHDOG').filter((n) => n.at <= stuckFrom + 150);
  t.ok(before.length >= 2, 'pings came before the loop stuck');
});

t.test('WATCHDOG_USEC is halved; no watchdog when unset, zero, or meant for another process', async (t) => {
  t.equal(watchdogIntervalMs({ WATCHDOG_USEC: '20000000' }, 42), 10_000);
  t.equal(watchdogIntervalMs({}, 42), undefined);
  t.equal(watchdogIntervalMs({ WATCHDOG_USEC: '0' }, 42), undefined);
  t.equal(watchdogIntervalMs({ WATCHDOG_USEC: 'soon' }, 42), undefined);
  t.equal(watchdogIntervalMs({ WATCHDOG_USEC: '20000000', WATCHDOG_PID: '42' }, 42), 10_000);
  t.equal(watchdogIntervalMs({ WATCHDOG_USEC: '20000000', WATCHDOG_PID: '7' }, 42), undefined);
});

t.test('not under systemd (no NOTIFY_SOCKET): no child process, no timer, no error', async (t) => {
  let spawned = 0;
  const { createSystemdNotifier: create } = await t.mockImport<typeof import('../../src/cli/systemd-notify.js')>(
    '../../src/cli/systemd-notify.js',
    {
      'node:child_process': {
        spawn: (command: string): never => {
          spawned++;
          throw new Error(`unexpected spawn of ${command}`);
        },
      },
    },
  );
  const { log, warnings } = recordingLog();
  const notifier = create({ log, env: { PATH: process.env.PATH, WATCHDOG_USEC: '2000' } });
  notifier.status('starting');
  notifier.ready('serving');
  notifier.stopping('stopping');
  notifier.close();
  t.equal(spawned, 0);
  t.same(warnings, []);
});

t.test('a sender that cannot run is reported once and then left alone', async (t) => {
  const socket = await fakeSocket(t);
  const { log, warnings, firstWarning } = recordingLog();
  const notifier = createSystemdNotifier({
    log,
    env: { PATH: process.env.PATH, NOTIFY_SOCKET: socket.path, WATCHDOG_USEC: '20000' },
    command: join(tmpdir(), 'no-such-dir', 'systemd-notify'),
  });
  t.teardown(() => notifier.close());
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    firstWarning,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error('no warning within 5 s')), 5_000);
    }),
  ]);
  clearTimeout(timer);
  notifier.ready('serving');
  notifier.stopping('stopping');
  t.equal(warnings.length, 1, 'one warning');
  t.match(warnings[0], /cannot run .*systemd-notify/);
  t.same(socket.received, [], 'nothing was sent');
});
