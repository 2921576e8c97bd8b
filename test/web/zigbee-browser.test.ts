import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import t from 'tap';
import { Device } from 'zigbee-herdsman/dist/controller/model/device.js';
import { packageRoot } from '../../src/util/paths.js';
import { CATALOGUE } from '../fixtures/zigbee/catalogue.js';
import { FakeStick, quietZigbeeLogs } from '../fixtures/zigbee/fake-stick.js';
import { MINIMAL_CONFIG, type Teardown } from '../helpers/hub.js';
import { waitForState } from '../helpers/wait.js';
import { createOwnerInBrowser, openBrowser } from './browser.js';
import { startWebHub, type WebHub } from './helpers.js';

// About 12 s on a quiet machine and 32 s with three test files at a time on two cores: near tap's 60 s for a
// file, which fails a file that is merely slow, after its tests have passed.
t.setTimeout(180_000);

/** With HEARTH_SCREENSHOTS=1 the screenshot of this page in docs/zigbee.md is written to docs/. */
const SCREENSHOTS = process.env.HEARTH_SCREENSHOTS === '1' ? join(packageRoot(), 'docs') : undefined;

const OWNER = { name: 'Ada Lovelace', username: 'ada', password: 'analytical engine' };
const { bulb, weather, dimmer, plug, contact } = CATALOGUE;

/** A hub with the real Zigbee driver on a fake stick; the permit-join switch exists once the network is up. */
async function zigbeeHub(t: Teardown): Promise<{ web: WebHub; stick: FakeStick }> {
  await quietZigbeeLogs();
  const stick = new FakeStick();
  t.teardown(stick.install());
  const web = await startWebHub(t, { yaml: `${MINIMAL_CONFIG}zigbee: {}\n` });
  await waitForState(web.hub.core, 'switch.zigbee_permit_join', (s) => s.state === 'off', 10_000);
  return { web, stick };
}

const row = (page: Page, ieee: string) => page.locator(`table.devices tr[data-ieee="${ieee}"]`);

/** Renames a device with the row's form and waits for the list to show the name. */
async function rename(page: Page, ieee: string, name: string): Promise<void> {
  await row(page, ieee).getByRole('button', { name: 'Rename' }).click();
  await row(page, ieee).getByRole('textbox').fill(name);
  await row(page, ieee).getByRole('button', { name: 'Save' }).click();
  await row(page, ieee).locator('.dname', { hasText: name }).waitFor();
}

/** Joins a catalogue device and waits until the log has its interview and the list has the device. */
async function pair(page: Page, stick: FakeStick, key: 'bulb' | 'weather' | 'dimmer' | 'plug' | 'contact'): Promise<void> {
  const { ieee } = stick.join(key);
  await page.locator('.log-lines li', { hasText: `${ieee}: interview successful` }).waitFor();
  await row(page, ieee).waitFor();
}

t.test('the Zigbee page: permit join, a device joins and is interviewed, rename, a button press, remove', async (t) => {
  const { web, stick } = await zigbeeHub(t);
  const { page, problems } = await openBrowser(t, { width: 1280, height: 900 });
  await createOwnerInBrowser(web, page, OWNER);
  const nav = page.getByRole('navigation').getByRole('link', { name: 'Zigbee' });
  t.ok(await nav.isVisible(), 'the nav shows Zigbee');
  await nav.click();
  await page.waitForURL(`${web.url}/zigbee`);
  await page.locator('[data-link="live"]').waitFor();
  await page.getByText('No devices paired yet.').waitFor();

  await page.getByRole('button', { name: /^Permit join/ }).click();
  const state = page.locator('.permit-state[data-open="true"]');
  await state.waitFor();
  const shown = (await state.textContent()) ?? '';
  t.match(shown, /^Joining is open: 4:(1[0-4]|0\d) left$/, 'the countdown shows');
  await page.locator('.permit-state[data-open="true"]', { hasNotText: shown }).waitFor({ timeout: 2500 });
  t.pass('and counts down');
  t.ok(await page.getByRole('button', { name: 'Stop joining' }).isVisible(), 'the button now stops joining');
  t.ok(
    stick.permitJoinCalls.some((c) => c.seconds === 254),
    `the stick saw permit join for 254 s: ${JSON.stringify(stick.permitJoinCalls)}`,
  );

  // A bulb joins: the log shows the join and its interview, the list its model, link quality and power source.
  stick.join('bulb');
  const log = page.locator('.log-lines li');
  await log.filter({ hasText: new RegExp(`${bulb.ieee} joined`) }).waitFor();
  await log.filter({ hasText: /interview successful \(LED1545G12\)/ }).waitFor();
  const bulbRow = row(page, bulb.ieee);
  await bulbRow.waitFor();
  const cells = await bulbRow.locator('td').allTextContents();
  t.match(cells[1], /IKEA.*LED1545G12/, `the model: ${cells[1]}`);
  t.match(cells[4], /mains/i, `the power source: ${cells[4]}`);
  t.match(await page.getByRole('heading', { name: /^Devices/ }).textContent(), /Devices \(1\)/);

  // Rename: the list and the entity's name follow (its id stays).
  const lights = [...web.hub.core.states.entityIds()].filter((id) => id.startsWith('light.') && !/kitchen|hallway/.test(id));
  t.equal(lights.length, 1, `the bulb is one light (${lights.join(', ')})`);
  const lightId = lights[0] ?? '';
  stick.report(bulb.ieee, 1, 'genOnOff', { onOff: 1 }, { linkquality: 87 });
  await waitForState(web.hub.core, lightId, (s) => s.state === 'on');
  await rename(page, bulb.ieee, 'Reading Lamp');
  // The list read after the rename has the link quality of the bulb's last message (the fake stick's interview
  // answers carry none, a real stick's do).
  await bulbRow.locator('td.num', { hasText: '87' }).waitFor();
  t.pass('the link quality of its last message shows');
  const renamed = await waitForState(web.hub.core, lightId, (s) => s.attributes.friendly_name === 'Reading Lamp');
  t.equal(renamed.entity_id, lightId, `the entity keeps its id and takes the name (${lightId})`);

  // A Hue dimmer: its button press shows in the log.
  await pair(page, stick, 'dimmer');
  const customClusters = Device.byIeeeAddr(dimmer.ieee)?.customClusters;
  stick.sendCommand(
    dimmer.ieee,
    2,
    'manuSpecificPhilips',
    'hueNotification',
    { button: 4, unknown1: 3145728, type: 2, unknown2: 0, time: 1, unknown3: 0 },
    { direction: 'server_to_client', manufacturerCode: 0x100b, customClusters },
  );
  await log.filter({ hasText: /off_press_release/ }).waitFor();
  t.pass('the button press is in the log');

  // Remove with force: the row goes.
  const dimmerRow = row(page, dimmer.ieee);
  await dimmerRow.getByRole('button', { name: 'Remove…' }).click();
  await dimmerRow.getByRole('checkbox', { name: 'force' }).check();
  await dimmerRow.getByRole('button', { name: 'Remove', exact: true }).click();
  await dimmerRow.waitFor({ state: 'detached' });
  t.equal(await row(page, bulb.ieee).count(), 1, 'the other device stays');
  t.equal(Device.byIeeeAddr(dimmer.ieee), undefined, 'the dimmer is forgotten');

  // A few more devices with names and link qualities: on a laptop, and on a phone with nothing scrolling sideways.
  for (const key of ['weather', 'plug', 'contact'] as const) await pair(page, stick, key);
  stick.report(weather.ieee, 1, 'msTemperatureMeasurement', { measuredValue: 2345 }, { linkquality: 87 });
  stick.report(contact.ieee, 1, 'genOnOff', { onOff: 1 }, { linkquality: 143 });
  stick.report(plug.ieee, 1, 'haElectricalMeasurement', { activePower: 31 }, { linkquality: 196 });
  await page.getByRole('heading', { name: 'Devices (4)' }).waitFor();
  await rename(page, weather.ieee, 'Living Room Climate');
  await rename(page, contact.ieee, 'Front Door');
  await rename(page, plug.ieee, 'Coffee Plug');
  await row(page, plug.ieee).locator('td.num', { hasText: '196' }).waitFor();
  // The network map: the coordinator's neighbour table, by name.
  stick.neighbours.set(stick.coordinatorIeee, [
    { ieee: bulb.ieee, lqi: 201, relationship: 1, depth: 1 },
    { ieee: plug.ieee, lqi: 150, relationship: 1, depth: 1 },
  ]);
  await page.getByRole('button', { name: 'Load the network map' }).click();
  const link = page.locator('table.links tbody tr', { hasText: 'Reading Lamp' });
  await link.waitFor();
  t.match(await link.textContent(), /Reading Lamp.*201.*child/, 'the map names the devices and their links');
  t.ok(await row(page, bulb.ieee).getByRole('button', { name: 'Check firmware' }).isVisible(), 'a bulb with OTA can be checked');
  if (process.env.HEARTH_ZIGBEE_SHOT !== undefined) await page.screenshot({ path: process.env.HEARTH_ZIGBEE_SHOT, fullPage: true });
  if (SCREENSHOTS !== undefined) {
    await mkdir(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'zigbee.png'), fullPage: true });
  }
  await page.getByRole('button', { name: 'Stop joining' }).click();
  await page.getByText('Joining is closed.').waitFor();
  t.match(stick.permitJoinCalls.at(-1), { seconds: 0 }, 'Stop joining closed pairing on the stick');
  await page.setViewportSize({ width: 390, height: 844 });
  await row(page, plug.ieee).locator('td[data-label="Power"]').waitFor();
  t.ok(await page.evaluate('document.documentElement.scrollWidth <= 390'), 'on a phone nothing scrolls sideways');
  t.ok(await row(page, plug.ieee).getByRole('button', { name: 'Remove…' }).isVisible(), 'the actions are within reach');
  // Not for the docs: to look at the phone layout.
  if (SCREENSHOTS !== undefined) await page.screenshot({ path: join(tmpdir(), 'hearth-zigbee-phone.png'), fullPage: true });
  t.same(problems, [], 'no script errors or CSP violations');
});

t.test('without a zigbee: section the nav has no Zigbee and /zigbee says how to add one', async (t) => {
  const web = await startWebHub(t);
  const { page, problems } = await openBrowser(t);
  await createOwnerInBrowser(web, page, OWNER);
  await page.locator('[data-link="live"]').waitFor();
  t.equal(await page.getByRole('navigation').getByRole('link', { name: 'Zigbee' }).count(), 0, 'no Zigbee in the nav');
  await page.goto(`${web.url}/zigbee`);
  t.ok(await page.getByText('This hub has no Zigbee network.').isVisible(), 'the page says there is no network');
  t.match(await page.locator('pre').textContent(), /zigbee:\n\s+port: \/dev\/serial\/by-id\//, 'and shows a section to add');
  t.same(problems, [], 'no script errors or CSP violations');
});
