import t from 'tap';
import { startTestHub } from '../../helpers/hub.js';
import { recordingLogger, WsClient, type WsMessage } from './client.js';

/** Runs until any deadline stops it: 10^10 loop turns. */
const HOSTILE = '{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}';

const resultOf = (id: number) => (m: WsMessage) => m.id === id && m.type === 'result';
const eventOf = (id: number) => (m: WsMessage) => m.id === id && m.type === 'event';

t.test(
  '25 hostile render_template subscriptions at once: the API answers while they are worked off, each gets Home Assistant’s error',
  async (t) => {
    const th = await startTestHub(t);
    const client = await WsClient.authenticated(th.wsUrl, th.token);
    t.teardown(() => client.close());
    const ids: number[] = [];
    for (let i = 0; i < 25; i++) {
      const id = client.takeId();
      ids.push(id);
      client.send({ id, type: 'render_template', template: HOSTILE });
    }
    // Sent after the flood: a hub that renders the 25 before anything else answers this after all of them.
    const answered = await th.api('/api/config');
    t.equal(answered.status, 200);
    const before = client.messages.filter((m) => m.type === 'result' && ids.includes(m.id as number)).length;
    t.ok(before < 25, `the REST request was answered while the flood was still being rendered (${before} of 25 answered first)`);
    // Each one in turn, within its connection's share of the loop: a template_error as Home Assistant sends for a timeout.
    for (const id of ids) {
      const reply = await client.waitFor(resultOf(id), 30_000, `the answer to render_template ${id}`);
      t.equal(reply.success, false);
      // The hub's limit: 50 ms for the render that compiled the template (the first), 20 ms for the others.
      t.match(reply.error, { code: 'template_error', message: /^Exceeded maximum execution time of 0\.0[25]s$/ });
    }
    // The connection still works, and an ordinary template renders at once.
    const { id } = { id: client.takeId() };
    client.send({ id, type: 'render_template', template: '{{ 6 * 7 }}' });
    t.same((await client.waitFor(resultOf(id), 5000)).result, null);
    t.same(((await client.waitFor(eventOf(id), 5000)).event as { result: unknown }).result, 42);
  },
);

t.test('render_template with timeout 60 that runs out of the hub’s own limit says that limit, not 60 s', async (t) => {
  const th = await startTestHub(t);
  const client = await WsClient.authenticated(th.wsUrl, th.token);
  t.teardown(() => client.close());
  const id = client.takeId();
  client.send({ id, type: 'render_template', template: `${HOSTILE}{# a text of its own #}`, timeout: 60 });
  const reply = await client.waitFor(resultOf(id), 10_000);
  // Home Assistant's message, with the limit that applied: the hub's 50 ms for the render that compiles a template.
  t.same(reply.error, { code: 'template_error', message: 'Exceeded maximum execution time of 0.05s' });
  const lower = client.takeId();
  client.send({ id: lower, type: 'render_template', template: `${HOSTILE}{# another #}`, timeout: 0.01 });
  t.same((await client.waitFor(resultOf(lower), 10_000)).error, {
    code: 'template_error',
    message: 'Exceeded maximum execution time of 0.01s',
  });
});

t.test(
  'a subscription whose input makes it run out of time is suspended with one warning, and renders again when its input changes',
  async (t) => {
    const log = recordingLogger();
    const th = await startTestHub(t, { log });
    const { core } = th.hub;
    core.states.set('sensor.load', '0');
    const client = await WsClient.authenticated(th.wsUrl, th.token);
    t.teardown(() => client.close());
    const id = client.takeId();
    const template = `{% if states('sensor.load') | int(0) > 5 %}${HOSTILE}{% endif %}{{ states('sensor.load') }}`;
    client.send({ id, type: 'render_template', template, report_errors: true });
    t.equal((await client.waitFor(resultOf(id), 5000)).success, true);
    t.equal(((await client.waitFor(eventOf(id), 5000)).event as { result: unknown }).result, 0);
    // A change that makes it run out of time: that render is stopped, and reported (report_errors).
    core.states.set('sensor.load', '10');
    const stopped = await client.waitFor(eventOf(id), 5000);
    t.match(stopped.event, { level: 'ERROR', error: /^TimeoutError: rendering took longer than 20 ms and was stopped/ });
    // Stopped a second time in a row: suspended, with one warning.
    core.states.set('sensor.load', '11');
    const warning = await log.waitFor(/render_template .* suspended/, 5000);
    t.equal(warning.level, 'warn');
    t.match(warning.msg, /took longer than 20 ms and were stopped; its templates are suspended until an entity it read changes/);
    // A change of what it read brings it back, and it renders in time again.
    core.states.set('sensor.load', '1');
    const back = await client.waitFor((m) => eventOf(id)(m) && (m.event as { result?: unknown }).result === 1, 5000);
    t.ok(back);
    t.equal(log.lines.filter((l) => /render_template/.test(l.msg)).length, 1, 'one warning, no other log line');
  },
);
