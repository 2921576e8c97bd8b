import t from 'tap';
import { isoFromMicros, ManualClock } from '../../src/core/clock.js';
import { MINIMAL_CONFIG, startTestHub } from '../helpers/hub.js';

const T0 = Date.UTC(2026, 2, 10, 8, 0, 0) * 1000;
const MIN = 60_000_000;

t.test('a light a script turned off names the script as its cause, not the script.turn_on call', async (t) => {
  const clock = new ManualClock(T0);
  const yaml = `${MINIMAL_CONFIG}
script:
  lights_out:
    alias: Lights out
    sequence:
      - action: light.turn_off
        target: { entity_id: light.kitchen }
`;
  const th = await startTestHub(t, { clock, yaml });
  await th.hub.core.services.call('light', 'turn_on', { entity_id: 'light.kitchen' });
  clock.advance(MIN);
  await th.hub.core.services.call('script', 'turn_on', { entity_id: 'script.lights_out' });
  const deadline = Date.now() + 3000;
  while (th.hub.core.states.get('light.kitchen')?.state !== 'off' && Date.now() < deadline) await new Promise((r) => setImmediate(r));
  clock.advance(MIN);
  const res = await th.api(`/api/logbook/${isoFromMicros(T0 + 1)}?entity=light.kitchen`);
  const entries = (await res.json()) as Record<string, unknown>[];
  const off = entries.find((e) => e.state === 'off');
  t.match(
    off,
    { context_event_type: 'script_started', context_domain: 'script', context_entity_id: 'script.lights_out' },
    JSON.stringify(entries),
  );
});
