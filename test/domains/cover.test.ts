import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { addCover, CoverFeature, type CoverModel, type CoverPlatform, coverDomain } from '../../src/domains/cover.js';

const ALL = 255;

/** A cover whose platform records calls; the test drives what it reports. */
function setup(options: { features?: number; tilt?: boolean; minimal?: boolean } = {}) {
  const core = new Core({ log: silentLogger, clock: new ManualClock() });
  coverDomain.registerServices(core);
  const calls: string[] = [];
  const rec = (name: string) => (arg?: number) => {
    calls.push(arg === undefined ? name : `${name}:${arg}`);
  };
  const platform: CoverPlatform = options.minimal
    ? { openCover: rec('open'), closeCover: rec('close') }
    : {
        openCover: rec('open'),
        closeCover: rec('close'),
        stopCover: rec('stop'),
        setCoverPosition: rec('position'),
        openCoverTilt: rec('open_tilt'),
        closeCoverTilt: rec('close_tilt'),
        stopCoverTilt: rec('stop_tilt'),
        setCoverTiltPosition: rec('tilt'),
      };
  const cover = addCover(core, {
    entityId: 'cover.blinds',
    name: 'Blinds',
    owner: 'test',
    deviceClass: 'blind',
    supportedFeatures: options.features,
    platform,
  });
  cover.report({ closed: true, position: 0, tiltPosition: options.tilt === false ? null : 0 });
  const call = (service: string, data: Record<string, unknown> = {}) =>
    core.services.call('cover', service, { entity_id: 'cover.blinds', ...data } as never);
  const state = () => core.states.get('cover.blinds');
  return { core, cover, calls, call, state };
}

t.test('states and attributes follow the model', async (t) => {
  const { cover, state } = setup();
  t.equal(state()?.state, 'closed');
  t.same(state()?.attributes, {
    device_class: 'blind',
    supported_features: ALL,
    friendly_name: 'Blinds',
    current_position: 0,
    current_tilt_position: 0,
  });
  const cases: [CoverModel, string][] = [
    [{ closed: true, opening: true, position: 0 }, 'opening'],
    [{ closed: false, position: 40 }, 'open'],
    [{ closed: false, closing: true, position: 30 }, 'closing'],
    [{ closed: null }, 'unknown'],
  ];
  for (const [model, expected] of cases) {
    cover.report(model);
    t.equal(state()?.state, expected);
  }
  t.notOk('current_position' in (state()?.attributes ?? {}), 'no position when the cover does not know it');
  cover.report(null);
  t.equal(state()?.state, 'unknown');
});

t.test('features default to the platform methods present', async (t) => {
  const { state } = setup({ minimal: true, tilt: false });
  t.equal(state()?.attributes.supported_features, CoverFeature.OPEN | CoverFeature.CLOSE);
});

t.test('services call the platform', async (t) => {
  const { call, calls } = setup();
  await call('open_cover');
  await call('close_cover');
  await call('stop_cover');
  await call('set_cover_position', { position: '55' });
  await call('open_cover_tilt');
  await call('close_cover_tilt');
  await call('stop_cover_tilt');
  await call('set_cover_tilt_position', { tilt_position: 30 });
  t.same(calls, ['open', 'close', 'stop', 'position:55', 'open_tilt', 'close_tilt', 'stop_tilt', 'tilt:30']);
});

t.test('positions are validated with the field and the range named', async (t) => {
  const { call, calls } = setup();
  await t.rejects(call('set_cover_position', { position: 101 }), {
    kind: 'invalid_service_data',
    message: "value must be between 0 and 100 for dictionary value @ data['position']. Got 101",
  });
  await t.rejects(call('set_cover_position', { position: -1 }), { message: /between 0 and 100.*'position'/ });
  await t.rejects(call('set_cover_position', { position: 'half' }), {
    message: "expected int for dictionary value @ data['position']. Got 'half'",
  });
  await t.rejects(call('set_cover_position', {}), { message: "required key not provided @ data['position']. Got None" });
  await t.rejects(call('set_cover_tilt_position', { tilt_position: 200 }), { message: /between 0 and 100.*'tilt_position'/ });
  await t.rejects(call('open_cover', { position: 3 }), { message: /extra keys not allowed @ data\['position'\]/ });
  t.same(calls, []);
});

t.test('services for missing features are refused when named, skipped through all', async (t) => {
  const { call, calls } = setup({ features: CoverFeature.OPEN | CoverFeature.CLOSE, tilt: false });
  for (const service of ['stop_cover', 'open_cover_tilt', 'close_cover_tilt', 'stop_cover_tilt', 'toggle_cover_tilt']) {
    await t.rejects(call(service), {
      kind: 'service_validation',
      message: `Entity cover.blinds does not support action cover.${service}.`,
    });
  }
  await t.rejects(call('set_cover_position', { position: 10 }), {
    message: 'Entity cover.blinds does not support action cover.set_cover_position.',
  });
  await call('stop_cover', { entity_id: 'all' });
  t.same(calls, []);
});

t.test('toggle stops a moving cover, opens a closed one and reverses the last direction', async (t) => {
  const { cover, call, calls } = setup();
  await call('toggle');
  cover.report({ closed: false, opening: true, position: 10 });
  await call('toggle');
  cover.report({ closed: false, position: 60 });
  await call('toggle');
  cover.report({ closed: false, closing: true, position: 40 });
  cover.report({ closed: false, position: 40 });
  await call('toggle');
  cover.report({ closed: false, closing: true, position: 30 });
  await call('toggle');
  t.same(calls, ['open', 'stop', 'close', 'open', 'stop'], 'closed: open; moving: stop; stopped after opening: close; after closing: open');

  const noStop = setup({ features: CoverFeature.OPEN | CoverFeature.CLOSE });
  noStop.cover.report({ closed: false, opening: true, position: 10 });
  await noStop.call('toggle');
  noStop.cover.report({ closed: false, closing: true, position: 5 });
  await noStop.call('toggle');
  t.same(noStop.calls, ['close', 'open'], 'without STOP an opening cover closes and a closing one opens');
});

t.test('toggle_cover_tilt opens a fully closed tilt, else closes it', async (t) => {
  const { cover, call, calls } = setup();
  await call('toggle_cover_tilt');
  cover.report({ closed: true, position: 0, tiltPosition: 20 });
  await call('toggle_cover_tilt');
  t.same(calls, ['open_tilt', 'close_tilt']);
});

t.test('an unavailable cover keeps device_class and features, drops its position, and is skipped', async (t) => {
  const { cover, call, calls, state } = setup();
  cover.entity.markUnavailable();
  t.same(state()?.attributes, { device_class: 'blind', supported_features: ALL, friendly_name: 'Blinds' });
  t.equal(state()?.state, 'unavailable');
  await call('open_cover');
  t.same(calls, []);
});

t.test('scenes move only what differs, with the services the cover supports', async (t) => {
  const { core, cover, calls } = setup();
  const reproduce = (state: string, attributes: Record<string, unknown>) =>
    coverDomain.reproduceState?.(core, 'cover.blinds', { state, attributes: attributes as never }, core.newContext());
  await reproduce('open', { current_position: 70, current_tilt_position: 40 });
  t.same(calls, ['position:70', 'tilt:40']);
  cover.report({ closed: false, position: 70, tiltPosition: 40 });
  calls.length = 0;
  await reproduce('open', { current_position: 70, current_tilt_position: 40 });
  t.same(calls, [], 'already there');
  await reproduce('closed', { current_position: 0 });
  t.same(calls, ['close']);

  const plain = setup({ features: CoverFeature.OPEN | CoverFeature.CLOSE | CoverFeature.OPEN_TILT | CoverFeature.CLOSE_TILT });
  await coverDomain.reproduceState?.(
    plain.core,
    'cover.blinds',
    { state: 'open', attributes: { current_position: 50, current_tilt_position: 100 } },
    plain.core.newContext(),
  );
  t.same(plain.calls, ['open', 'open_tilt'], 'without positions: open, and tilt fully open');
});
