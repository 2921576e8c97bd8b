import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { addText, textDomain } from '../../src/domains/text.js';
import { addUpdate, UpdateFeature, updateDomain, versionIsNewer } from '../../src/domains/update.js';
import { applyStoredState } from '../../src/restore/restore-policy.js';

function setup() {
  const core = new Core({ log: silentLogger, clock: new ManualClock(Date.UTC(2026, 5, 1, 12) * 1000) });
  for (const d of [updateDomain, textDomain]) d.registerServices(core);
  const call = (domain: string, service: string, entityId: string, data: Record<string, unknown> = {}) =>
    core.services.call(domain, service, { entity_id: entityId, ...data } as never);
  return { core, call };
}

t.test('update: state and attributes as UpdateEntity has them; skip and clear_skipped', async (t) => {
  const { core, call } = setup();
  const installs: (string | null)[] = [];
  const u = addUpdate(core, {
    entityId: 'update.lamp',
    owner: 'test',
    name: 'Lamp',
    deviceClass: 'firmware',
    features: UpdateFeature.INSTALL | UpdateFeature.PROGRESS,
    platform: { install: (v) => void installs.push(v) },
  });
  u.report({ installedVersion: null, latestVersion: null });
  t.equal(core.states.get('update.lamp')?.state, 'unknown', 'unknown until both versions are');
  u.report({ installedVersion: '100', latestVersion: '200', releaseSummary: 'x'.repeat(300) });
  const s = core.states.get('update.lamp');
  t.equal(s?.state, 'on');
  t.same(s?.attributes, {
    device_class: 'firmware',
    supported_features: 5,
    friendly_name: 'Lamp',
    auto_update: false,
    display_precision: 0,
    installed_version: '100',
    in_progress: false,
    latest_version: '200',
    release_summary: 'x'.repeat(255),
    release_url: null,
    skipped_version: null,
    title: null,
    update_percentage: null,
  });
  await call('update', 'skip', 'update.lamp');
  t.equal(core.states.get('update.lamp')?.state, 'off');
  t.equal(core.states.get('update.lamp')?.attributes.skipped_version, '200');
  await call('update', 'clear_skipped', 'update.lamp');
  t.equal(core.states.get('update.lamp')?.state, 'on');
  await call('update', 'skip', 'update.lamp');
  u.report({ installedVersion: '100', latestVersion: '300' });
  t.equal(core.states.get('update.lamp')?.state, 'on', 'a newer version than the skipped one is offered again');
  t.equal(core.states.get('update.lamp')?.attributes.skipped_version, null);

  await call('update', 'install', 'update.lamp');
  t.same(installs, [null]);
  u.report({ installedVersion: '100', latestVersion: '300', inProgress: true, updatePercentage: 42.5 });
  t.match(core.states.get('update.lamp')?.attributes, { in_progress: true, update_percentage: 42.5 });
  await t.rejects(call('update', 'install', 'update.lamp'), { message: 'Update installation already in progress for update.lamp' });
  await t.rejects(call('update', 'install', 'update.lamp', { version: '250' }), {
    message: 'Installing a specific version is not supported for update.lamp',
  });
  await t.rejects(call('update', 'install', 'update.lamp', { backup: true }), { message: 'Backup is not supported for update.lamp' });
  u.report({ installedVersion: '300', latestVersion: '300' });
  t.equal(core.states.get('update.lamp')?.state, 'off');
  await t.rejects(call('update', 'install', 'update.lamp'), { message: 'No update available for update.lamp' });
});

t.test('update: without PROGRESS the domain shows in_progress while the install runs; skipped version restored', async (t) => {
  const { core, call } = setup();
  let finish = (): void => {};
  const u = addUpdate(core, {
    entityId: 'update.hub',
    owner: 'test',
    features: UpdateFeature.INSTALL,
    restore: true,
    platform: { install: () => new Promise<void>((resolve) => (finish = resolve)) },
  });
  u.report({ installedVersion: '1.2.3', latestVersion: '1.10.0' });
  t.equal(core.states.get('update.hub')?.state, 'on', '1.10.0 is newer than 1.2.3');
  const running = call('update', 'install', 'update.hub');
  await new Promise((r) => setImmediate(r));
  t.equal(core.states.get('update.hub')?.attributes.in_progress, true);
  finish();
  await running;
  t.equal(core.states.get('update.hub')?.attributes.in_progress, false);
  const entity = core.entities.get('update.hub');
  if (entity === undefined) throw new Error('no update.hub');
  await applyStoredState(core, entity, { state: 'off', attributes: { skipped_version: '1.10.0' } }, core.newContext());
  t.equal(core.states.get('update.hub')?.state, 'off');
  t.equal(versionIsNewer('0x01020304', '0x01020300'), true);
  t.equal(versionIsNewer('1.0', '1.0.0'), false);
});

t.test('text: HA limits checked in its words', async (t) => {
  const { core, call } = setup();
  const values: string[] = [];
  addText(core, {
    entityId: 'text.schedule',
    owner: 'test',
    limits: { max: 5 },
    platform: { setValue: (v) => void values.push(v) },
  }).report('ab');
  t.same(core.states.get('text.schedule')?.attributes, { mode: 'text', min: 0, max: 5, pattern: null });
  await call('text', 'set_value', 'text.schedule', { value: 'abc' });
  t.same(values, ['abc']);
  await t.rejects(call('text', 'set_value', 'text.schedule', { value: 'abcdef' }), {
    message: 'Value abcdef for text.schedule is too long (maximum length 5)',
  });
});
