import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import { type Logger, silentLogger } from '../../src/core/log.js';
import { type LogLine, RecordingLogger } from '../fakes/recording-logger.js';

function setup(log: Logger = silentLogger) {
  const core = new Core({ log, clock: new ManualClock(), maxEntities: 16 });
  const calls: string[] = [];
  for (const id of ['switch.a', 'switch.b', 'light.c']) {
    const e = core.entities.add({
      entityId: id,
      owner: 'test',
      platform: {
        turnOn: () => {
          calls.push(`on:${id}`);
          e.report('on');
        },
      },
    });
    e.report('off');
  }
  core.services.register('test', {
    domain: 'switch',
    service: 'turn_on',
    schema: { fields: {} },
    entity: (e) => (e.platform as { turnOn(): void }).turnOn(),
  });
  core.services.register('test', {
    domain: 'switch',
    service: 'echo',
    schema: { fields: { n: { kind: 'number' } } },
    response: 'optional',
    entity: (e, data) => ({ id: e.id, n: data.n ?? null }),
  });
  core.services.register('test', {
    domain: 'test',
    service: 'only',
    schema: { fields: {} },
    response: 'only',
    handler: () => ({ ok: true }),
  });
  return { core, calls };
}

t.test('an entity service acts on the targeted entities of its own domain and returns their new states', async (t) => {
  const { core, calls } = setup();
  const result = await core.services.call(
    'switch',
    'turn_on',
    { entity_id: 'switch.a, light.c, switch.missing' },
    { collectChanges: true, userId: 'u1' },
  );
  t.same(calls, ['on:switch.a']);
  t.same(
    result.changed.map((s) => [s.entity_id, s.state, s.context.id]),
    [['switch.a', 'on', result.context.id]],
  );
  t.equal(result.context.user_id, 'u1');
  t.equal(result.response, null);
});

t.test('target wins over data, "all" expands, unavailable entities are skipped', async (t) => {
  const { core, calls } = setup();
  core.entities.get('switch.b')?.markUnavailable();
  await core.services.call('switch', 'turn_on', { entity_id: 'switch.b' }, { target: { entity_id: 'all' } });
  t.same(calls, ['on:switch.a']);
});

t.test('responses: per entity, only when asked, and refused where not supported', async (t) => {
  const { core } = setup();
  const r = await core.services.call(
    'switch',
    'echo',
    { n: '5' },
    { target: { entity_id: ['switch.a', 'switch.b'] }, returnResponse: true },
  );
  t.same(r.response, { 'switch.a': { id: 'switch.a', n: 5 }, 'switch.b': { id: 'switch.b', n: 5 } });
  await t.rejects(core.services.call('switch', 'turn_on', { entity_id: 'switch.a' }, { returnResponse: true }), {
    name: 'HubError',
    kind: 'service_validation',
  });
  await t.rejects(core.services.call('test', 'only', {}), { kind: 'service_validation', message: /requires responses/ });
  await t.rejects(core.services.call('switch', 'echo', { entity_id: 'switch.nope' }, { returnResponse: true }), {
    message: /did not match any entities/,
  });
});

t.test('clear errors for unknown services, missing targets, bad data and bad targets', async (t) => {
  const { core } = setup();
  await t.rejects(core.services.call('switch', 'nope', {}), { kind: 'service_not_found', message: 'Service switch.nope not found.' });
  await t.rejects(core.services.call('switch', 'turn_on', {}), { message: /must contain at least one of entity_id/ });
  await t.rejects(core.services.call('switch', 'turn_on', [1]), { name: 'HubError', kind: 'invalid_service_data' });
  await t.rejects(core.services.call('switch', 'turn_on', {}, { target: { room: 'x' } }), { message: /target.*room/ });
  await t.rejects(core.services.call('switch', 'turn_on', { area_id: 5 }), { message: /area_id/ });
});

t.test('the catalogue lists fields, targets and response support, and is cached', async (t) => {
  const { core } = setup();
  const cat = core.services.catalogue();
  t.same(cat.switch?.echo, {
    name: '',
    description: '',
    fields: { n: { required: false, selector: { number: { mode: 'box', step: 'any' } } } },
    target: { entity: [{ domain: ['switch'] }] },
    response: { optional: true },
  });
  const json = core.services.catalogueJson();
  t.equal(core.services.catalogueJson(), json);
  core.services.removeOwner('test');
  t.same(JSON.parse(core.services.catalogueJson()), {});
});

t.test('a named entity of another domain, or a missing one, is skipped with a warning (Home Assistant log_missing)', async (t) => {
  const lines: LogLine[] = [];
  const { core, calls } = setup(new RecordingLogger(lines));
  for (const target of ['light.c', 'switch.nope', ['light.c', 'switch.a']]) {
    await core.services.call('switch', 'turn_on', { entity_id: target });
  }
  t.same(calls, ['on:switch.a'], 'only the switch acted');
  const warned = lines.filter((l) => l.level === 'warn').map((l) => l.msg);
  t.same(warned, [
    'Referenced entities light.c are missing or not currently available',
    'Referenced entities switch.nope are missing or not currently available',
    'Referenced entities light.c are missing or not currently available',
  ]);
});

t.test('a service found once is found again, and not after it is removed or replaced', async (t) => {
  const { core } = setup();
  const first = core.services.get('switch', 'turn_on');
  t.ok(first);
  t.equal(core.services.get('switch', 'turn_on'), first, 'asked again (new strings, as REST gives them)');
  t.equal(core.services.get('SWITCH', 'Turn_On'), first, 'names in another case');
  t.equal(core.services.get('switch', 'turn_on'), first);
  core.services.remove('switch', 'turn_on');
  t.equal(core.services.get('switch', 'turn_on'), undefined, 'removed');
  core.services.register('other', { domain: 'switch', service: 'turn_on', schema: { fields: {} }, handler: () => null });
  const second = core.services.get('switch', 'turn_on');
  t.not(second, first, 'registered anew: the new definition');
  core.services.register('third', { domain: 'switch', service: 'turn_on', schema: { fields: {} }, handler: () => 1 });
  t.not(core.services.get('switch', 'turn_on'), second, 'replaced: the newest');
});
