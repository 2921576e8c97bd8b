import { readFile } from 'node:fs/promises';
import t from 'tap';
import { createUser } from '../../src/auth/user-admin.js';
import { DEMO_CONFIG_PATH } from '../../src/config/load.js';
import { type BrowserPage, createOwnerInBrowser, openBrowser } from './browser.js';
import { startWebHub, type WebHub } from './helpers.js';

// About 27 s on a quiet machine and 51 s with three test files at a time on two cores: near tap's 60 s for a
// file, which fails a file that is merely slow, after its tests have passed.
t.setTimeout(180_000);

const OWNER = { name: 'Grace Hopper', username: 'grace', password: 'compile everything' };
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 760 };

/** Each page and what shows once it has loaded over the WebSocket. */
const PAGES: readonly (readonly [string, string])[] = [
  ['/config', '.settings-cards a'],
  ['/config/entities', 'table.entities tbody tr'],
  ['/config/devices', 'table.devices tbody tr'],
  ['/config/areas', 'table.areas tbody tr'],
  ['/config/labels', 'table.labels tbody tr'],
  ['/config/helpers', 'table.helpers tbody tr'],
  ['/config/automation/dashboard', 'table.automations tbody tr'],
  ['/config/script/dashboard', 'table.scripts tbody tr'],
  ['/config/scene/dashboard', 'table.scenes tbody tr'],
  ['/config/users', 'table.users tbody tr'],
  ['/history?entity_id=sensor.outdoor_temperature', '.history-charts .chart[data-drawn="true"]'],
  ['/logbook', '.logbook-list, .empty'],
  ['/developer-tools/state', 'table.states tbody tr'],
  ['/developer-tools/action', 'form.call-service'],
  ['/developer-tools/template', '.template-result'],
  ['/developer-tools/event', 'form.fire-event'],
];

let web: WebHub;
let browser: BrowserPage;

t.before(async () => {
  web = await startWebHub(t, { yaml: await readFile(DEMO_CONFIG_PATH, 'utf8') });
  browser = await openBrowser(t, DESKTOP);
  await createOwnerInBrowser(web, browser.page, OWNER);
});

t.test('every page answers at desktop and phone width, with the sidebar or its menu, without a console error', async (t) => {
  const { page, problems } = browser;
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    for (const [path, ready] of PAGES) {
      await page.goto(web.url + path);
      await page.locator(ready).first().waitFor();
      const sidebar = page.getByRole('navigation', { name: 'Pages' });
      if (size === DESKTOP) t.ok(await sidebar.isVisible(), `${path}: the sidebar shows`);
      else {
        t.notOk(await sidebar.isVisible(), `${path}: the sidebar is a menu on a phone`);
        const width = await page.evaluate<number>('document.documentElement.scrollWidth');
        t.ok(width <= size.width + 1, `${path}: no sideways scrolling on a phone (${width}px)`);
      }
    }
  }
  await page.locator('label.menu-button').click();
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Helpers' }).click();
  await page.waitForURL(`${web.url}/config/helpers`);
  t.same(problems, [], 'no script errors or CSP violations');
  await page.goto(`${web.url}/no/such/page`);
  t.match(await page.locator('h1').textContent(), /Page not found/);
  t.ok(await page.locator('label.menu-button').isVisible(), 'the 404 page has the menu');
  problems.length = 0;
  await page.setViewportSize(DESKTOP);
});

const AUTOMATION_YAML = `alias: Bedroom light from the editor
description: Made in the browser
triggers:
  - trigger: event
    event_type: walk_test
actions:
  - action: light.turn_on
    target:
      entity_id: light.bedroom
    data:
      brightness: 120
  - variables:
      done: yes
mode: single
`;

for (const size of [DESKTOP, PHONE]) {
  const phone = size === PHONE;
  t.test(`the walk at ${size.width} px: helper, entity, automation and trace, history, logbook, template, user`, async (t) => {
    const { page, problems } = browser;
    await page.setViewportSize(size);
    const suffix = phone ? 'phone' : 'desk';

    // A helper.
    await page.goto(`${web.url}/config/helpers`);
    await page.getByRole('button', { name: 'Create helper' }).click();
    await page.locator('button[data-kind="input_boolean"]').click();
    await page.getByLabel('Name', { exact: true }).fill(`Guest mode ${suffix}`);
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.locator(`tr[data-entity="input_boolean.guest_mode_${suffix}"]`).waitFor();
    t.pass('the helper is listed');

    // Rename an entity and give it an area.
    await page.goto(`${web.url}/config/entities`);
    // Not ones the demo's customize: section places (the registry refuses to change those here).
    await page.getByLabel('Search entities').fill(phone ? 'boiler' : 'ventilation');
    const entityId = phone ? 'number.boiler_flow_temperature' : 'select.ventilation_program';
    await page.locator(`tr[data-entity="${entityId}"] .name button`).click();
    const dialog = page.locator('dialog.form[open]');
    await dialog.getByLabel('Name').fill(`Renamed ${suffix}`);
    await dialog.getByLabel('Area').selectOption({ label: 'Kitchen' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 4000 }).catch(async (err) => {
      t.comment(await page.locator('.toast').allTextContents());
      throw err;
    });
    await page.getByLabel('Search entities').fill(`renamed ${suffix}`);
    const row = page.locator(`tr[data-entity="${entityId}"]`);
    await row
      .filter({ hasText: `Renamed ${suffix}` })
      .filter({ hasText: 'Kitchen' })
      .waitFor();
    t.equal(web.hub.registries.entities.get(entityId)?.area_id, 'kitchen', 'the area is stored');

    // Write an automation in the editor, save (validated, stored, reloaded), run it and read its trace.
    await page.goto(`${web.url}/config/automation/dashboard`);
    await page.getByRole('link', { name: 'Create automation' }).click();
    await page.waitForURL(/\/config\/automation\/edit\/new$/);
    const alias = `Bedroom light ${suffix}`;
    const [light, lightName] = phone ? ['light.kitchen', 'Kitchen'] : ['light.bedroom', 'Bedroom'];
    if (phone) {
      // The form: a name, an event trigger, a service call with data, and a variables action as YAML.
      await page.getByLabel('Name').fill(alias);
      await page.getByLabel('Add trigger').selectOption('event');
      await page.locator('fieldset[data-part="triggers"] input[name="event_type"]').fill('walk_test');
      await page.getByLabel('Add action').selectOption('action');
      const call = page.locator('fieldset[data-part="actions"][data-index="0"]');
      await call.locator('input[name="action"]').fill('light.turn_on');
      await call.locator('input[name="target.entity_id"]').fill(light);
      await call.locator('textarea[name="data"]').fill('brightness: 120');
      await page.getByLabel('Add action').selectOption('yaml');
      await page.getByLabel('Action 2 YAML').fill('variables:\n  done: yes');
      await page.locator('input[name="description"]').click();
    } else {
      await page.getByRole('button', { name: 'YAML' }).click();
      await page
        .locator('textarea.yaml')
        .fill(AUTOMATION_YAML.replace('Bedroom light from the editor', alias).replace('light.bedroom', light));
    }
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/config\/automation\/edit\/\d+$/, { timeout: 5000 }).catch(async (err) => {
      t.comment(await page.locator('.problems, .toast, fieldset.item').allTextContents());
      throw err;
    });
    await page.getByRole('button', { name: 'Run' }).click();
    await page.getByRole('link', { name: 'Traces' }).click();
    await page.waitForURL(/\/config\/automation\/trace\/\d+$/);
    const steps = page.locator('.run-steps .step');
    await steps.first().waitFor();
    const text = (await steps.allTextContents()).join(' | ');
    t.match(
      text,
      new RegExp(`Action 1: light\\.turn_on.*Called light\\.turn_on on entity_id: ${light} with brightness: 120`),
      `the trace in words: ${text}`,
    );
    t.match(text, /Changed variables: done/, 'with the changed variables');
    await page.goto(`${web.url}/config/automation/dashboard`);
    await page.locator('table.automations tr', { hasText: alias }).waitFor();

    // A week of a sensor's history: one line chart in °C over the week.
    await page.goto(`${web.url}/history?entity_id=sensor.outdoor_temperature`);
    await page.locator('button[data-range="7d"]').click();
    await page.locator('.history-charts[data-loaded="7d"] .chart[data-drawn="true"]').waitFor();
    t.equal(await page.locator('.history-charts[data-loaded="7d"] figure[data-unit="°C"]').count(), 1, 'one chart for °C');

    // A day of the logbook: the light the automation turned on, and why.
    await page.goto(`${web.url}/logbook?entity_id=${light}`);
    await page.locator('button[data-range="24h"]').click();
    const entry = page.locator('.logbook-list[data-loaded="24h"] li.entry', { hasText: 'turned on' }).first();
    await entry.waitFor();
    t.match(
      await entry.textContent(),
      new RegExp(`${lightName} turned on triggered by automation ${alias}`),
      'the logbook names the cause',
    );

    // A template rendered live, with its listeners.
    await page.goto(`${web.url}/developer-tools/template`);
    await page.getByLabel('Template').fill(`{{ states('${light}') }} / {{ state_attr('${light}', 'brightness') }}`);
    await page.locator('.template-result', { hasText: 'on / 120' }).waitFor();
    t.match(await page.locator('.listeners').textContent(), new RegExp(light.replace('.', '\\.')), 'its listeners');

    // A user who is not an administrator.
    await page.goto(`${web.url}/config/users`);
    await page.getByRole('button', { name: 'Add user' }).click();
    const add = page.locator('dialog.form[open]');
    await add.getByLabel('Display name').fill(`Kid ${suffix}`);
    await add.getByLabel('Username').fill(`kid${suffix}`);
    await add.getByLabel('Password', { exact: true }).fill('a long password');
    await add.getByLabel('Password again').fill('a long password');
    await add.getByRole('button', { name: 'Create' }).click();
    const kid = page.locator(`tr[data-user="kid${suffix}"]`);
    await kid.waitFor();
    t.match(await kid.textContent(), /Users/, 'in the users group');
    const user = await web.hub.auth.checkPassword(`kid${suffix}`, 'a long password');
    t.equal(user?.isAdmin, false, 'can log in, and is no admin');
    t.same(problems, [], 'no script errors or CSP violations');
  });
}

t.test('the dashboard: area jump links, a filter by area and label, full names, a code prompt for a lock', async (t) => {
  const { page, problems } = browser;
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await page.goto(`${web.url}/`);
    await page.locator('[data-link="live"]').waitFor();
    const jumps = page.getByRole('navigation', { name: 'Areas' });
    await jumps.getByRole('link', { name: 'Garage' }).click();
    await page.waitForURL(/#area-garage$/);
    const header = await page.locator('header.top').boundingBox();
    t.ok(header !== null && header.height < 70, `the header stays one line at ${size.width} px (${header?.height} px)`);

    await page.getByLabel('Filter entities').fill('security');
    await page.locator('article[data-entity="lock.front_door"]').waitFor();
    t.equal(await page.locator('article[data-entity="light.kitchen"]').count(), 0, 'a label filters');
    await page.getByLabel('Filter entities').fill('bedroom');
    await page.locator('article[data-entity="fan.desk"]').waitFor();
    t.pass('an area filters');
    await page.getByLabel('Filter entities').fill('');

    const lock = page.locator('article[data-entity="lock.front_door"]');
    t.match(await lock.locator('h4.name').getAttribute('title'), /^Front Door \(lock\.front_door\)$/, 'the full name on hover');
    const unlock = lock.getByRole('button', { name: /^(Unlock|Lock)$/ });
    await unlock.click();
    await lock.locator('.code-prompt').waitFor();
    t.match(await lock.locator('.code-prompt').textContent(), /Enter the code/, 'asks for the code');
    t.equal(await page.locator('.toast').count(), 0, 'no error with a regular expression');
  }
  await page.setViewportSize(DESKTOP);
  t.same(problems, [], 'no script errors or CSP violations');
});

t.test("the entity settings dialog: a sensor's unit and display precision, a binary sensor's device class", async (t) => {
  const { page, problems } = browser;
  await page.goto(`${web.url}/config/entities`);
  await page.getByLabel('Search entities').fill('house power');
  await page.locator('tr[data-entity="sensor.house_power"] .name button').click();
  const dialog = page.locator('dialog.form[open]');
  await dialog.getByLabel('Unit of measurement').selectOption('kW');
  await dialog.getByLabel('Display precision').selectOption('2');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'detached', timeout: 4000 });
  const state = () => web.hub.core.states.get('sensor.house_power');
  t.equal(state()?.attributes.unit_of_measurement, 'kW', 'the hub converts the state');
  t.ok(Number(state()?.state) < 4, `in kilowatts (${state()?.state})`);
  t.same(web.hub.registries.entities.get('sensor.house_power').options, {
    sensor: { unit_of_measurement: 'kW', display_precision: 2 },
  });

  await page.goto(`${web.url}/`);
  const card = page.locator('article[data-entity="sensor.house_power"] .state');
  await card.filter({ hasText: /^\d+\.\d\d kW$/ }).waitFor();
  t.pass(`the dashboard shows two decimals in kW (${await card.textContent()})`);

  await page.goto(`${web.url}/config/entities`);
  await page.getByLabel('Search entities').fill('front door');
  await page.locator('tr[data-entity="binary_sensor.front_door"] .name button').click();
  await dialog.getByLabel('Show as').selectOption('window');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'detached', timeout: 4000 });
  t.equal(web.hub.core.states.get('binary_sensor.front_door')?.attributes.device_class, 'window', 'the state shows the new class');

  web.hub.registries.entities.update('sensor.house_power', { options_domain: 'sensor', options: null });
  web.hub.registries.entities.update('binary_sensor.front_door', { device_class: null });
  t.equal(state()?.attributes.unit_of_measurement, 'W', 'back in watts');
  t.same(problems, [], 'no script errors or CSP violations');
});

// The pictures in docs/web-pages.md: HEARTH_SCREENSHOTS=1 npx tap test/web/settings-browser.test.ts
t.test('screenshots for the docs', { skip: process.env.HEARTH_SCREENSHOTS !== '1' }, async () => {
  const { page } = browser;
  const dir = new URL('../../docs/screenshots/', import.meta.url).pathname;
  const shot = async (name: string, fullPage = false) => {
    await page.screenshot({ path: `${dir}${name}.png`, fullPage });
  };
  await page.setViewportSize({ width: 960, height: 600 });
  await page.goto(`${web.url}/config/entities`);
  await page.locator('table.entities tbody tr').first().waitFor();
  await page.locator('tr[data-entity="light.kitchen"] .name button').click();
  await page.locator('dialog.form[open]').waitFor();
  await shot('entities');
  await page.goto(`${web.url}/config/entities`);
  await page.getByLabel('Search entities').fill('outdoor temperature');
  await page.locator('tr[data-entity="sensor.outdoor_temperature"] .name button').click();
  await page.locator('dialog.form[open]').getByLabel('Display precision').scrollIntoViewIfNeeded();
  await shot('entity-settings');
  await page.goto(`${web.url}/config/automation/dashboard`);
  await page.locator('table.automations tbody tr').first().waitFor();
  const edited = page.locator('table.automations tr', { hasText: 'Bedroom light desk' }).getByRole('link', { name: 'Edit' });
  await edited.click();
  await page.locator('fieldset.item').first().waitFor();
  await shot('automation-editor');
  await page.goto(page.url().replace('/edit/', '/trace/'));
  await page.locator('.run-steps .step').first().waitFor();
  await shot('trace');
  await page.goto(
    `${web.url}/history?entity_id=sensor.outdoor_temperature,sensor.living_room_temperature,climate.living_room,binary_sensor.hallway_motion,light.hallway&range=1h`,
  );
  await page.locator('.history-charts .chart[data-drawn="true"]').first().waitFor();
  await shot('history');
  await page.goto(`${web.url}/logbook?range=24h`);
  await page.locator('.logbook-list li.entry').first().waitFor();
  await shot('logbook');
  await page.goto(`${web.url}/developer-tools/template`);
  await page.locator('.listeners').waitFor();
  await shot('template');
  await page.setViewportSize({ width: 375, height: 600 });
  await page.goto(`${web.url}/config/helpers`);
  await page.locator('table.helpers tbody tr').first().waitFor();
  await page.locator('label.menu-button').click();
  await shot('phone-menu');
  await page.goto(`${web.url}/history?entity_id=sensor.outdoor_temperature,climate.living_room,light.hallway&range=1h`);
  await page.locator('.history-charts .chart[data-drawn="true"]').first().waitFor();
  await shot('phone-history', true);
  await page.goto(`${web.url}/`);
  await page.locator('[data-link="live"]').waitFor();
  await shot('phone-dashboard');
  await page.setViewportSize(DESKTOP);
});

t.test('a user who is not an administrator reads the pages and changes their own password', async (t) => {
  await web.hub.auth.setPassword((await createUser(web.hub.auth, 'Reader', false)).id, 'reader', 'reader password');
  const { page, problems } = await openBrowser(t, PHONE);
  await page.goto(`${web.url}/config/users`);
  await page.waitForURL(/\/login\?next=/);
  await page.getByLabel('Username').fill('reader');
  await page.getByLabel('Password').fill('reader password');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${web.url}/config/users`);
  await page.getByText('Only administrators manage users').waitFor();
  await page.getByLabel('Current password').fill('reader password');
  await page.getByLabel('New password', { exact: true }).fill('a new reader password');
  await page.getByLabel('New password again').fill('a new reader password');
  await page.getByRole('button', { name: 'Change password' }).click();
  await page.locator('.toast', { hasText: 'Your password was changed.' }).waitFor();
  t.ok(await web.hub.auth.checkPassword('reader', 'a new reader password'), 'the new password works');
  await page.goto(`${web.url}/config/entities`);
  await page.locator('table.entities tbody tr').first().waitFor();
  t.equal(await page.getByRole('button', { name: 'Create helper' }).count(), 0);
  t.same(problems, [], 'no script errors or CSP violations');
});
