import t from 'tap';
import { recordingLogger } from '../api/ws/client.js';
import { startTestHub } from '../helpers/hub.js';
import { waitForState } from '../helpers/wait.js';

/** Runs until any deadline stops it: 10^10 loop turns. */
const HOSTILE = '{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}';

const CONFIG = `
hub:
  name: Test Home
  time_zone: Europe/Amsterdam
template:
  - sensor:
      - name: Load echo
        state: "{% if states('sensor.load') | int(0) > 5 %}${HOSTILE}{% endif %}{{ states('sensor.load') }}"
`;

t.test(
  'a template sensor that ran out of time renders again when its input changes, and is suspended with one warning meanwhile',
  async (t) => {
    const log = recordingLogger();
    const th = await startTestHub(t, { yaml: CONFIG, log });
    const { core } = th.hub;
    core.states.set('sensor.load', '1');
    await waitForState(core, 'sensor.load_echo', (s) => s.state === '1');

    // Its input makes it run out of time: unavailable.
    core.states.set('sensor.load', '10');
    await waitForState(core, 'sensor.load_echo', (s) => s.state === 'unavailable', 5000);
    // Its input changes to a value that renders at once: it renders, and shows it.
    core.states.set('sensor.load', '2');
    await waitForState(core, 'sensor.load_echo', (s) => s.state === '2', 5000);
    t.pass('it renders again when its input changes');

    // Stopped twice in a row, it is suspended, with one warning.
    core.states.set('sensor.load', '10');
    await waitForState(core, 'sensor.load_echo', (s) => s.state === 'unavailable', 5000);
    core.states.set('sensor.load', '11');
    const warning = await log.waitFor(/sensor\.load_echo.*suspended/, 5000);
    t.equal(warning.level, 'warn');
    t.match(warning.msg, /suspended until an entity its templates read changes/);
    // A change of its input brings it back.
    core.states.set('sensor.load', '3');
    await waitForState(core, 'sensor.load_echo', (s) => s.state === '3', 5000);
    t.pass('and after a suspension too');
    const loud = log.lines.filter((l) => /load_echo/.test(l.msg));
    t.same(
      loud.map((l) => l.level),
      ['warn'],
      'one warning, no error line per render',
    );
  },
);
