import t from 'tap';
import { hubWithGuest } from '../template-guest.js';
import { startWsOnly, WsClient, type WsMessage } from './client.js';

const eventOf = (id: number) => (m: WsMessage) => m.type === 'event' && m.id === id;

/** Sends render_template with the client's next id; resolves with the id and the reply. */
async function renderTemplate(client: WsClient, fields: Record<string, unknown>): Promise<{ id: number; reply: WsMessage }> {
  const id = client.takeId();
  client.send({ id, type: 'render_template', ...fields });
  const reply = await client.waitFor((m) => m.id === id && m.type === 'result', 3000, `reply to render_template #${id}`);
  return { id, reply };
}

t.test('render_template: result null, the first render, and a new event when an entity it read changes', async (t) => {
  const { th } = await hubWithGuest(t);
  const client = await WsClient.authenticated(th.wsUrl, th.token);
  t.teardown(() => client.close());
  const template = "{{ states('switch.coffee_maker') }} and {{ states.light | selectattr('state', 'eq', 'on') | list | count }}";
  const { id, reply } = await renderTemplate(client, { template });
  t.same(reply, { id, type: 'result', success: true, result: null });
  const first = await client.waitFor(eventOf(id));
  t.same(first.event, {
    result: 'off and 0',
    listeners: { all: false, domains: ['light'], entities: ['switch.coffee_maker'], time: false },
  });

  await th.api('/api/services/switch/turn_on', { method: 'POST', body: JSON.stringify({ entity_id: 'switch.coffee_maker' }) });
  const second = await client.waitFor(eventOf(id));
  t.equal((second.event as { result: unknown }).result, 'on and 0');

  await th.api('/api/services/light/turn_on', { method: 'POST', body: JSON.stringify({ entity_id: 'light.kitchen' }) });
  const third = await client.waitFor(eventOf(id), 3000);
  t.equal((third.event as { result: unknown }).result, 'on and 1', 'a change in a domain it iterated');

  // Unsubscribing stops it: its state_changed listener is gone.
  const listeners = () => th.hub.core.bus.listenerCounts().find((c) => c.event === 'state_changed')?.listener_count ?? 0;
  const before = listeners();
  const unsub = await client.command('unsubscribe_events', { subscription: id });
  t.equal(unsub.success, true);
  t.equal(listeners(), before - 1, 'its listener is removed');
});

t.test('render_template parses the result as Home Assistant does, and takes variables', async (t) => {
  const { th } = await hubWithGuest(t);
  const client = await WsClient.authenticated(th.wsUrl, th.token);
  t.teardown(() => client.close());
  const cases: readonly [string, unknown][] = [
    ['{{ 40 + 2 }}', 42],
    ['{{ [1, "a"] }}', [1, 'a']],
    ["{{ {'k': True} }}", { k: true }],
    ['{{ is_state("switch.coffee_maker", "off") }}', true],
    ['{{ none }}', null],
    ['{{ name }} is here', 'Ann is here'],
  ];
  for (const [template, result] of cases) {
    const { id } = await renderTemplate(client, { template, variables: { name: 'Ann' } });
    const event = await client.waitFor(eventOf(id));
    t.same((event.event as { result: unknown }).result, result, template);
  }
});

t.test('render_template errors: template_error, report_errors, strict, timeout, admins only', async (t) => {
  const { th, guestToken } = await hubWithGuest(t);
  const client = await WsClient.authenticated(th.wsUrl, th.token);
  t.teardown(() => client.close());

  const syntax = await renderTemplate(client, { template: '{{ 1 +* }}' });
  t.same(syntax.reply.error, {
    code: 'template_error',
    message: `TemplateSyntaxError: unexpected '*' (template "render_template", line 1, column 7)`,
  });
  const escaped = await renderTemplate(client, { template: "{{ ''.constructor.constructor('return process')() }}" });
  t.match((escaped.reply.error as { message: string }).message, /^SecurityError: access to 'constructor' is not allowed/);

  // report_errors: the subscription stands, and the error comes as an event.
  const reported = await renderTemplate(client, { template: "{{ states('switch.coffee_maker') | float }}", report_errors: true });
  t.equal(reported.reply.success, true);
  const errorEvent = await client.waitFor(eventOf(reported.id));
  t.match(errorEvent.event, { level: 'ERROR', error: /^ValueError: Template error: float got invalid input 'off'/ });

  // strict: undefined is an error; without it, nothing.
  const lax = await renderTemplate(client, { template: '[{{ missing }}]' });
  t.same((await client.waitFor(eventOf(lax.id))).event, { result: [], listeners: { all: false, domains: [], entities: [], time: false } });
  const strict = await renderTemplate(client, { template: '[{{ missing }}]', strict: true });
  t.match(strict.reply.error, { code: 'template_error', message: /^UndefinedError: 'missing' is undefined/ });

  const slow = await renderTemplate(client, {
    template: '{% for a in range(100000) %}{% for b in range(1000) %}{% endfor %}{% endfor %}',
    timeout: 0.01,
  });
  // A timeout under the hub's own limit (20 ms) is the one that stops it, and Home Assistant's message names it.
  t.same(slow.reply.error, { code: 'template_error', message: 'Exceeded maximum execution time of 0.01s' });

  const noLimit = await renderTemplate(client, { template: '{{ 1 }}', timeout: 0 });
  t.equal(noLimit.reply.success, true, 'a timeout of 0 is none, as in Home Assistant');
  const asText = await renderTemplate(client, { template: '{{ 2 }}', timeout: '3' });
  t.equal(asText.reply.success, true, 'the timeout may be a numeric string (vol.Coerce(float))');
  const badTimeout = await renderTemplate(client, { template: '{{ 2 }}', timeout: 'soon' });
  t.match(badTimeout.reply.error, { code: 'invalid_format', message: /expected float for dictionary value @ data\['timeout'\]/ });

  const badSchema = await renderTemplate(client, { template: 5 });
  t.match(badSchema.reply.error, { code: 'invalid_format', message: /expected str for dictionary value @ data\['template'\]/ });

  const guest = await WsClient.authenticated(th.wsUrl, guestToken);
  t.teardown(() => guest.close());
  const refused = await renderTemplate(guest, { template: '{{ 1 }}' });
  t.same(refused.reply.error, { code: 'unauthorized', message: 'Unauthorized' });
});

t.test(
  'render_template: a fast-changing entity is rendered at most every interval; now() renders on the tick; a cap per connection',
  async (t) => {
    const server = await startWsOnly(t, { templateEntityIntervalMs: 200, templateTimeTickMs: 150, maxTemplateSubscriptions: 2 });
    server.core.states.set('sensor.fast', '0');
    const client = await WsClient.authenticated(server.wsUrl, server.token);
    t.teardown(() => client.close());

    const fast = await renderTemplate(client, { template: "{{ states('sensor.fast') }}" });
    await client.waitFor(eventOf(fast.id));
    const started = Date.now();
    for (let i = 1; i <= 50; i++) server.core.states.set('sensor.fast', String(i));
    const last = await client.waitFor((m) => eventOf(fast.id)(m) && (m.event as { result: unknown }).result === 50, 3000);
    t.ok(last, 'the latest value arrives');
    const events = client.messages.filter(eventOf(fast.id));
    t.ok(events.length <= 3, `50 changes in one turn gave ${events.length} events (coalesced)`);
    t.ok(Date.now() - started < 2000);

    // now() changes on every render, so each tick (150 ms here, each minute by default) sends an event.
    const clock = await renderTemplate(client, { template: '{{ now().microsecond }}' });
    const ticks = await client.waitForCount(eventOf(clock.id), 3, 3000);
    const firstTick = ticks[0] as WsMessage;
    t.same((firstTick.event as { listeners: unknown }).listeners, { all: false, domains: [], entities: [], time: true });
    // The cap refuses a third subscription.
    const third = await renderTemplate(client, { template: '{{ 1 }}' });
    t.match(third.reply.error, { code: 'not_allowed', message: /at most 2 render_template subscriptions/ });
    await client.command('unsubscribe_events', { subscription: clock.id });
    const again = await renderTemplate(client, { template: '{{ 1 }}' });
    t.equal(again.reply.success, true, 'room again after unsubscribing');
  },
);
