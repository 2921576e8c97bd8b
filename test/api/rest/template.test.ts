import t from 'tap';
import { hubWithGuest } from '../template-guest.js';
import { jsonPost } from './helpers.js';

t.test('POST /api/template renders as text/plain, with variables, for admins', async (t) => {
  const { th, guestToken } = await hubWithGuest(t);

  const res = await th.api(
    '/api/template',
    jsonPost({
      template: "{{ states('switch.coffee_maker') }} {{ is_state('light.kitchen', 'off') }} {{ who }}",
      variables: { who: 'me' },
    }),
  );
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^text\/plain/);
  t.equal(await res.text(), 'off True me');

  // Not parsed: the text is the answer, as Home Assistant's parse_result=False.
  const list = await th.api('/api/template', jsonPost({ template: '{{ [1, 2] }}' }));
  t.equal(await list.text(), '[1, 2]');

  // The answer follows the state table.
  th.hub.core.states.set('sensor.made_up', '12.5', { unit_of_measurement: 'W' });
  const n = await th.api(
    '/api/template',
    jsonPost({ template: "{{ states('sensor.made_up') | float * 2 }} {{ state_attr('sensor.made_up', 'unit_of_measurement') }}" }),
  );
  t.equal(await n.text(), '25.0 W', 'a float prints as Python prints it');

  const guest = await fetch(`${th.url}/api/template`, {
    ...jsonPost({ template: '{{ 1 }}' }),
    headers: { authorization: `Bearer ${guestToken}` },
  });
  t.equal(guest.status, 401, 'admins only, as in Home Assistant');
  t.equal(await guest.text(), '401: Unauthorized');

  const anonymous = await fetch(`${th.url}/api/template`, jsonPost({ template: '{{ 1 }}' }));
  t.equal(anonymous.status, 401);
});

t.test('POST /api/template answers 400 with a message for a template that fails or a body that is wrong', async (t) => {
  const { th } = await hubWithGuest(t);
  const ask = async (body: unknown) => {
    const res = await th.api('/api/template', jsonPost(body));
    return { status: res.status, body: (await res.json()) as { message: string } };
  };
  const syntax = await ask({ template: '{{ 1 +* }}' });
  t.equal(syntax.status, 400);
  t.equal(
    syntax.body.message,
    `Error rendering template: TemplateSyntaxError: unexpected '*' (template "POST /api/template", line 1, column 7)`,
  );
  const undefinedName = await ask({ template: '{{ nope.x }}' });
  t.match(undefinedName.body.message, /^Error rendering template: UndefinedError: 'nope' is undefined/);
  const escaped = await ask({ template: '{{ range.constructor("return process")() }}' });
  t.match(escaped.body.message, /^Error rendering template: SecurityError: access to 'constructor' is not allowed/);
  t.same(await ask([1]), { status: 400, body: { message: 'Template data should be a JSON object' } });
  t.same(await ask({ nope: 1 }), { status: 400, body: { message: 'Error rendering template: the body needs "template", a string.' } });
  t.same(await ask({ template: '{{ 1 }}', variables: [1] }), {
    status: 400,
    body: { message: 'Error rendering template: "variables" must be a JSON object.' },
  });
  t.same(await ask('{nope'), { status: 400, body: { message: 'Error rendering template: the body is not valid JSON.' } });
});
