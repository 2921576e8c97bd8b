import t from 'tap';
import { MINIMAL_CONFIG } from '../helpers/hub.js';
import { waitForState } from '../helpers/wait.js';
import { createOwnerInBrowser, openBrowser } from './browser.js';
import { rest, startWebHub } from './helpers.js';

const OWNER = { name: 'Margaret Hamilton', username: 'margaret', password: 'priority displays' };

const CONFIG = `${MINIMAL_CONFIG}
automation:
  - id: porch_light
    alias: Porch light
    triggers:
      - trigger: event
        event_type: porch
    conditions:
      - "{{ trigger.event.data.dark | default(false) }}"
    actions:
      - choose:
          - conditions: "{{ trigger.event.data.late | default(false) }}"
            sequence:
              - action: light.turn_on
                target: { entity_id: light.hallway }
                data: { brightness: 40 }
        default:
          - action: light.turn_on
            target: { entity_id: light.hallway }
      - variables: { lit: "yes" }
script:
  broken:
    alias: Broken script
    sequence:
      - action: light.no_such_service
        target: { entity_id: light.hallway }
`;

t.test('an automation card shows its last runs, and a chosen run its steps with results, variables and errors', async (t) => {
  const web = await startWebHub(t, { yaml: CONFIG });
  const { page, problems } = await openBrowser(t, { width: 1280, height: 1000 });
  await createOwnerInBrowser(web, page, OWNER);
  await page.locator('[data-link="live"]').waitFor();

  const token = await web.hub.auth.createToken(web.hub.auth.ownerUser()?.id ?? '', 'script');
  const post = (path: string, body: unknown) =>
    rest(web, path, token, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  t.equal((await post('/api/events/porch', { dark: false })).status, 200);
  t.equal((await post('/api/events/porch', { dark: true, late: true })).status, 200);
  await post('/api/services/script/turn_on', { entity_id: 'script.broken' });
  // Both runs over (the light is on and no run is current; the script was triggered and is off again), so the
  // dialog shows finished runs.
  const { core } = web.hub;
  await waitForState(core, 'light.hallway', (s) => s.state === 'on');
  await waitForState(core, 'automation.porch_light', (s) => s.attributes.current === 0);
  await waitForState(core, 'script.broken', (s) => s.state === 'off' && s.attributes.last_triggered !== null);

  const card = page.locator('article[data-entity="automation.porch_light"]');
  await card.getByRole('button', { name: 'Last runs' }).click();
  const dialog = page.locator('#traces-dialog');
  await dialog.getByRole('heading', { name: 'Porch light: last runs' }).waitFor();
  const runs = dialog.locator('.runs button');
  await runs.nth(1).waitFor();
  t.equal(await runs.count(), 2, 'both runs');
  t.match(await runs.nth(0).textContent(), /event 'porch'.*Finished/, 'the newest first, with its trigger and outcome');
  t.match(await runs.nth(1).textContent(), /Stopped: conditions not met/);
  t.equal(await runs.nth(0).getAttribute('aria-pressed'), 'true', 'the newest is shown');

  const steps = dialog.locator('.steps li');
  await steps.first().waitFor();
  t.same(
    await steps.evaluateAll((items) => items.map((li) => li.getAttribute('data-path'))),
    ['trigger/0', 'condition/0', 'action/0', 'action/0/choose/0/conditions/0', 'action/0/choose/0/sequence/0', 'action/1'],
    'the steps in order',
  );
  t.match(await dialog.locator('li[data-path="condition/0"]').textContent(), /Passed/);
  t.match(await dialog.locator('li[data-path="action/0"]').textContent(), /Took option 1/);
  t.match(await dialog.locator('li[data-path="action/0/choose/0/sequence/0"]').textContent(), /Called light\.turn_on on .*light\.hallway/);
  const variables = dialog.locator('li[data-path="action/1"] details');
  t.match(await variables.locator('summary').textContent(), /Changed variables: lit/);
  await variables.locator('summary').click();
  t.match(await variables.locator('pre').textContent(), /"lit": "yes"/);

  await runs.nth(1).click();
  await dialog.locator('.run-steps li[data-path="condition/0"]').waitFor();
  t.match(await dialog.locator('li[data-path="condition/0"]').textContent(), /Did not pass/);
  t.equal(await dialog.locator('li[data-path="action/0"]').count(), 0, 'no actions ran');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });

  await page.locator('article[data-entity="script.broken"]').getByRole('button', { name: 'Last runs' }).click();
  await dialog.getByRole('heading', { name: 'Broken script: last runs' }).waitFor();
  await dialog.locator('.runs button[data-outcome="error"]').waitFor();
  const failed = dialog.locator('li.step.failed[data-path="sequence/0"]');
  await failed.waitFor();
  t.match(await failed.locator('.error').textContent(), /light\.no_such_service not found/, 'the error of the step');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'hidden' });

  await page.setViewportSize({ width: 375, height: 800 });
  await card.getByRole('button', { name: 'Last runs' }).click();
  await dialog.locator('.steps li').first().waitFor();
  const box = await dialog.boundingBox();
  t.ok(box !== null && box.width <= 375, 'fits a phone');
  t.same(problems, [], 'no script errors or CSP violations');
});
