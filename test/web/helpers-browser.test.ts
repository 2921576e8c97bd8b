import t from 'tap';
import type { Hub } from '../../src/hub.js';
import { withDeadline } from '../api/ws-client.js';
import { MINIMAL_CONFIG } from '../helpers/hub.js';
import { createOwnerInBrowser, openBrowser } from './browser.js';
import { startWebHub } from './helpers.js';

const YAML = `${MINIMAL_CONFIG}
input_boolean:
  guests: {name: Guests}
input_number:
  target: {name: Target, min: 0, max: 30, step: 1}
input_select:
  house: {name: House, options: [Home, Away, Night]}
input_button:
  bell: {name: Bell}
counter:
  cups: {name: Cups}
timer:
  tea: {name: Tea, duration: 180}
`;

function until(
  hub: Hub,
  entityId: string,
  ok: (state: string, attrs: Readonly<Record<string, unknown>>) => boolean,
  what: string,
): Promise<void> {
  const now = hub.core.states.get(entityId);
  if (now !== undefined && ok(now.state, now.attributes)) return Promise.resolve();
  let stop = (): void => {};
  return withDeadline(
    new Promise<void>((resolve) => {
      stop = hub.core.bus.on('test:browser', 'state_changed', (event) => {
        const next = event.data.new_state;
        if (event.data.entity_id === entityId && next !== null && ok(next.state, next.attributes)) resolve();
      });
    }),
    3000,
    `${entityId}: ${what}`,
  ).finally(() => stop());
}

t.test('the dashboard drives the helpers with their own controls', async (t) => {
  const web = await startWebHub(t, { yaml: YAML });
  const { page, problems } = await openBrowser(t, { width: 1280, height: 1500 });
  await createOwnerInBrowser(web, page, { name: 'Ada', username: 'ada', password: 'analytical engine' });
  await page.locator('[data-link="live"]').waitFor();
  const card = (id: string) => page.locator(`article[data-entity="${id}"]`);

  await card('input_boolean.guests').getByRole('switch').click();
  await until(web.hub, 'input_boolean.guests', (s) => s === 'on', 'on');
  t.pass('input_boolean toggled');

  const slider = card('input_number.target').locator('input[type="range"]');
  await slider.fill('21');
  await slider.dispatchEvent('change');
  await until(web.hub, 'input_number.target', (s) => s === '21.0', '21');
  t.pass('input_number set by its slider');

  await card('input_select.house').locator('select').selectOption('Night');
  await until(web.hub, 'input_select.house', (s) => s === 'Night', 'Night');
  t.pass('input_select picked');

  await card('input_button.bell').getByRole('button', { name: 'Press' }).click();
  await until(web.hub, 'input_button.bell', (s) => s !== 'unknown', 'pressed');
  t.pass('input_button pressed');

  await card('counter.cups').getByRole('button', { name: '+' }).click();
  await until(web.hub, 'counter.cups', (s) => s === '1', '1');
  await card('counter.cups').getByRole('button', { name: 'Reset' }).click();
  await until(web.hub, 'counter.cups', (s) => s === '0', '0');
  t.pass('counter incremented and reset');

  await card('timer.tea').getByRole('button', { name: 'Start' }).click();
  await until(web.hub, 'timer.tea', (s) => s === 'active', 'active');
  await card('timer.tea').getByRole('button', { name: 'Pause' }).click();
  await until(web.hub, 'timer.tea', (s) => s === 'paused', 'paused');
  await card('timer.tea').locator('.detail', { hasText: 'left' }).waitFor({ timeout: 1000 });
  await card('timer.tea').getByRole('button', { name: 'Cancel' }).click();
  await until(web.hub, 'timer.tea', (s) => s === 'idle', 'idle');
  t.pass('timer started, paused and cancelled');
  t.same(problems, [], 'no script errors or CSP violations');
});
