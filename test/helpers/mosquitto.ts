import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Teardown } from './hub.js';

const run = promisify(execFile);
const MOSQUITTO = '/usr/sbin/mosquitto';

/** A user of the test broker; `acl` lines follow mosquitto's `topic readwrite <pattern>` form. */
export interface BrokerUser {
  readonly username: string;
  readonly password: string;
  readonly acl?: readonly string[];
}

export interface BrokerOptions {
  /** Users besides the default `hearth`/`hearth-test` one, which may read and write every topic. */
  readonly users?: readonly BrokerUser[];
  /** Lets clients in without a password (default false: every test authenticates). */
  readonly allowAnonymous?: boolean;
  /** ACL lines for every user (`pattern ...`), written before the per-user ones. */
  readonly aclPatterns?: readonly string[];
  /** mosquitto's message_size_limit in bytes (0: its own 256 MB). */
  readonly messageSizeLimit?: number;
  /** A TLS listener with a generated CA and server certificate (for 127.0.0.1); clients must present one signed by it. */
  readonly tls?: boolean;
}

/** Files of a TLS broker: the CA that signed the server's certificate, and a client certificate with its key. */
export interface BrokerTls {
  readonly ca: string;
  readonly clientCert: string;
  readonly clientKey: string;
}

export interface TestBroker {
  readonly port: number;
  readonly url: string;
  readonly username: string;
  readonly password: string;
  /** Stops the broker (SIGTERM, then SIGKILL after 2 s). */
  stop(): Promise<void>;
  readonly tls?: BrokerTls;
  /** Starts it again on the same port with the same config (after stop()). */
  start(): Promise<void>;
}

const DEFAULT_USER: BrokerUser = { username: 'hearth', password: 'hearth-test', acl: ['topic readwrite #'] };

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1');
  });
}

/** Retries a TCP connect until the broker accepts one, or fails after `ms` with its output. */
async function waitListening(port: number, child: ChildProcess, output: () => string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  for (let attempt = 0; attempt < 500; attempt++) {
    if (child.exitCode !== null) throw new Error(`mosquitto exited (${child.exitCode}): ${output()}`);
    if (await canConnect(port)) return;
    if (Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`mosquitto did not listen on ${port} within ${ms} ms: ${output()}`);
}

/** A CA, a server certificate for 127.0.0.1 and a client certificate, with openssl (P-256 keys: quick to make). */
async function makeCertificates(dir: string): Promise<BrokerTls> {
  const f = (name: string) => join(dir, name);
  const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await run('openssl', ['req', '-x509', ...key, '-keyout', f('ca.key'), '-out', f('ca.pem'), '-days', '1', '-subj', '/CN=hearth test CA']);
  await writeFile(f('server.ext'), 'subjectAltName=IP:127.0.0.1\n');
  for (const [name, cn, ext] of [
    ['server', '127.0.0.1', ['-extfile', f('server.ext')]],
    ['client', 'hearth', []],
  ] as const) {
    await run('openssl', ['req', ...key, '-keyout', f(`${name}.key`), '-out', f(`${name}.csr`), '-subj', `/CN=${cn}`]);
    await run('openssl', [
      'x509',
      '-req',
      '-in',
      f(`${name}.csr`),
      '-CA',
      f('ca.pem'),
      '-CAkey',
      f('ca.key'),
      '-CAcreateserial',
      '-out',
      f(`${name}.pem`),
      '-days',
      '1',
      ...ext,
    ]);
  }
  return { ca: f('ca.pem'), clientCert: f('client.pem'), clientKey: f('client.key') };
}

/**
 * Starts Debian's mosquitto on a free port on 127.0.0.1 with a generated config: a password file (made with
 * mosquitto_passwd -b), an ACL file and persistence off. Stopped and its files removed at teardown.
 */
export async function startBroker(t: Teardown, options: BrokerOptions = {}): Promise<TestBroker> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-mosquitto-'));
  const users = [DEFAULT_USER, ...(options.users ?? [])];
  const passwordFile = join(dir, 'passwd');
  await writeFile(passwordFile, '', { mode: 0o600 });
  for (const user of users) await run('mosquitto_passwd', ['-b', passwordFile, user.username, user.password]);
  const aclFile = join(dir, 'acl');
  const perUser = users.map((u) => `user ${u.username}\n${(u.acl ?? []).join('\n')}\n`).join('\n');
  await writeFile(aclFile, `${(options.aclPatterns ?? []).join('\n')}\n${perUser}`);
  const port = await freePort();
  const tls = options.tls ? await makeCertificates(dir) : undefined;
  const lines = [
    // As root (CI), mosquitto would switch to the `mosquitto` user, which cannot read this private directory.
    ...(process.getuid?.() === 0 ? ['user root'] : []),
    'per_listener_settings false',
    'persistence false',
    `listener ${port} 127.0.0.1`,
    `allow_anonymous ${options.allowAnonymous === true}`,
    `password_file ${passwordFile}`,
    `acl_file ${aclFile}`,
    'log_dest stderr',
    'log_type error',
    'log_type warning',
    ...(options.messageSizeLimit ? [`message_size_limit ${options.messageSizeLimit}`] : []),
    ...(tls
      ? [`cafile ${tls.ca}`, `certfile ${join(dir, 'server.pem')}`, `keyfile ${join(dir, 'server.key')}`, 'require_certificate true']
      : []),
  ];
  const configFile = join(dir, 'mosquitto.conf');
  await writeFile(configFile, `${lines.join('\n')}\n`);

  let child: ChildProcess | undefined;
  let output = '';
  const start = async (): Promise<void> => {
    output = '';
    const proc = spawn(MOSQUITTO, ['-c', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    proc.stdout?.on('data', (d: Buffer) => {
      output = (output + d.toString()).slice(-4000);
    });
    proc.stderr?.on('data', (d: Buffer) => {
      output = (output + d.toString()).slice(-4000);
    });
    await waitListening(port, proc, () => output);
  };
  const stop = async (): Promise<void> => {
    const proc = child;
    child = undefined;
    if (proc === undefined || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
  };
  await start();
  t.teardown(async () => {
    await stop();
    await rm(dir, { recursive: true, force: true });
  });
  return {
    port,
    tls,
    url: `${tls ? 'mqtts' : 'mqtt'}://127.0.0.1:${port}`,
    username: DEFAULT_USER.username,
    password: DEFAULT_USER.password,
    stop,
    start,
  };
}
