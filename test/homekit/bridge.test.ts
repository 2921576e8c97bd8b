// The HomeKit bridge paired and driven by a real HomeKit controller (hap-controller) over 127.0.0.1: pair-setup with
// the code, the accessory database, writes that reach the entities, events for state changes, and a restart that
// keeps the pairing and the accessory ids.
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { startTestHub } from '../helpers/hub.js';
import {
  HttpClient,
  idOf,
  LIGHTBULB,
  LOCK_CURRENT,
  LOCK_TARGET,
  MOTION,
  ON,
  pairedClient,
  short,
  TEMPERATURE,
  until,
} from './controller.js';

const YAML = `
hub:
  name: Test Home
  latitude: 52.37
  longitude: 4.89
  time_zone: Europe/Amsterdam
virtual:
  - {platform: light, id: kitchen, name: Kitchen, color_modes: [hs, color_temp]}
  - {platform: switch, id: coffee_maker, name: Coffee Maker, device_class: outlet}
  - {platform: lock, id: back_door, name: Back Door, transition_time: 0.05}
  - {platform: sensor, id: outdoor, name: Outdoor, device_class: temperature, min: 4, max: 17, interval: 3600}
  - {platform: binary_sensor, id: motion, name: Motion, device_class: motion, mean_interval: 3600, on_duration: 1}
  - {platform: select, id: program, name: Program, options: [a, b]}
homekit:
  name: Test Bridge
  port: 0
  bind: [127.0.0.1]
  filter:
    exclude_entities: [switch.coffee_maker]
`;

t.test('a controller pairs with the code, sees the accessories, and controls them both ways', async (t) => {
  const hub = await startTestHub(t, { yaml: YAML });
  const bridge = hub.hub.homekit;
  t.ok(bridge, 'the bridge runs');
  t.match(bridge?.setup?.pincode, /^\d{3}-\d{2}-\d{3}$/);
  t.match(bridge?.setup?.setupUri, /^X-HM:\/\//, 'the setup URI for the QR code');
  const { client } = await pairedClient(hub);
  t.teardown(() => client.close());

  const { accessories } = await client.getAccessories();
  const serials = accessories.map((a) => a.services.flatMap((s) => s.characteristics).find((c) => short(c.type) === '30')?.value);
  t.ok(
    serials.includes('light.kitchen') &&
      serials.includes('lock.back_door') &&
      serials.includes('sensor.outdoor') &&
      serials.includes('binary_sensor.motion'),
  );
  t.notOk(serials.includes('switch.coffee_maker'), 'an excluded entity is not bridged');
  t.notOk(serials.includes('select.program'), 'a select has no HomeKit type');
  t.ok(
    accessories.some((a) => a.services.some((s) => short(s.type) === LIGHTBULB)),
    'the light is a Lightbulb',
  );

  const lightOn = idOf(accessories, 'light.kitchen', ON);
  await client.setCharacteristics({ [lightOn]: true });
  await until(() => hub.hub.core.states.get('light.kitchen')?.state === 'on', 'the light to turn on');
  t.pass('a write from Apple Home turns the light on');

  const events: { aid: number; iid: number; value: unknown }[] = [];
  client.on('event', (e) => events.push(...e.characteristics));
  await client.subscribeCharacteristics([lightOn]);
  await hub.hub.core.services.call('light', 'turn_off', { entity_id: 'light.kitchen' });
  await until(() => hub.hub.core.states.get('light.kitchen')?.state === 'off', 'the light to turn off');
  t.notOk((await client.getCharacteristics([lightOn])).characteristics[0]?.value, 'the controller reads it off (HAP sends 0)');
  await until(() => events.some((e) => `${e.aid}.${e.iid}` === lightOn && (e.value === false || e.value === 0)), 'the off event');
  t.pass('a change in the hub reaches the controller as an event');

  const target = idOf(accessories, 'lock.back_door', LOCK_TARGET);
  const current = idOf(accessories, 'lock.back_door', LOCK_CURRENT);
  await client.setCharacteristics({ [target]: 0 });
  await until(() => hub.hub.core.states.get('lock.back_door')?.state === 'unlocked', 'the lock to unlock');
  const read = await client.getCharacteristics([current]);
  t.equal(read.characteristics[0]?.value, 0, 'the lock reads unsecured');

  const temp = idOf(accessories, 'sensor.outdoor', TEMPERATURE);
  const temperature = await client.getCharacteristics([temp]);
  t.equal(
    temperature.characteristics[0]?.value,
    Number.parseFloat(hub.hub.core.states.get('sensor.outdoor')?.state ?? 'x'),
    'the sensor reads its state',
  );
  t.ok(idOf(accessories, 'binary_sensor.motion', MOTION));
});

t.test('a restart keeps the pairing, the code and the accessory ids', async (t) => {
  const first = await startTestHub(t, { yaml: YAML.replace('port: 0', 'port: 0') });
  const { client, pairing } = await pairedClient(first);
  const before = await client.getAccessories();
  await client.close();
  const code = first.hub.homekit?.setup?.pincode;
  await first.hub.stop();

  const second = await startTestHub(t, { yaml: YAML, dataDir: first.dataDir });
  t.equal(second.hub.homekit?.setup?.pincode, code, 'the same setup code');
  const port = second.hub.homekit?.port ?? 0;
  const again = new HttpClient('hearth-test', '127.0.0.1', port, pairing);
  t.teardown(() => again.close());
  const after = await again.getAccessories();
  t.same(
    after.accessories.map((a) => a.aid).sort(),
    before.accessories.map((a) => a.aid).sort(),
    'the stored pairing still works and every accessory keeps its id',
  );
});

t.test('with a relative data dir (`--data ./data`), pairings are kept in that dir, not under node_modules', async (t) => {
  const cwd = process.cwd();
  const base = await mkdtemp(join(tmpdir(), 'hearth-homekit-cwd-'));
  process.chdir(base);
  t.teardown(async () => {
    process.chdir(cwd);
    await rm(base, { recursive: true, force: true });
  });
  await mkdir('data');
  const hub = await startTestHub(t, { yaml: YAML, dataDir: 'data' });
  const { client } = await pairedClient(hub);
  await client.close();
  const files = await readdir(join(base, 'data', 'homekit'));
  t.ok(
    files.some((f) => f.startsWith('AccessoryInfo.')),
    "hap-nodejs's pairing file is in <cwd>/data/homekit",
  );
});

t.test('a port in use disables the bridge alone; the hub runs on', async (t) => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => taken.close(() => resolve())));
  const { port } = taken.address() as AddressInfo;
  const hub = await startTestHub(t, { yaml: YAML.replace('port: 0', `port: ${port}`) });
  t.equal(hub.hub.homekit?.port, undefined, 'the bridge does not claim the port');
  t.equal(hub.hub.core.states.get('light.kitchen')?.state, 'off', 'the hub and its entities run');
});

t.test('the /homekit page shows the code and the QR code to an admin', async (t) => {
  const { startWebHub, onboard } = await import('../web/helpers.js');
  const web = await startWebHub(t, { yaml: YAML });
  const browser = await onboard(web);
  const page = await browser.get('/homekit');
  t.equal(page.status, 200);
  t.match(page.text, new RegExp(`<p class="pincode" aria-label="Setup code">${web.hub.homekit?.setup?.pincode}</p>`));
  const src = /<img class="qr" src="data:image\/svg\+xml;base64,([^"]+)"/.exec(page.text)?.[1];
  const svg = Buffer.from(src ?? '', 'base64').toString('utf8');
  t.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 (\d+) \1"/, 'a square SVG');
  t.match(svg, /<path fill="#000" d="(M\d+ \d+h1v1h-1z)+"\/>/, 'with dark modules');
});
