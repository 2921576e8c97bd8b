import t from 'tap';
import { startBroker } from '../helpers/mosquitto.js';
import { watch } from '../helpers/mqtt-watch.js';
import { startMqttHub, waitState } from './hubs.js';

/** Runs until any deadline stops it: 10^10 loop turns. */
const HOSTILE = '{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}';

const config = (valueTemplate: string) =>
  JSON.stringify({
    name: 'Meter',
    unique_id: 'meter_1',
    state_topic: 'meter/state',
    value_template: valueTemplate,
  });

t.test(
  'an MQTT value template that runs to the deadline is suspended for that entity with one warning, until its config changes',
  async (t) => {
    const broker = await startBroker(t);
    const w = await watch(t, broker, ['meter/#']);
    const hub = await startMqttHub(t, broker, 'Home', '');
    const { core } = hub.hub;
    await w.publish('homeassistant/sensor/meter/config', config(`{% if value_json.slow %}${HOSTILE}{% endif %}{{ value_json.kwh }}`), {
      retain: true,
      qos: 1,
    });
    await waitState(core, 'sensor.meter', () => true);
    await hub.hub.mqtt?.settled();
    await w.publish('meter/state', '{"kwh": 1}', { qos: 1 });
    await waitState(core, 'sensor.meter', (s) => s.state === '1');

    // Ten messages whose template runs to the deadline, then one that renders at once.
    const notRendered = () => hub.logs.filter((l) => l.msg === 'MQTT template not rendered');
    // The API answers while the messages are handled: the event loop is never held for a whole deadline.
    let longest = 0;
    let last = Date.now();
    const ticker = setInterval(() => {
      longest = Math.max(longest, Date.now() - last);
      last = Date.now();
    }, 5);
    const answers: Promise<number>[] = [];
    for (let i = 0; i < 10; i++) {
      await w.publish('meter/state', `{"kwh": ${10 + i}, "slow": true}`, { qos: 1 });
      answers.push(hub.api('/api/states').then((r) => r.status));
    }
    await w.publish('meter/state', '{"kwh": 99}', { qos: 1 });
    // All eleven handled, in order, none of them rendered: two stopped at the deadline, then suspended.
    await waitFor(() => (notRendered().length >= 11 ? true : undefined), 10_000);
    clearInterval(ticker);
    t.equal(notRendered().length, 11);
    t.same(await Promise.all(answers), Array(10).fill(200), 'GET /api/states answered during the ten messages');
    t.comment(`longest event-loop turn while the ten messages were handled: ${longest} ms`);
    const warning = hub.logs.find((l) => /sensor\.meter.*suspended/.test(l.msg));
    t.equal(warning?.level, 'warn');
    t.match(warning?.msg, /suspended until its configuration changes/);
    t.equal(core.states.get('sensor.meter')?.state, '1', 'suspended: no message changed it, the fast one neither');
    t.same(
      hub.logs.filter((l) => (l.level === 'warn' || l.level === 'error') && /meter/.test(l.msg)).map((l) => l.msg),
      [warning?.msg],
      'one warning for the entity, none per message',
    );

    // A new config (its template fixed) adopts it again: its messages render.
    await w.publish('homeassistant/sensor/meter/config', config('{{ value_json.kwh }}'), { retain: true, qos: 1 });
    // Adopted again: a new entity, unknown until a message comes.
    await waitState(core, 'sensor.meter', (s) => s.state === 'unknown');
    await hub.hub.mqtt?.settled();
    await w.publish('meter/state', '{"kwh": 7}', { qos: 1 });
    await waitState(core, 'sensor.meter', (s) => s.state === '7');
    t.pass('after its configuration changes it renders again');
  },
);

/** Resolves with the first truthy value of `probe`, checked at each turn of the event loop, or rejects after `ms`. */
function waitFor<T>(probe: () => T | undefined, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const found = probe();
      if (found !== undefined) resolve(found);
      else if (Date.now() > deadline) reject(new Error(`nothing within ${ms} ms`));
      else setImmediate(check);
    };
    check();
  });
}
