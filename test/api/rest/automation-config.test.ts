import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { createUser } from '../../../src/auth/user-admin.js';
import { startTestHub } from '../../helpers/hub.js';

const AUTOMATION = {
  alias: 'Coffee at seven',
  description: '',
  triggers: [{ trigger: 'state', entity_id: 'light.kitchen', to: 'on' }],
  conditions: [],
  actions: [{ action: 'switch.turn_on', target: { entity_id: 'switch.coffee_maker' } }],
  mode: 'single',
};

t.test('the automation editor endpoints store automations.yaml as Home Assistant does and reload', async (t) => {
  const th = await startTestHub(t);
  const json = (body: unknown): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

  t.equal((await th.api('/api/config/automation/config/1700000000001')).status, 404, 'unknown id: 404');
  const saved = await th.api('/api/config/automation/config/1700000000001', json(AUTOMATION));
  t.equal(saved.status, 200);
  t.same(await saved.json(), { result: 'ok' });
  const text = await readFile(join(th.dataDir, 'automations.yaml'), 'utf8');
  t.match(text, /^- id: "?1700000000001"?\n {2}alias: Coffee at seven/, 'a list item with its id first');
  t.same(await (await th.api('/api/config/automation/config/1700000000001')).json(), { id: '1700000000001', ...AUTOMATION });

  // Reloaded: the automation runs.
  t.equal(th.hub.core.states.get('automation.coffee_at_seven')?.state, 'on', 'the reload made its entity');
  await th.api('/api/services/light/turn_on', json({ entity_id: 'light.kitchen' }));
  const deadline = Date.now() + 3000;
  while (th.hub.core.states.get('switch.coffee_maker')?.state !== 'on' && Date.now() < deadline) await new Promise((r) => setImmediate(r));
  t.equal(th.hub.core.states.get('switch.coffee_maker')?.state, 'on', 'the saved automation ran');

  const bad = await th.api('/api/config/automation/config/1700000000002', json({ ...AUTOMATION, triggers: [{ trigger: 'nonsense' }] }));
  t.equal(bad.status, 400);
  t.match(((await bad.json()) as { message: string }).message, /^Message malformed: .*trigger/);

  const script = await th.api(
    '/api/config/script/config/wake_up',
    json({ alias: 'Wake up', sequence: [{ action: 'light.turn_on', target: { entity_id: 'light.hallway' } }] }),
  );
  t.equal(script.status, 200);
  t.equal(th.hub.core.states.get('script.wake_up')?.state, 'off', 'the script exists after the reload');
  t.match(await readFile(join(th.dataDir, 'scripts.yaml'), 'utf8'), /^wake_up:\n {2}alias: Wake up/);

  t.equal((await th.api('/api/config/automation/config/1700000000001', { method: 'DELETE' })).status, 200);
  t.equal(th.hub.core.states.get('automation.coffee_at_seven'), undefined, 'deleted and reloaded');
  t.equal((await th.api('/api/config/automation/config/1700000000001', { method: 'DELETE' })).status, 404);

  const owner = th.hub.auth.ownerUser();
  const kid = await createUser(th.hub.auth, 'Kid', false);
  const kidToken = await th.hub.auth.createToken(kid.id, 'kid');
  const refused = await fetch(`${th.url}/api/config/automation/config/x`, { headers: { authorization: `Bearer ${kidToken}` } });
  t.equal(refused.status, 401, 'admins only');
  t.ok(owner);
});
