// The HomeKit bridge paired and driven by a real HomeKit controller (hap-controller) over 127.0.0.1: pair-setup with
// the code, the accessory database, writes that reach the entities, events for state changes, and a restart that
// keeps the pairing and the accessory ids.
import { createRequire } from 'node:module';
import t from 'tap';
import { startTestHub, type TestHub } from '../helpers/hub.js';

interface Characteristic {
  readonly iid: number;
  readonly type: string;
  readonly value?: unknown;
}
interface Accessory {
  readonly aid: number;
  readonly services: { readonly type: string; readonly characteristics: Characteristic[] }[];
}
interface HttpClient {
  pairSetup(pin: string): Promise<void>;
  getLongTermData(): unknown;
  getAccessories(): Promise<{ accessories: Accessory[] }>;
  getCharacteristics(ids: string[]): Promise<{ characteristics: { aid: number; iid: number; value: unknown }[] }>;
  setCharacteristics(values: Record<string, unknown>): Promise<unknown>;
  subscribeCharacteristics(ids: string[]): Promise<unknown>;
  on(event: 'event', fn: (e: { characteristics: { aid: number; iid: number; value: unknown }[] }) => void): void;
  close(): Promise<void>;
}
const { HttpClient } = createRequire(import.meta.url)('hap-controller') as {
  HttpClient: new (id: string, address: string, port: number, pairing?: unknown) => HttpClient;
};

// HAP's short UUIDs (services and characteristics), as the controller reports them.
const ON = '25';
const LOCK_CURRENT = '1D';
const LOCK_TARGET = '1E';
const MOTION = '22';
const TEMPERATURE = '11';
const LIGHTBULB = '43';

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

function short(type: string): string {
  return type
    .replace(/^0+/, '')
    .replace(/-0000-1000-8000-0026BB765291$/, '')
    .toUpperCase();
}

/** aid.iid of the first characteristic of `type` in the accessory whose serial names `entityId`. */
function idOf(accessories: Accessory[], entityId: string, type: string): string {
  for (const a of accessories) {
    const serial = a.services.flatMap((s) => s.characteristics).find((c) => short(c.type) === '30')?.value;
    if (serial !== entityId) continue;
    for (const s of a.services) for (const c of s.characteristics) if (short(c.type) === type) return `${a.aid}.${c.iid}`;
  }
  throw new Error(`no characteristic ${type} for ${entityId}`);
}

async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

async function pairedClient(hub: TestHub): Promise<{ client: HttpClient; pairing: unknown; port: number }> {
  const bridge = hub.hub.homekit;
  if (bridge?.setup === undefined || bridge.port === undefined) throw new Error('no HomeKit bridge');
  const client = new HttpClient('hearth-test', '127.0.0.1', bridge.port);
  await client.pairSetup(bridge.setup.pincode);
  return { client, pairing: client.getLongTermData(), port: bridge.port };
}

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
