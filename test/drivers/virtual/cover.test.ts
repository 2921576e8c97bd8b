import t from 'tap';
import type { Core } from '../../../src/core/core.js';
import { coverDomain } from '../../../src/domains/cover.js';
import type { Teardown } from '../../helpers/hub.js';
import { startVirtual, virtualIssues } from '../../helpers/virtual.js';
import { waitForState } from '../../helpers/wait.js';

const issuesOf = virtualIssues;
const start = (t: Teardown, yaml: string) => startVirtual(t, yaml, [coverDomain]);
const waitFor = waitForState;

/** Every state `entityId` is written with from now on, as `state@position`. */
function record(t: { teardown(fn: () => unknown): void }, core: Core, entityId: string): string[] {
  const seen: string[] = [];
  const off = core.bus.on('test', 'state_changed', (event) => {
    const s = event.data.new_state;
    if (event.data.entity_id === entityId && s) seen.push(`${s.state}@${s.attributes.current_position ?? '-'}`);
  });
  t.teardown(off);
  return seen;
}

const CONFIG = `
- platform: cover
  id: garage_door
  name: Garage Door
  device_class: garage
  travel_time: 0.2
  update_interval: 0.02
- platform: cover
  id: blinds
  name: Living Room Blinds
  device_class: blind
  travel_time: 0.2
  tilt: true
  tilt_time: 0.1
  initial_position: 100
  initial_tilt: 50
- platform: cover
  id: gate
  name: Gate
  device_class: gate
  travel_time: 0
  position: false
  stop: false
`;

t.test('covers start where configured, with the features they have', async (t) => {
  const core = await start(t, CONFIG);
  const garage = core.states.get('cover.garage_door');
  t.equal(garage?.state, 'closed');
  t.same(garage?.attributes, { device_class: 'garage', supported_features: 15, friendly_name: 'Garage Door', current_position: 0 });
  const blinds = core.states.get('cover.blinds');
  t.equal(blinds?.state, 'open');
  t.equal(blinds?.attributes.current_position, 100);
  t.equal(blinds?.attributes.current_tilt_position, 50);
  t.equal(blinds?.attributes.supported_features, 255);
  t.same(core.states.get('cover.gate')?.attributes, { device_class: 'gate', supported_features: 3, friendly_name: 'Gate' });
});

t.test('the garage door opens over its travel time, reporting as it goes', async (t) => {
  const core = await start(t, CONFIG);
  const seen = record(t, core, 'cover.garage_door');
  await core.services.call('cover', 'open_cover', { entity_id: 'cover.garage_door' });
  t.equal(core.states.get('cover.garage_door')?.state, 'opening', 'moving at once');
  await waitFor(core, 'cover.garage_door', (s) => s.state === 'open');
  t.equal(seen[0], 'opening@0');
  t.equal(seen.at(-1), 'open@100');
  const positions = seen.slice(0, -1).map((x) => Number(x.split('@')[1]));
  t.ok(positions.length >= 5, `several intermediate reports (${seen.join(' ')})`);
  t.ok(
    positions.every((p, i) => i === 0 || p > (positions[i - 1] as number)),
    'position rises steadily',
  );
  t.ok(
    seen.slice(0, -1).every((x) => x.startsWith('opening@')),
    'opening until it is fully open',
  );
});

t.test('stop halts the door part-way; toggle then closes it', async (t) => {
  const core = await start(t, CONFIG);
  const id = 'cover.garage_door';
  const call = (service: string) => core.services.call('cover', service, { entity_id: id });
  await call('open_cover');
  await waitFor(core, id, (s) => (s.attributes.current_position as number) >= 30);
  await call('stop_cover');
  const stopped = core.states.get(id);
  t.equal(stopped?.state, 'open');
  const at = stopped?.attributes.current_position as number;
  t.ok(at >= 30 && at < 100, `stopped part-way at ${at}`);
  await call('toggle');
  t.equal(core.states.get(id)?.state, 'closing', 'a door stopped while opening closes on toggle');
  const closed = await waitFor(core, id, (s) => s.state === 'closed');
  t.equal(closed.attributes.current_position, 0);
});

t.test('set_cover_position moves either way; a new command redirects a moving cover', async (t) => {
  const core = await start(t, CONFIG);
  const id = 'cover.blinds';
  await core.services.call('cover', 'set_cover_position', { entity_id: id, position: 40 });
  t.equal(core.states.get(id)?.state, 'closing');
  await waitFor(core, id, (s) => s.state === 'open' && s.attributes.current_position === 40);
  await core.services.call('cover', 'close_cover', { entity_id: id });
  await waitFor(core, id, (s) => (s.attributes.current_position as number) <= 30);
  await core.services.call('cover', 'open_cover', { entity_id: id });
  t.equal(core.states.get(id)?.state, 'opening', 'reverses at once');
  await waitFor(core, id, (s) => s.state === 'open' && s.attributes.current_position === 100);
});

t.test('blinds tilt without changing their state', async (t) => {
  const core = await start(t, CONFIG);
  const id = 'cover.blinds';
  await core.services.call('cover', 'set_cover_tilt_position', { entity_id: id, tilt_position: 80 });
  const tilted = await waitFor(core, id, (s) => s.attributes.current_tilt_position === 80);
  t.equal(tilted.state, 'open');
  await core.services.call('cover', 'close_cover_tilt', { entity_id: id });
  await waitFor(core, id, (s) => s.attributes.current_tilt_position === 0);
  await core.services.call('cover', 'toggle_cover_tilt', { entity_id: id });
  await waitFor(core, id, (s) => s.attributes.current_tilt_position === 100);
});

t.test('a cover without position or stop moves instantly when travel_time is 0 and refuses what it lacks', async (t) => {
  const core = await start(t, CONFIG);
  const id = 'cover.gate';
  await core.services.call('cover', 'open_cover', { entity_id: id });
  t.equal(core.states.get(id)?.state, 'open');
  await t.rejects(core.services.call('cover', 'set_cover_position', { entity_id: id, position: 50 }), {
    message: 'Entity cover.gate does not support action cover.set_cover_position.',
  });
  await t.rejects(core.services.call('cover', 'stop_cover', { entity_id: id }), {
    message: 'Entity cover.gate does not support action cover.stop_cover.',
  });
  await core.services.call('cover', 'toggle', { entity_id: id });
  t.equal(core.states.get(id)?.state, 'closed');
});

t.test('configuration problems name the option and what is allowed', async (t) => {
  t.same(
    issuesOf(`
- platform: cover
  name: Bad
  device_class: trapdoor
  travel_time: -1
  initial_position: 150
  tilt: yes please
`),
    [
      'virtual.0.device_class: "trapdoor" is not allowed: expected one of awning, blind, curtain, damper, door, garage, gate, shade, shutter, window',
      'virtual.0.travel_time: -1 is not allowed: expected a number from 0 to 600',
      'virtual.0.initial_position: 150 is not allowed: expected an integer from 0 to 100',
      'virtual.0.tilt: "yes please" is not allowed: expected true or false',
    ],
  );
});
