import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { packageRoot } from '../src/util/paths.js';

const UNIT = join(packageRoot(), 'systemd', 'hearth.service');

interface Verified {
  readonly code: number;
  readonly stderr: string;
}

/**
 * `systemd-analyze verify` on a copy of the unit whose `node` is the one running the tests, as
 * scripts/install.sh does on the Pi (verify fails when ExecStart's program does not exist; the shipped
 * path /usr/bin/node is where Debian's and NodeSource's packages put it).
 */
async function verify(t: { teardown(fn: () => unknown): void }, unitText: string): Promise<Verified> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-unit-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'hearth.service');
  await writeFile(file, unitText.replace('ExecStart=/usr/bin/node ', `ExecStart=${process.execPath} `));
  return new Promise((resolve, reject) => {
    execFile('systemd-analyze', ['verify', file], { timeout: 30_000 }, (err, _stdout, stderr) => {
      if (err !== null && typeof err.code !== 'number') reject(err);
      else resolve({ code: err === null ? 0 : Number(err.code), stderr });
    });
  });
}

/** Every `Key=value` of the unit, in order (one key may repeat, as DeviceAllow= does). */
function directives(text: string): [string, string][] {
  return text
    .split('\n')
    .filter((l) => /^[A-Za-z]+=/.test(l))
    .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]);
}

t.test('systemd-analyze verify accepts the shipped unit, with nothing to say about it', async (t) => {
  const result = await verify(t, await readFile(UNIT, 'utf8'));
  t.equal(result.code, 0, result.stderr);
  t.notMatch(result.stderr, /hearth\.service/, 'no warning about the unit');
});

t.test('verify is a real check: it reports a misspelt key and a missing program', async (t) => {
  const broken = (await readFile(UNIT, 'utf8')).replace('Restart=on-failure', 'Restrat=on-failure');
  const result = await verify(t, broken.replace('ExecStart=/usr/bin/node ', 'ExecStart=/nonexistent/node '));
  t.match(result.stderr, /Unknown key 'Restrat'/);
  t.not(result.code, 0, 'a missing ExecStart program fails');
});

t.test('the unit: notify and watchdog, every device class, only the state directory writable', async (t) => {
  const all = directives(await readFile(UNIT, 'utf8'));
  const one = (key: string): string | undefined => all.find(([k]) => k === key)?.[1];
  t.equal(one('Type'), 'notify');
  t.equal(one('NotifyAccess'), 'all', 'the READY/WATCHDOG messages come from systemd-notify, a child process');
  t.match(one('WatchdogSec'), /^\d+s$/);
  t.equal(one('Restart'), 'on-failure', 'a watchdog timeout or crash restarts it');
  t.equal(one('StateDirectory'), 'hearth');
  t.equal(one('ProtectSystem'), 'strict');
  t.equal(one('ReadWritePaths'), undefined, 'nothing writable beyond the state directory');
  t.equal(one('DevicePolicy'), 'closed');
  t.same(
    all.filter(([k]) => k === 'DeviceAllow').map(([, v]) => v),
    ['char-gpiochip rw', 'char-i2c rw', 'char-ttyACM rw', 'char-ttyUSB rw', 'char-ttyAMA rw', 'char-ttyS rw'],
  );
  t.same(one('SupplementaryGroups')?.split(' '), ['gpio', 'i2c', 'dialout']);
  t.not(one('PrivateDevices'), 'yes', 'PrivateDevices would hide /dev/gpiochip*, /dev/i2c-* and the serial ports');
  t.not(one('ProtectKernelTunables'), 'yes', 'the sysfs GPIO backend writes /sys/class/gpio');
  t.not(one('MemoryDenyWriteExecute'), 'yes', "V8's JIT needs W+X pages");
  t.match(one('RestrictAddressFamilies'), /AF_UNIX/, 'systemd-notify needs AF_UNIX');
  const stopSec = Number(/^(\d+)s$/.exec(one('TimeoutStopSec') ?? '')?.[1]);
  t.ok(stopSec > 5, 'TimeoutStopSec is above the hub’s own 5 s stop deadline');
});
