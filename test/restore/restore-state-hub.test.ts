import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { seededRandom } from '../../drivers/virtual/index.js';
import { parseConfigText } from '../../src/config/load.js';
import type { JsonObject } from '../../src/core/json.js';
import { silentLogger } from '../../src/core/log.js';
import { Hub, SECTION_VALIDATORS } from '../../src/hub.js';
import { waitForState } from '../fakes/wait-state.js';

const YAML = `
hub:
  name: Restore Home
  restore_flush_s: 0.1
virtual:
  - {platform: light, id: desk, name: Desk, color_modes: [hs, color_temp]}
  - {platform: switch, id: kettle, name: Kettle}
  - {platform: cover, id: blind, name: Blind, travel_time: 0.2}
  - platform: climate
    id: hall
    name: Hall
    hvac_modes: ["off", heat, cool]
    hvac_mode: "off"
    current_temperature: 19
    target_temp_step: 0.5
  - {platform: lock, id: door, name: Door, transition_time: 0}
  - {platform: media_player, id: speaker, name: Speaker, initial: idle, volume: 0.5, source: Radio, sources: [Radio, Spotify]}
  - {platform: sensor, id: temp, name: Temp, device_class: temperature}
automation:
  - id: ping
    alias: Ping
    triggers:
      - {trigger: event, event_type: ping}
    actions:
      - {event: pong}
`;

async function startHub(dataDir: string, yaml = YAML): Promise<Hub> {
  return Hub.start({
    config: parseConfigText(yaml, null, SECTION_VALIDATORS),
    dataDir,
    log: silentLogger,
    host: '127.0.0.1',
    port: 0,
    random: seededRandom(7),
  });
}

t.test('a new hub on the same data dir brings back what the user set', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-restore-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));

  const first = await startHub(dataDir);
  const call = (domain: string, service: string, data: Record<string, unknown>) =>
    first.core.services.call(domain, service, data as JsonObject);
  await call('light', 'turn_on', { entity_id: 'light.desk', brightness_pct: 40, color_name: 'red' });
  await call('switch', 'turn_on', { entity_id: 'switch.kettle' });
  await call('cover', 'set_cover_position', { entity_id: 'cover.blind', position: 30 });
  await call('climate', 'set_hvac_mode', { entity_id: 'climate.hall', hvac_mode: 'heat' });
  await call('climate', 'set_temperature', { entity_id: 'climate.hall', temperature: 22.5 });
  await call('lock', 'unlock', { entity_id: 'lock.door' });
  await call('media_player', 'volume_set', { entity_id: 'media_player.speaker', volume_level: 0.3 });
  await call('media_player', 'select_source', { entity_id: 'media_player.speaker', source: 'Spotify' });
  await call('automation', 'trigger', { entity_id: 'automation.ping' });
  await call('automation', 'turn_off', { entity_id: 'automation.ping' });
  await waitForState(first.core, 'cover.blind', (s) => s.state === 'open' && s.attributes.current_position === 30);
  await waitForState(first.core, 'lock.door', (s) => s.state === 'unlocked');
  const lastTriggered = first.core.states.get('automation.ping')?.attributes.last_triggered;
  t.type(lastTriggered, 'string');
  const before = {
    light: first.core.states.get('light.desk')?.attributes,
    sensor: first.core.states.get('sensor.temp')?.state,
  };
  await first.stop();

  const second = await startHub(dataDir);
  t.teardown(() => second.stop());
  const { core } = second;
  const light = await waitForState(core, 'light.desk', (s) => s.state === 'on' && s.attributes.brightness === 102);
  t.same(light.attributes.hs_color, before.light?.hs_color, 'red again');
  t.equal(light.attributes.restored, undefined, 'not marked restored once the device answered');
  t.equal(core.states.get('switch.kettle')?.state, 'on');
  await waitForState(core, 'cover.blind', (s) => s.state === 'open' && s.attributes.current_position === 30);
  const climate = await waitForState(core, 'climate.hall', (s) => s.state === 'heat' && s.attributes.temperature === 22.5);
  t.equal(climate.state, 'heat');
  await waitForState(core, 'lock.door', (s) => s.state === 'unlocked');
  const speaker = await waitForState(core, 'media_player.speaker', (s) => s.attributes.volume_level === 0.3);
  t.equal(speaker.attributes.source, 'Spotify');
  const automation = await waitForState(core, 'automation.ping', (s) => s.state === 'off');
  t.equal(automation.attributes.last_triggered, lastTriggered, 'last_triggered kept');
  t.ok(second.restoreState?.get('light.desk'), 'restorable entity stored');
  t.equal(second.restoreState?.get('sensor.temp'), undefined, 'sensors are not stored');
});

t.test('an entity whose driver never reports shows its stored state as restored, then unavailable', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-restore-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const first = await startHub(dataDir);
  await first.core.services.call('switch', 'turn_on', { entity_id: 'switch.kettle' });
  await first.stop();

  // A driver that adds the entity but whose device never answers.
  const { RestoreState } = await import('../../src/restore/restore-state.js');
  const { Core } = await import('../../src/core/core.js');
  const core = new Core({ log: silentLogger });
  const store = await RestoreState.open({ core, dataDir, log: silentLogger, reportDeadlineMs: 100 });
  t.teardown(() => store.stop());
  core.entities.add({ entityId: 'switch.kettle', owner: 'silent', platform: {}, name: 'Kettle' });
  const shown = core.states.get('switch.kettle');
  t.equal(shown?.state, 'on', 'the last state is shown at once');
  t.equal(shown?.attributes.restored, true, 'marked restored');
  t.equal(shown?.attributes.friendly_name, 'Kettle');
  await waitForState(core, 'switch.kettle', (s) => s.state === 'unavailable', 3000);
  t.pass('unavailable after the report deadline');
});

t.test('hub: restore_flush_s is read, checked, and absent unless set', async (t) => {
  t.equal(parseConfigText('hub:\n  restore_flush_s: 2\n', null, SECTION_VALIDATORS).hub.restore_flush_s, 2);
  t.equal(parseConfigText('hub:\n  name: Home\n', null, SECTION_VALIDATORS).hub.restore_flush_s, undefined);
  t.throws(() => parseConfigText('hub:\n  restore_flush_s: 0\n', null, SECTION_VALIDATORS), /restore_flush_s: 0 is not allowed/);
  t.equal(parseConfigText('hub:\n  restore_report_flush_s: 30\n', null, SECTION_VALIDATORS).hub.restore_report_flush_s, 30);
  t.throws(
    () => parseConfigText('hub:\n  restore_report_flush_s: 7200\n', null, SECTION_VALIDATORS),
    /restore_report_flush_s: 7200 is not allowed/,
  );
});
