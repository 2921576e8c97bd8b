// A network namespace of its own for the tests and benches that need real mDNS and multicast: nothing they send
// reaches a real network. matter.js's mDNS leaves the loopback interface out, so the Matter ones get a veth pair
// that stands in for a LAN; the zeroconf test makes do with loopback, multicast on.
import { execFile, execFileSync } from 'node:child_process';
import type { Test } from 'tap';
import { packageRoot } from '../../src/util/paths.js';
import { withoutCoverage } from './child-env.js';

const FLAG = 'HEARTH_NETNS';

/** A veth pair (10.77.0.1 and .2) with multicast routed over it. */
export const VETH_SETUP = [
  'ip link set lo up',
  'ip link add m0 type veth peer name m1',
  'ip addr add 10.77.0.1/24 dev m0',
  'ip addr add 10.77.0.2/24 dev m1',
  'ip link set m0 up',
  'ip link set m1 up',
  'ip route add 224.0.0.0/4 dev m0',
].join(' && ');

/** Loopback with multicast on. */
export const LOOPBACK_SETUP = 'ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo';

/** Whether this process runs inside the namespace (started through unshareArgs with netnsEnv). */
export function inNetns(): boolean {
  return process.env[FLAG] === '1';
}

/** Whether this machine lets a process make one (`unshare -n` needs root). */
export function canUnshare(): Promise<boolean> {
  return new Promise((resolve) => execFile('unshare', ['-n', 'true'], (err) => resolve(err === null)));
}

/** `unshare`'s arguments that run `script` (a path from the repository's root) through tsx in a new namespace. */
export function unshareArgs(script: string, setup = VETH_SETUP): string[] {
  return ['-n', 'sh', '-c', `${setup} && exec "${process.execPath}" --import tsx ${script}`];
}

/** `env` marked so that the script knows it runs inside (inNetns). */
export function netnsEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, [FLAG]: '1' };
}

/** For a bench: outside the namespace, runs `script` again inside one and exits when it is done. */
export function rerunInNetns(script: string, cwd: string): void {
  if (inNetns()) return;
  execFileSync('unshare', unshareArgs(script), { cwd, stdio: 'inherit', env: netnsEnv(process.env) });
  process.exit(0);
}

/**
 * For a tap test file: runs `script` (this file) again inside a namespace of its own, as a subtest. matter.js loads
 * slowly through tsx on a busy machine, and commissioning itself takes a few seconds: hence the long deadlines.
 */
export function spawnInNetns(t: Test, script: string): void {
  t.setTimeout(180_000);
  t.spawn(
    'unshare',
    unshareArgs(script),
    { cwd: packageRoot(), env: netnsEnv(withoutCoverage(process.env)), timeout: 150_000 },
    'in a network namespace of its own',
  );
}
