import t from 'tap';
import { CATALOGUE } from '../fixtures/zigbee/catalogue.js';
import { FakeStick, quietZigbeeLogs } from '../fixtures/zigbee/fake-stick.js';
import { MINIMAL_CONFIG } from '../helpers/hub.js';
import { waitForState } from '../helpers/wait.js';
import { createOwnerInBrowser, openBrowser } from './browser.js';
import { startWebHub } from './helpers.js';

// About 12 s on a quiet machine and 28 s with three test files at a time on two cores: near tap's 60 s for a
// file, which fails a file that is merely slow, after its tests have passed.
t.setTimeout(180_000);

// The per-device Zigbee page, reached from the device list on /zigbee: live values, a setting, firmware, bindings, reporting.

const OWNER = { name: 'Ada Lovelace', username: 'ada', password: 'analytical engine' };
const { bulb, trv } = CATALOGUE;

t.test('a Zigbee device page: what it is, live exposes, a setting, firmware, bind, reporting; on a laptop and a phone', async (t) => {
  await quietZigbeeLogs();
  const stick = new FakeStick();
  t.teardown(stick.install());
  const web = await startWebHub(t, { yaml: `${MINIMAL_CONFIG}zigbee:\n  devices:\n    '${bulb.ieee}': {friendly_name: Reading Lamp}\n` });
  await waitForState(web.hub.core, 'switch.zigbee_permit_join', (s) => s.state === 'off', 10_000);
  const { page, problems } = await openBrowser(t, { width: 1280, height: 900 });
  await createOwnerInBrowser(web, page, OWNER);
  await page.goto(`${web.url}/zigbee`);
  await page.getByRole('button', { name: /^Permit join/ }).click();
  stick.join('bulb');
  const link = page.locator(`tr[data-ieee="${bulb.ieee}"] a.dname`);
  await link.waitFor();
  await link.click();
  await page.waitForURL(`${web.url}/zigbee/device/${bulb.ieee}`);
  await page.getByRole('heading', { name: 'Reading Lamp', level: 1 }).waitFor();
  await page.locator('[data-link="live"]').waitFor();

  const facts = (await page.locator('section[aria-labelledby="about-title"] dl').textContent()) ?? '';
  for (const want of ['IKEA LED1545G12', 'successful', 'Mains (single phase)', '2.0.029', '20170905'])
    t.ok(facts.includes(want), `the facts show ${want}`);

  // A live value: the bulb reports on, the page follows without a reload.
  const light = page.locator('tr[data-entity="light.reading_lamp"] td.live');
  stick.report(bulb.ieee, 1, 'genOnOff', { onOff: 1 });
  await page.locator('tr[data-entity="light.reading_lamp"] td.live', { hasText: 'on' }).waitFor();
  t.equal(await light.textContent(), 'on', 'the light shows on');

  // A setting as a control: power-on behaviour, a select entity.
  const setting = page.locator('table.settings tr:has(select)').first();
  const select = setting.locator('select');
  await select.waitFor();
  const selectId = (await setting.getAttribute('data-entity')) ?? '';
  t.match(selectId, /^select\.reading_lamp_/, `a select setting: ${selectId}`);
  const options = await select.locator('option').allTextContents();
  const other = options.find((o) => o !== web.hub.core.states.get(selectId)?.state) ?? '';
  await select.selectOption(other);
  await waitForState(web.hub.core, selectId, (s) => s.state === other);
  t.pass(`choosing ${other} set ${selectId}`);

  // Firmware: the update entity's versions and its buttons.
  const fw = page.locator('section[aria-labelledby="fw-title"]');
  await fw.getByRole('button', { name: 'Install' }).waitFor();
  t.ok(await fw.getByRole('button', { name: 'Skip' }).isVisible(), 'install and skip are offered');

  // Bind to the coordinator with the default clusters: the binding shows.
  const bindForm = page.getByRole('form', { name: 'Bind' });
  await bindForm.getByRole('button', { name: 'Bind' }).click();
  await page.locator('section[aria-labelledby="bind-title"] table tr', { hasText: 'genScenes' }).waitFor();
  t.pass('the binding is listed');

  // Reporting: the form sends zigbee/configure_reporting and shows its answer, whatever it is.
  const report = page.getByRole('form', { name: 'Configure reporting' });
  await report.getByLabel('Cluster').selectOption('genOnOff');
  await report.getByLabel('Attribute').fill('onOff');
  await report.getByRole('button', { name: 'Configure reporting' }).click();
  const answer = page.locator('[data-answer]');
  await answer.waitFor();
  t.ok(((await answer.textContent()) ?? '').length > 0, `the answer shows: ${await answer.textContent()}`);

  if (process.env.HEARTH_ZIGBEE_SHOT !== undefined) await page.screenshot({ path: process.env.HEARTH_ZIGBEE_SHOT, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('heading', { name: 'Reading Lamp', level: 1 }).waitFor();
  // The layout settles after the resize (the sidebar folds away): wait for it, with a deadline.
  const fits = await page.waitForFunction('document.documentElement.scrollWidth <= 390', undefined, { timeout: 5000 }).then(
    () => true,
    () => false,
  );
  const wide = await page.evaluate(
    "[document.documentElement, document.body, ...document.querySelectorAll('body *')].filter((e) => e.scrollWidth > 391 || e.getBoundingClientRect().right > 391).map((e) => e.tagName + '.' + e.className + ' ' + e.scrollWidth + '/' + Math.round(e.getBoundingClientRect().right)).slice(0, 12).join('; ')",
  );
  const width = await page.evaluate('document.documentElement.scrollWidth');
  t.ok(fits, `on a phone nothing scrolls sideways (${width} px wide; ${wide})`);
  t.ok(await page.getByRole('button', { name: 'Remove…' }).isVisible(), 'remove is within reach');
  t.same(problems, [], 'no script errors or CSP violations');
});

t.test('a device page for something that is no IEEE address says so', async (t) => {
  const stick = new FakeStick();
  t.teardown(stick.install());
  const web = await startWebHub(t, { yaml: `${MINIMAL_CONFIG}zigbee: {}\n` });
  const { page, problems } = await openBrowser(t);
  await createOwnerInBrowser(web, page, OWNER);
  const r = await page.goto(`${web.url}/zigbee/device/not-an-address`);
  t.equal(r?.status(), 404);
  t.ok(await page.getByText('That is not a Zigbee IEEE address').isVisible());
  // The browser reports the page's own 404 status as a console error.
  t.same(
    problems.filter((p) => !/status of 404/.test(p)),
    [],
    'no script errors or CSP violations',
  );
});

t.test("a radiator valve's page: a number setting changes the device; its switches are there", async (t) => {
  await quietZigbeeLogs();
  const stick = new FakeStick();
  t.teardown(stick.install());
  const web = await startWebHub(t, { yaml: `${MINIMAL_CONFIG}zigbee:\n  devices:\n    '${trv.ieee}': {friendly_name: Radiator}\n` });
  await waitForState(web.hub.core, 'switch.zigbee_permit_join', (s) => s.state === 'off', 10_000);
  await web.hub.core.services.call('zigbee', 'permit_join', {});
  stick.join('trv');
  await waitForState(web.hub.core, 'number.radiator_max_heat_setpoint_limit', () => true, 10_000);
  const { page, problems } = await openBrowser(t, { width: 1280, height: 900 });
  await createOwnerInBrowser(web, page, OWNER);
  await page.goto(`${web.url}/zigbee/device/${trv.ieee}`);
  await page.getByRole('heading', { name: 'Radiator', level: 1 }).waitFor();
  t.match((await page.locator('section[aria-labelledby="about-title"] dl').textContent()) ?? '', /Battery/, 'a battery device');

  const limit = page.locator('tr[data-entity="number.radiator_max_heat_setpoint_limit"] input');
  await limit.waitFor();
  t.equal(await limit.getAttribute('step'), '0.5', 'the number keeps its step');
  await limit.fill('28');
  await limit.press('Enter');
  await limit.blur();
  await waitForState(web.hub.core, 'number.radiator_max_heat_setpoint_limit', (s) => Number(s.state) === 28, 5000);
  t.pass('the number setting was set');

  // Its switches are Danfoss attributes the fake adapter does not model: the control is there, off or on.
  t.equal(await page.locator('tr[data-entity="switch.radiator_viewing_direction"] input[role="switch"]').count(), 1, 'a switch setting');
  t.same(problems, [], 'no script errors or CSP violations');
});
