import t from 'tap';
import type { Hub } from '../../src/hub.js';
import { withDeadline } from '../api/ws/client.js';
import { MINIMAL_CONFIG } from '../helpers/hub.js';
import { createOwnerInBrowser, openBrowser } from './browser.js';
import { startWebHub } from './helpers.js';

const YAML = `${MINIMAL_CONFIG}
  - {platform: number, id: setpoint, name: Setpoint, min: 40, max: 80, mode: box, initial: 60, unit_of_measurement: °C}
  - {platform: number, id: volume, name: Volume, min: 0, max: 10, initial: 2}
  - {platform: select, id: program, name: Program, options: [eco, boost]}
  - {platform: button, id: chime, name: Chime}
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

  // The devices' number, select and button use the same controls.
  const box = card('number.setpoint').locator('input[type="number"]');
  await box.fill('72');
  await box.blur();
  await until(web.hub, 'number.setpoint', (s) => s === '72', '72');
  t.pass('a number in box mode set by typing');
  const volume = card('number.volume').locator('input[type="range"]');
  // fill() fires input and change on a range itself; a second change would race the first call's answer.
  await volume.fill('7');
  await until(web.hub, 'number.volume', (s) => s === '7', '7');
  t.pass('a number set by its slider');
  await card('select.program').locator('select').selectOption('boost');
  await until(web.hub, 'select.program', (s) => s === 'boost', 'boost');
  t.pass('a select picked');
  await card('button.chime').getByRole('button', { name: 'Press' }).click();
  await until(web.hub, 'button.chime', (s) => s !== 'unknown', 'pressed');
  await card('button.chime').locator('.state', { hasText: 'Pressed' }).waitFor({ timeout: 1000 });
  t.pass('a button pressed, its card says when');
  t.same(problems, [], 'no script errors or CSP violations');
});
