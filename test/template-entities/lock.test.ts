import t from 'tap';
import { attrs, recorded, startHarness } from '../helpers/template-devices.js';

/** Template locks, ported from Home Assistant's tests/components/template/test_lock.py. */

const CONFIG = `
template:
  - lock:
      - name: Front door
        state: "{{ states('sensor.door') }}"
        code_format: "^\\\\d{4}$"
        lock:${recorded('lock', ['code'])}
        unlock:${recorded('unlock', ['code'])}
        open:${recorded('open', ['code'])}
      - name: Shed
        lock:${recorded('lock', ['code'])}
        unlock:${recorded('unlock', ['code'])}
`;

t.test('a template lock reads its state template as Home Assistant does', async (t) => {
  const h = await startHarness(t, CONFIG);
  const cases: [string, string][] = [
    ['locked', 'locked'],
    ['unlocked', 'unlocked'],
    ['on', 'locked'],
    ['False', 'unlocked'],
    ['JAMMED', 'jammed'],
    ['locking', 'locking'],
    ['unlocking', 'unlocking'],
    ['open', 'open'],
    ['opening', 'opening'],
    ['dog', 'unknown'],
  ];
  for (const [input, expected] of cases) {
    h.set('sensor.door', input);
    await h.state('lock.front_door', (s) => s.state === expected);
    t.pass(`${input} → ${expected}`);
  }
  t.same(attrs(await h.state('lock.front_door')), { friendly_name: 'Front door', supported_features: 1, code_format: '^\\d{4}$' });
});

t.test('lock, unlock and open run their actions with code; a code not matching code_format is refused', async (t) => {
  const h = await startHarness(t, CONFIG);
  h.set('sensor.door', 'locked');
  await h.state('lock.front_door', (s) => s.state === 'locked');
  for (const service of ['unlock', 'lock', 'open']) {
    const response = await h.call('lock', service, { entity_id: 'lock.front_door', code: '1234' });
    t.equal(response.status, 200, service);
    t.same(await h.actions(1), [{ action: service, code: 1234, this_id: 'lock.front_door' }], service);
  }
  const refused = await h.call('lock', 'unlock', { entity_id: 'lock.front_door', code: 'abc' });
  t.equal(refused.status, 400);
  t.same(h.take(), [], 'nothing runs');

  // Without a state template: optimistic, and no open action, no OPEN feature.
  t.match(attrs(await h.state('lock.shed')), { supported_features: 0, assumed_state: true });
  await h.call('lock', 'lock', { entity_id: 'lock.shed' });
  t.same(await h.actions(1), [{ action: 'lock', code: null, this_id: 'lock.shed' }]);
  await h.state('lock.shed', (s) => s.state === 'locked');
  await h.call('lock', 'unlock', { entity_id: 'lock.shed' });
  await h.actions(1);
  await h.state('lock.shed', (s) => s.state === 'unlocked');
});
