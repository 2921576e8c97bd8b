// The HomeKit bridge of the built hub (dist/hearth/, what the unit runs), whose hap-nodejs and ciao come from the
// bundle's own minified files (hearth/hap.cjs, hearth/ciao.cjs: scripts/bundle.mjs), not from node_modules: a real
// controller (hap-controller) pairs with it over 127.0.0.1 and turns a light on, and the hub loaded no file of those
// packages, nor the ones the bundle leaves out (source-map-support, bonjour-hap, dbus-native).
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { BUILT_CLI, ServeProcess } from '../cli/cli-process.js';
import { HttpClient, idOf, ON } from './controller.js';

const HOOK = fileURLToPath(new URL('../cli/loaded-modules-hook.mjs', import.meta.url));
/** A port free a moment ago, for the bridge (the log of a bridge on port 0 is written before it knows its port). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const yaml = (port: number): string => `
hub:
  name: Built
  latitude: 52.37
  longitude: 4.89
  time_zone: UTC
virtual:
  - {platform: light, id: porch, name: Porch, color_modes: [brightness]}
homekit:
  name: Built Bridge
  port: ${port}
  bind: [127.0.0.1]
`;

t.test('the built hub bridges with its own hap.cjs and ciao.cjs, and a controller pairs and controls', async (t) => {
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run \`npm run build\` (make test does)`);
  const dir = await mkdtemp(join(tmpdir(), 'hearth-built-homekit-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const config = join(dir, 'configuration.yaml');
  const port = await freePort();
  await writeFile(config, yaml(port));
  const list = join(dir, 'loaded.txt');
  const hub = new ServeProcess(
    ['--config', config, '--data', join(dir, 'data'), '--host', '127.0.0.1', '--port', '0'],
    { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${HOOK}`, HEARTH_LOADED_MODULES: list },
    'built',
  );
  t.teardown(() => hub.child.kill('SIGKILL'));
  const ready = await hub.waitForLog(/^HomeKit bridge/);
  const { pincode } = JSON.parse(readFileSync(join(dir, 'data', 'homekit', 'setup.json'), 'utf8')) as { pincode: string };
  t.equal(ready.pincode, pincode);

  const client = new HttpClient('hearth-built-test', '127.0.0.1', port);
  await client.pairSetup(pincode);
  const { accessories } = await client.getAccessories();
  const on = idOf(accessories, 'light.porch', ON);
  await client.setCharacteristics({ [on]: true });
  const read = await client.getCharacteristics([on]);
  t.ok(read.characteristics[0]?.value, 'the light reads on after the controller turned it on');
  await client.close();

  hub.child.kill('SIGTERM');
  await hub.exited;
  const loaded = (await readFile(list, 'utf8')).split('\n').filter(Boolean);
  t.ok(
    loaded.some((m) => /[\\/]hearth[\\/]hap\.cjs$/.test(m)) && loaded.some((m) => /[\\/]hearth[\\/]ciao\.cjs$/.test(m)),
    "hap.cjs and ciao.cjs from the bundle's folder",
  );
  t.same(
    loaded.filter((m) =>
      /[\\/]node_modules[\\/](hap-nodejs|@homebridge|tweetnacl|fast-srp-hap|node-persist|source-map-support|bonjour-hap)[\\/]/.test(m),
    ),
    [],
    'no file of hap-nodejs, ciao or the packages they require from node_modules',
  );
});
