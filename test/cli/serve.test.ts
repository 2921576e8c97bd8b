import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { WsClient } from '../api/ws/client.js';
import { BROKEN_HOME } from '../fixtures/broken-home.js';
import { runCli, ServeProcess } from './cli-process.js';

// About 19 s on a quiet machine and 36 s with three test files at a time on two cores: near tap's 60 s for a
// file, which fails a file that is merely slow, after its tests have passed.
t.setTimeout(180_000);

const CONFIG = `hub:
  name: CLI Test Home
  time_zone: Europe/Amsterdam
  port: 8123
virtual:
  - platform: light
    id: kitchen
    name: Kitchen
    color_modes: [brightness]
`;

/** SIGTERM must stop the hub with exit 0 within 5 s; the test allows a little for process teardown. */
const STOP_LIMIT_MS = 5_000;

async function tempDir(t: { teardown(fn: () => unknown): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-cli-serve-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function serve(t: { teardown(fn: () => unknown): void }, args: string[], env?: Record<string, string>): ServeProcess {
  const p = new ServeProcess(args, env);
  t.teardown(() => p.kill());
  return p;
}

t.test('serve: JSON logs, the API answers a token made by `token create`, SIGTERM exits 0 within 5 s', async (t) => {
  const dir = await tempDir(t);
  const config = join(dir, 'configuration.yaml');
  await writeFile(config, CONFIG);
  const data = join(dir, 'data');
  const created = await runCli(['token', 'create', '--data', data, '--name', 'test']);
  t.equal(created.code, 0, created.stderr);
  const token = created.stdout.trim();

  const p = serve(t, ['--config', config, '--data', data, '--host', '127.0.0.1', '--port', '0']);
  const listening = await p.waitForLog('API listening');
  t.equal(listening.host, '127.0.0.1', '--host overrides hub.host');
  const port = listening.port as number;
  t.ok(port > 0 && port !== 8123, '--port 0 overrides hub.port and gets a free port');

  const ok = await fetch(`http://127.0.0.1:${port}/api/`, { headers: { authorization: `Bearer ${token}` } });
  t.equal(ok.status, 200);
  t.same(await ok.json(), { message: 'API running.' });
  const denied = await fetch(`http://127.0.0.1:${port}/api/`, { headers: { authorization: 'Bearer nope' } });
  t.equal(denied.status, 401);
  const states = await fetch(`http://127.0.0.1:${port}/api/states/light.kitchen`, { headers: { authorization: `Bearer ${token}` } });
  t.equal(states.status, 200, 'the configured virtual light exists');

  await p.waitForLog('hearth started');
  const stopped = await p.stop('SIGTERM', STOP_LIMIT_MS);
  t.equal(stopped.code, 0, `exit 0 (stderr: ${p.stderr})`);
  t.ok(stopped.ms < STOP_LIMIT_MS, `stopped in ${stopped.ms} ms`);
  t.ok(
    p.lines.every((l) => l.startsWith('{') && typeof (JSON.parse(l) as { msg?: unknown }).msg === 'string'),
    'every stdout line is a JSON log record',
  );
  t.ok(
    p.records().some((r) => r.msg === 'hearth stopped'),
    'logs the stop',
  );
  t.notOk(
    p.records().some((r) => /no access tokens/.test(String(r.msg))),
    'no token hint when a token exists',
  );
  t.equal(p.stderr, '');
});

t.test('serve with no tokens logs how to create one; SIGINT exits 0', async (t) => {
  const dir = await tempDir(t);
  const config = join(dir, 'configuration.yaml');
  await writeFile(config, CONFIG);
  const data = join(dir, 'data');
  const p = serve(t, ['--config', config, '--data', data, '--host', '127.0.0.1', '--port', '0', '--log-level', 'debug']);
  const hint = await p.waitForLog(/no access tokens/);
  t.match(hint.msg, `npx hearth token create --data ${data} --name NAME`);
  const stopped = await p.stop('SIGINT', STOP_LIMIT_MS);
  t.equal(stopped.code, 0);
});

t.test('serve without --config runs the bundled demo', async (t) => {
  const dir = await tempDir(t);
  const p = serve(t, ['--data', join(dir, 'data'), '--host', '127.0.0.1', '--port', '0']);
  const starting = await p.waitForLog(/^hearth .* starting$/);
  t.equal(starting.config, 'bundled demo');
  await p.waitForLog('API listening');
  const stopped = await p.stop('SIGTERM', STOP_LIMIT_MS);
  t.equal(stopped.code, 0, p.stderr);
});

t.test('serve with a bad configuration exits 1 listing the problems with positions, no stack trace', async (t) => {
  const dir = await tempDir(t);
  const config = join(dir, 'configuration.yaml');
  await writeFile(config, 'hub:\n  name: Home\n  port: 99999\n  time_zone: Nowhere/Special\nvirtual: {}\n');
  const r = await runCli(['serve', '--config', config, '--data', join(dir, 'data'), '--host', '127.0.0.1', '--port', '0']);
  t.equal(r.code, 1);
  t.match(r.stderr, `${config}:3:9: hub.port: 99999 is not allowed: expected an integer from 1 to 65535`);
  t.match(r.stderr, `${config}:4:14: hub.time_zone: "Nowhere/Special" is not allowed`);
  t.match(r.stderr, `${config}:5:1: virtual: expected a list`);
  t.match(r.stderr, `3 problems in ${config}`);
  t.notMatch(r.stderr, /\n\s+at /, 'no stack trace');
  t.equal(r.stdout, '', 'no log lines: nothing started');
});

t.test('serve with a missing configuration file exits 1 with a message', async (t) => {
  const dir = await tempDir(t);
  const r = await runCli(['serve', '--config', join(dir, 'nope.yaml'), '--data', join(dir, 'data')]);
  t.equal(r.code, 1);
  t.match(r.stderr, /cannot read the configuration .*nope\.yaml: no such file/);
});

t.test('serve when the port is taken exits 1 with a clear message', async (t) => {
  const dir = await tempDir(t);
  const config = join(dir, 'configuration.yaml');
  await writeFile(config, CONFIG);
  const blocker: Server = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
  const address = blocker.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;

  const r = await runCli(['serve', '--config', config, '--data', join(dir, 'data'), '--host', '127.0.0.1', '--port', String(port)]);
  t.equal(r.code, 1);
  t.match(r.stderr, `Cannot listen on 127.0.0.1:${port}: the address is in use`);
  t.match(r.stderr, /choose another --port/);
  t.notMatch(r.stderr, /\n\s+at /);
});

t.test('serve without the native uWS binary prints the instructions and exits 1', async (t) => {
  const dir = await tempDir(t);
  const config = join(dir, 'configuration.yaml');
  await writeFile(config, CONFIG);
  // The package's own switch to its JavaScript fallback, which is what a missing binary leads to.
  const r = await runCli(['serve', '--config', config, '--data', join(dir, 'data'), '--host', '127.0.0.1', '--port', '0'], {
    env: { UWS_USE_FALLBACK: '1' },
  });
  t.equal(r.code, 1);
  t.match(r.stderr, /could not load its native binary/);
  t.match(r.stderr, /run it on Node 20/);
  t.notMatch(r.stderr, /\n\s+at /);
});

t.test(
  'serve starts a home with a broken automation, a broken template sensor and an unknown section; check-config fails on it',
  async (t) => {
    const dir = await tempDir(t);
    const config = join(dir, 'configuration.yaml');
    await writeFile(config, BROKEN_HOME);
    const checked = await runCli(['check-config', '--config', config]);
    t.equal(checked.code, 1, 'check-config still exits 1 on any problem');
    t.match(checked.stdout, `${config}:24:18: automation[1].triggers[0].trigger: unknown trigger type "stat"`);
    t.match(checked.stdout, /frobnicate: unknown section/);

    const data = join(dir, 'data');
    const created = await runCli(['token', 'create', '--data', data, '--name', 'test']);
    const token = created.stdout.trim();
    const p = serve(t, ['--config', config, '--data', data, '--host', '127.0.0.1', '--port', '0']);
    const port = (await p.waitForLog('API listening')).port as number;
    await p.waitForLog('hearth started');
    const named = p
      .records()
      .filter((r) => r.level === 50)
      .map((r) => String(r.msg));
    t.match(named, [
      /^frobnicate is not started: /,
      /^template\[0\]\.sensor\[1\] \(Broken sensor\) is not started: /,
      /^automation\[1\] \(Typo in the trigger\) is not started: /,
    ]);
    const sensor = await fetch(`http://127.0.0.1:${port}/api/states/sensor.porch_light_state`, {
      headers: { authorization: `Bearer ${token}` },
    });
    t.equal(sensor.status, 200, 'the good template sensor serves');
    t.equal(((await sensor.json()) as { state: string }).state, 'off');
    const stopped = await p.stop('SIGTERM', STOP_LIMIT_MS);
    t.equal(stopped.code, 0, p.stderr);
  },
);

t.test('at SIGTERM a WebSocket subscriber sees the hub go, not its entities deleted', async (t) => {
  const dir = await tempDir(t);
  const data = join(dir, 'data');
  const created = await runCli(['token', 'create', '--data', data, '--name', 'test']);
  const token = created.stdout.trim();
  // The bundled demo: entities of every driver kind, helpers, templates, thermostats, automations and scenes.
  const p = serve(t, ['--data', data, '--host', '127.0.0.1', '--port', '0']);
  const port = (await p.waitForLog('API listening')).port as number;
  await p.waitForLog('hearth started');
  const ws = await WsClient.authenticated(`ws://127.0.0.1:${port}/api/websocket`, token);
  t.teardown(() => ws.close());
  const states = await ws.command('get_states');
  const count = (states.result as unknown[]).length;
  t.ok(count > 20, `the demo has entities (${count})`);
  const subscribed = await ws.command('subscribe_events', { event_type: 'state_changed' });
  t.equal(subscribed.success, true);

  const stopped = await p.stop('SIGTERM', STOP_LIMIT_MS);
  t.equal(stopped.code, 0, p.stderr);
  await ws.waitClosed(STOP_LIMIT_MS);
  const removals = ws.messages
    .filter((m) => m.type === 'event')
    .map((m) => (m.event as { data: { entity_id: string; new_state: unknown } }).data)
    .filter((d) => d.new_state === null)
    .map((d) => d.entity_id);
  t.same(removals, [], 'no state_changed with new_state: null');
});
