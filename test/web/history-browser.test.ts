import t from 'tap';
import { createOwnerInBrowser, openBrowser } from './browser.js';
import { rest, startWebHub } from './helpers.js';

const OWNER = { name: 'Grace Hopper', username: 'grace', password: 'compile everything' };

t.test('clicking an entity opens its history: a line graph, a timeline, a range picker and the logbook', async (t) => {
  const web = await startWebHub(t);
  const { page, problems } = await openBrowser(t, { width: 1280, height: 1000 });
  const sent: string[] = [];
  page.on('websocket', (ws) => ws.on('framesent', (f) => sent.push(String(f.payload))));
  await createOwnerInBrowser(web, page, OWNER);
  await page.locator('[data-link="live"]').waitFor();

  const token = await web.hub.auth.createToken(web.hub.auth.ownerUser()?.id ?? '', 'script');
  const post = (path: string, body: unknown) =>
    rest(web, path, token, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  for (const v of ['12.5', '13', '14.5']) {
    await post('/api/states/sensor.outside', {
      state: v,
      attributes: { unit_of_measurement: '°C', state_class: 'measurement', friendly_name: 'Outside' },
    });
  }
  await post('/api/services/switch/turn_on', { entity_id: 'switch.coffee_maker' });
  await post('/api/services/switch/turn_off', { entity_id: 'switch.coffee_maker' });

  const dialog = page.locator('#history-dialog');
  await page.locator('article[data-entity="sensor.outside"] .history-link').click();
  await dialog.locator('.chart[data-loaded="24h"][data-kind="line"][data-points="3"]').waitFor();
  t.ok(await dialog.locator('.chart canvas').isVisible(), 'uPlot drew a canvas');
  t.match(await dialog.locator('.chart').textContent(), /°C/, 'the unit is on the graph');
  t.equal(await dialog.getByRole('heading', { level: 2 }).textContent(), 'Outside');

  const queries = () => sent.filter((f) => f.includes('history/history_during_period')).length;
  const before = queries();
  await dialog.locator('button[data-range="1h"]').click();
  await dialog.locator('button[data-range="1h"][aria-pressed="true"]').waitFor();
  await dialog.locator('.chart[data-loaded="1h"][data-kind="line"]').waitFor();
  // A round trip to the page: the protocol delivers the frame events that came before its answer first.
  await page.evaluate(() => 0);
  t.ok(queries() > before, 'a new range sends a new query');
  await dialog.locator('.chart[data-loaded="1h"][data-span="3600"]').waitFor();
  t.pass('the axis spans the hour asked for, not just the data');
  await dialog.locator('button[data-range="7d"]').click();
  await dialog.locator('.chart[data-loaded="7d"][data-span="604800"]').waitFor();
  t.pass('and then the week');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  t.pass('Escape closes it');

  await page.locator('article[data-entity="switch.coffee_maker"] .history-link').click();
  await dialog.locator('.chart[data-kind="timeline"]').waitFor();
  const entries = await dialog.locator('.logbook li').allTextContents();
  t.ok(entries.some((e) => /turned on/.test(e)) && entries.some((e) => /turned off/.test(e)), `logbook: ${entries.join(' | ')}`);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'hidden' });

  // A climate's history: its current and target temperatures as lines, its mode as a timeline (as HA's).
  for (const current of [19.5, 20.5]) {
    await post('/api/states/climate.study', {
      state: 'heat',
      attributes: { current_temperature: current, temperature: 21, hvac_modes: ['off', 'heat'], friendly_name: 'Study' },
    });
  }
  await page.locator('article[data-entity="climate.study"] .history-link').click();
  await dialog.locator('.chart[data-kind="line"][data-points="2"]').waitFor();
  t.match(await dialog.locator('.chart').textContent(), /Study current temperature.*Study target temperature/s, 'both temperatures');
  await dialog.locator('.chart-modes .timeline-row').waitFor();
  t.pass('and the mode as a timeline');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'hidden' });

  await page.setViewportSize({ width: 375, height: 800 });
  await page.locator('article[data-entity="sensor.outside"] .history-link').click();
  await dialog.locator('.chart[data-kind="line"]').waitFor();
  const box = await dialog.boundingBox();
  t.ok(box !== null && box.width <= 375, 'fits a phone');
  t.same(problems, [], 'no script errors or CSP violations');
});
