import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { ManualClock } from '../../../src/core/clock.js';
import { buttonDomain } from '../../../src/domains/button.js';
import { numberDomain } from '../../../src/domains/number.js';
import { selectDomain } from '../../../src/domains/select.js';
import { MINIMAL_CONFIG, startTestHub } from '../../helpers/hub.js';
import { startVirtual, virtualIssues } from '../../helpers/virtual.js';
import { waitForState } from '../../helpers/wait.js';

const CONFIG = `
- {platform: button, id: identify, name: Identify, device_class: identify}
- {platform: number, id: volume, name: Volume, min: 0, max: 10, step: 0.5, initial: 3, mode: slider, unit_of_measurement: dB}
- {platform: select, id: heating, name: Heating, options: [eco, comfort, boost], initial: comfort}
`;

t.test('a virtual button, number and select answer their services', async (t) => {
  const core = await startVirtual(t, CONFIG, [buttonDomain, numberDomain, selectDomain]);
  t.equal(core.states.get('button.identify')?.state, 'unknown');
  await core.services.call('button', 'press', { entity_id: 'button.identify' });
  t.match(core.states.get('button.identify')?.state, /^\d{4}-\d\d-\d\dT.*\+00:00$/);
  t.same(core.states.get('number.volume')?.attributes, {
    min: 0,
    max: 10,
    step: 0.5,
    mode: 'slider',
    unit_of_measurement: 'dB',
    friendly_name: 'Volume',
  });
  await core.services.call('number', 'set_value', { entity_id: 'number.volume', value: 7.5 });
  t.equal(core.states.get('number.volume')?.state, '7.5');
  t.equal(core.states.get('select.heating')?.state, 'comfort');
  await core.services.call('select', 'select_next', { entity_id: 'select.heating' });
  t.equal(core.states.get('select.heating')?.state, 'boost');
});

t.test('bad options are refused with their paths', async (t) => {
  t.same(
    virtualIssues(`
- {platform: number, id: a, name: A, min: 5, max: 1, initial: 5}
- {platform: number, id: b, name: B, max: 10, initial: 11}
- {platform: select, id: c, name: C}
- {platform: select, id: d, name: D, options: [x], initial: y}
- {platform: button, id: e, name: E, device_class: doorbell}
`),
    [
      'virtual.0.max: must be at least min (5)',
      'virtual.0.initial: must be between min (5) and max (1)',
      'virtual.1.initial: must be between min (0) and max (10)',
      'virtual.2.options: is required: expected a list of at least one option',
      'virtual.3.initial: must be one of the options (x)',
      'virtual.4.device_class: "doorbell" is not allowed: expected one of identify, restart, update',
    ],
  );
});

t.test("a driver's button comes back after a restart with its last press, without being pressed", async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-button-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const yaml = `${MINIMAL_CONFIG}${CONFIG.replace(/^- /gm, '  - ')}`;
  const clock = new ManualClock(Date.parse('2026-06-01T18:00:00Z') * 1000);
  const first = await startTestHub({ teardown: () => undefined }, { yaml, dataDir, clock });
  await first.hub.core.services.call('button', 'press', { entity_id: 'button.identify' });
  await first.hub.stop();
  const second = await startTestHub(t, { yaml, dataDir });
  const pressed = await waitForState(second.hub.core, 'button.identify', (s) => s.state !== 'unknown' && s.attributes.restored !== true);
  t.equal(pressed.state, '2026-06-01T18:00:00+00:00');
});
