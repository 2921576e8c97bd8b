import t from 'tap';
import { CATALOGUE } from '../fixtures/zigbee/catalogue.js';
import { FakeStick, quietZigbeeLogs } from '../fixtures/zigbee/fake-stick.js';
import { MINIMAL_CONFIG } from '../helpers/hub.js';
import { waitForState } from '../helpers/wait.js';
import { createOwnerInBrowser, openBrowser } from './browser.js';
import { startWebHub } from './helpers.js';

// The Zigbee page's groups section: create a group, add a paired bulb to it (its light appears), remove a member
// and the group, all through the zigbee/group/* WebSocket commands.

const OWNER = { name: 'Ada Lovelace', username: 'ada', password: 'analytical engine' };
const { bulb } = CATALOGUE;

t.test('the Zigbee page: create a group, add a bulb, remove it, remove the group', async (t) => {
  await quietZigbeeLogs();
  const stick = new FakeStick();
  t.teardown(stick.install());
  const web = await startWebHub(t, {
    yaml: `${MINIMAL_CONFIG}zigbee:\n  devices:\n    '${bulb.ieee}': {friendly_name: Desk Lamp}\n`,
  });
  const core = web.hub.core;
  await waitForState(core, 'switch.zigbee_permit_join', (s) => s.state === 'off', 10_000);
  await core.services.call('zigbee', 'permit_join', {});
  stick.join('bulb');
  await waitForState(core, 'light.desk_lamp', () => true, 10_000);

  const { page, problems } = await openBrowser(t, { width: 1280, height: 900 });
  await createOwnerInBrowser(web, page, OWNER);
  await page.goto(`${web.url}/zigbee`);
  await page.getByText('No groups.', { exact: false }).waitFor();

  await page.getByRole('textbox', { name: 'New group name' }).fill('Hall');
  await page.getByRole('button', { name: 'Create group' }).click();
  const group = page.locator('tr.zgroup', { hasText: 'Hall' });
  await group.waitFor();
  await page.getByRole('heading', { name: 'Groups (1)' }).waitFor();

  await group.getByRole('combobox', { name: 'Device' }).selectOption({ label: 'Desk Lamp' });
  await group.getByRole('button', { name: 'Add' }).click();
  await group.locator('.zmember', { hasText: 'Desk Lamp' }).waitFor();
  await group.getByText('light.hall').waitFor();
  t.ok(core.states.get('light.hall'), 'the group light exists');

  await group.getByRole('button', { name: 'Remove Desk Lamp from Hall' }).click();
  await group.locator('.zmember').waitFor({ state: 'detached' });
  t.same(stick.groups.membersOf(1), [], 'the bulb left the group');

  page.once('dialog', (dialog) => void dialog.accept());
  await group.getByRole('button', { name: 'Remove', exact: true }).click();
  await group.waitFor({ state: 'detached' });
  await page.getByText('No groups.', { exact: false }).waitFor();
  t.same(problems, [], 'no script errors or CSP violations');
});
