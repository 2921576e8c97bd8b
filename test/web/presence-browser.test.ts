import t from 'tap';
import { createOwnerInBrowser, openBrowser } from './browser.js';
import { startWebHub } from './helpers.js';

const YAML = `
hub:
  name: Test Home
  latitude: 32.87336
  longitude: -117.22743
  time_zone: America/Los_Angeles
zone:
  - name: Work
    latitude: 32.8773367
    longitude: -117.2494053
person:
  - id: paulus1
    name: Paulus
    device_trackers: [device_tracker.paulus_phone]
`;

t.test('/config/zone and /config/person: the YAML ones read-only, new ones made, changed and deleted in the page', async (t) => {
  const web = await startWebHub(t, { yaml: YAML });
  await web.hub.core.services.call('device_tracker', 'see', { dev_id: 'anne_phone', location_name: 'home' });
  const { page, problems } = await openBrowser(t, { width: 1280, height: 900 });
  await createOwnerInBrowser(web, page, { name: 'Ada', username: 'ada', password: 'analytical engine' });

  await page.goto(`${web.url}/config/zone`);
  await page.locator('tr[data-zone="zone.work"]').waitFor();
  t.match(await page.locator('tr[data-zone="zone.work"]').textContent(), /YAML.*read-only/);
  t.match(await page.locator('tr[data-zone="zone.home"]').textContent(), /Home/);
  await page.getByRole('button', { name: 'Add zone' }).click();
  const add = page.locator('dialog.form[open]');
  await add.getByLabel('Name').fill('Gym');
  await add.getByLabel('Latitude').fill('32.9');
  await add.getByLabel('Longitude').fill('-117.2');
  await add.getByLabel('Radius (m)').fill('75');
  await add.getByRole('button', { name: 'Create' }).click();
  await page.locator('tr[data-zone="gym"]').waitFor();
  t.match(web.hub.core.states.get('zone.gym')?.attributes, { radius: 75, latitude: 32.9, editable: true }, 'zone.gym exists');
  await page.locator('tr[data-zone="gym"]').getByRole('button', { name: 'Edit' }).click();
  const edit = page.locator('dialog.form[open]');
  await edit.getByLabel('Radius (m)').fill('120');
  await edit.getByRole('button', { name: 'Save' }).click();
  await page.locator('tr[data-zone="gym"]', { hasText: '120 m' }).waitFor();
  t.equal(web.hub.core.states.get('zone.gym')?.attributes.radius, 120, 'updated');

  await page.goto(`${web.url}/config/person`);
  await page.locator('tr[data-person="paulus1"]').waitFor();
  t.match(await page.locator('tr[data-person="paulus1"]').textContent(), /YAML.*read-only/);
  await page.getByRole('button', { name: 'Add person' }).click();
  const person = page.locator('dialog.form[open]');
  await person.getByLabel('Name').fill('Anne');
  await person.getByLabel('device_tracker.anne_phone').check();
  await person.getByRole('button', { name: 'Create' }).click();
  await page.locator('tr[data-person="anne"]', { hasText: 'home' }).waitFor();
  t.equal(web.hub.core.states.get('person.anne')?.state, 'home', 'the new person follows her phone');
  page.once('dialog', (d) => void d.accept());
  await page.locator('tr[data-person="anne"]').getByRole('button', { name: 'Edit' }).click();
  await page.locator('dialog.form[open]').getByRole('button', { name: 'Delete' }).click();
  await page.locator('tr[data-person="anne"]').waitFor({ state: 'detached' });
  t.equal(web.hub.core.states.get('person.anne'), undefined, 'deleted');
  t.same(problems, [], 'no script errors or CSP violations');
});
