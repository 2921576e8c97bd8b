import { existsSync, realpathSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { WsClient } from '../api/ws/client.js';
import { startBroker } from '../helpers/mosquitto.js';
import { watch } from '../helpers/mqtt-watch.js';
import { BUILT_CLI, REPO_ROOT, runCli, ServeProcess } from './cli-process.js';

/**
 * The bundled build (dist/hearth/) is what `make run`, `npx hearth` and the systemd unit run: it must do
 * what the sources do. `make test` builds it first.
 */
const DOMAINS = [
  'light',
  'switch',
  'sensor',
  'binary_sensor',
  'climate',
  'cover',
  'fan',
  'media_player',
  'camera',
  'lock',
  'alarm_control_panel',
  'vacuum',
  'button',
  'number',
  'select',
  'automation',
  'script',
  'scene',
];

t.before(() => {
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run \`npm run build\` (make test does)`);
});

t.test('npx hearth runs the bundled build', async (t) => {
  const bin = join(REPO_ROOT, 'node_modules', '.bin', 'hearth');
  // dist/hearth leads into the current build (scripts/dist-builds.mjs): both end at the same file.
  t.equal(realpathSync(bin), realpathSync(BUILT_CLI), 'the bin link points at dist/hearth/cli.js');
  const version = await runCli(['--version'], { build: 'built' });
  t.equal(version.code, 0, version.stderr);
  t.match(version.stdout, /^\d{4}\.\d+\.\d+\n$/);
});

t.test('the bundled build serves the demo over REST, WebSocket and the web pages, and stops on SIGTERM', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-built-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const created = await runCli(['token', 'create', '--data', dir, '--name', 'built'], { build: 'built' });
  t.equal(created.code, 0, created.stderr);
  const token = created.stdout.trim();

  const p = new ServeProcess(['--data', dir, '--host', '127.0.0.1', '--port', '0'], undefined, 'built');
  t.teardown(() => p.kill());
  const port = (await p.waitForLog('API listening')).port as number;
  await p.waitForLog('hearth started');
  const base = `http://127.0.0.1:${port}`;
  const auth = { authorization: `Bearer ${token}` };

  const states = (await (await fetch(`${base}/api/states`, { headers: auth })).json()) as { entity_id: string }[];
  const domains = new Set(states.map((s) => s.entity_id.split('.')[0]));
  t.same(
    DOMAINS.filter((d) => !domains.has(d)),
    [],
    'entities of all 18 domains',
  );
  const call = await fetch(`${base}/api/services/light/turn_on`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ entity_id: 'light.living_room', color_name: 'orange' }),
  });
  t.equal(call.status, 200);
  const changed = (await call.json()) as { entity_id: string; state: string }[];
  t.equal(changed.find((s) => s.entity_id === 'light.living_room')?.state, 'on', 'the call answers with the changed light');

  const ws = await WsClient.authenticated(`ws://127.0.0.1:${port}/api/websocket`, token);
  t.teardown(() => ws.ws.close());
  const config = await ws.command('get_config');
  t.equal(config.success, true);
  t.equal((config.result as { state?: string }).state, 'RUNNING');

  // The pages' assets are found from the bundle's location: the stylesheet from src/web/assets/, preact
  // from node_modules.
  const html = await (await fetch(`${base}/onboarding`)).text();
  const css = /\/static\/([0-9a-f]+)\/hearth\.css/.exec(html);
  t.ok(css, 'the onboarding page links its stylesheet');
  if (css !== null) {
    t.equal((await fetch(`${base}${css[0]}`)).status, 200, `${css[0]} is served`);
    const preact = await fetch(`${base}/static/${css[1]}/vendor/preact.js`);
    t.equal(preact.status, 200, 'preact is served from node_modules');
    t.match(await preact.text(), /export/);
  }

  const stopped = await p.stop('SIGTERM', 5_000);
  t.equal(stopped.code, 0, `exit 0 (stderr: ${p.stderr})`);
  t.equal(p.stderr, '');
});

t.test('the bundled build loads mqtt.js from its own chunk and nunjucks on the first template', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-built-mqtt-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const broker = await startBroker(t);
  const w = await watch(t, broker, ['hearth/#']);
  const config = join(dir, 'configuration.yaml');
  await writeFile(
    config,
    `hub:\n  name: Built\nmqtt:\n  broker: ${broker.url}\n  username: ${broker.username}\n  password: ${broker.password}\nvirtual:\n  - {platform: switch, id: relay, name: Relay}\ntemplate:\n  - sensor:\n      - name: Relay text\n        state: "{{ states('switch.relay') | upper }}"\n`,
  );
  const p = new ServeProcess(['--config', config, '--data', dir, '--host', '127.0.0.1', '--port', '0'], undefined, 'built');
  t.teardown(() => p.kill());
  await p.waitForLog('hearth started');
  t.equal(await w.waitFor('hearth/built/status'), 'online', 'connected through the bundled mqtt.js');
  await w.publish('hearth/built/switch.relay/set', 'ON');
  t.equal(await w.waitFor('hearth/built/sensor.relay_text/state', (v) => v === 'ON'), 'ON', 'the template entity rendered');
  const stopped = await p.stop('SIGTERM', 5_000);
  t.equal(stopped.code, 0, `exit 0 (stderr: ${p.stderr})`);
});
