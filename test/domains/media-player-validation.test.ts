import t from 'tap';
import { parseVirtualSection } from '../../drivers/virtual/index.js';
import type { ConfigIssue } from '../../src/config/reader.js';
import { Core } from '../../src/core/core.js';
import type { JsonObject, JsonValue } from '../../src/core/json.js';
import { silentLogger } from '../../src/core/log.js';
import { addMediaPlayer, MediaPlayerFeature } from '../../src/domains/media-player.js';
import { mediaPlayerDomain } from '../../src/domains/media-player-services.js';
import { setup } from './media-player-rig.js';

/** What is refused: bad service data, services a player lacks the feature for, bad YAML options. */

function parseIssues(item: JsonObject): string[] {
  const issues: ConfigIssue[] = [];
  parseVirtualSection([{ platform: 'media_player', name: 'Living Room', ...item }], ['virtual'], issues);
  return issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

t.test('bad service data is refused naming the field and what is allowed', async (t) => {
  const { call } = setup(t);
  const bad: [string, Record<string, JsonValue>, string][] = [
    ['volume_set', { volume_level: 1.5 }, "value must be between 0 and 1 for dictionary value @ data['volume_level']. Got 1.5"],
    ['volume_set', { volume_level: -0.1 }, "value must be between 0 and 1 for dictionary value @ data['volume_level']. Got -0.1"],
    ['volume_set', { volume_level: 'loud' }, "expected float for dictionary value @ data['volume_level']. Got 'loud'"],
    ['volume_set', {}, "required key not provided @ data['volume_level']. Got None"],
    ['volume_mute', { is_volume_muted: 'maybe' }, "invalid boolean value 'maybe' for dictionary value @ data['is_volume_muted']"],
    ['media_seek', { seek_position: -5 }, "value must be at least 0 for dictionary value @ data['seek_position']. Got -5"],
    ['repeat_set', { repeat: 'sometimes' }, "value must be one of off, all, one for dictionary value @ data['repeat']. Got 'sometimes'"],
    ['shuffle_set', {}, "required key not provided @ data['shuffle']"],
    ['play_media', { media_content_id: 'x' }, "required key not provided @ data['media_content_type']"],
    [
      'play_media',
      { media_content_id: 'x', media_content_type: 'music', enqueue: 'later' },
      "value must be one of add, next, play, replace for dictionary value @ data['enqueue']",
    ],
    [
      'play_media',
      { media_content_id: 'x', media_content_type: 'music', enqueue: 'add', announce: true },
      'two or more values in the same group of exclusion',
    ],
    ['media_play', { volume_level: 1 }, "extra keys not allowed @ data['volume_level']"],
  ];
  for (const [service, data, message] of bad) {
    await t.rejects(call(service, data), { kind: 'invalid_service_data', message }, `${service} ${JSON.stringify(data)}`);
  }
  await t.rejects(call('select_source', { source: 'Vinyl' }), {
    kind: 'service_validation',
    message: 'Source Vinyl is not valid. Valid sources are: Spotify, Radio, Line in, Bluetooth',
  });
  await t.rejects(call('select_sound_mode', { sound_mode: 'Disco' }), {
    kind: 'service_validation',
    message: 'Sound mode Disco is not valid. Valid sound modes are: Stereo, Music, Movie, Night',
  });
});

t.test('a player without a feature refuses its services with Home Assistant’s message', async (t) => {
  const core = new Core({ log: silentLogger });
  mediaPlayerDomain.registerServices(core);
  let on = false;
  const tv = addMediaPlayer(core, {
    entityId: 'media_player.tv',
    owner: 'test',
    capabilities: { supportedFeatures: MediaPlayerFeature.TURN_ON | MediaPlayerFeature.VOLUME_STEP },
    platform: {
      turnOn() {
        on = true;
        tv.report({ state: 'on' });
      },
    },
  });
  tv.report({ state: 'off' });
  const call = (service: string, data: Record<string, JsonValue> = {}) =>
    core.services.call('media_player', service, { entity_id: 'media_player.tv', ...data });
  await t.rejects(call('volume_set', { volume_level: 0.2 }), {
    kind: 'service_validation',
    message: 'Entity media_player.tv does not support action media_player.volume_set.',
  });
  await t.rejects(
    call('toggle'),
    { message: 'Entity media_player.tv does not support action media_player.toggle.' },
    'toggle needs on and off',
  );
  await t.rejects(call('media_play_pause'), { message: 'Entity media_player.tv does not support action media_player.media_play_pause.' });
  await call('volume_up');
  t.equal(core.states.get('media_player.tv')?.state, 'off', 'VOLUME_STEP without a volume to step from does nothing');
  await call('turn_on');
  t.ok(on);
  t.equal(core.states.get('media_player.tv')?.state, 'on');
  t.same(core.states.get('media_player.tv')?.attributes, { supported_features: 1152 }, 'no state attributes the player does not know');
});

t.test('media_seek on `all` skips the players that cannot seek, as Home Assistant does', async (t) => {
  const core = new Core({ log: silentLogger });
  mediaPlayerDomain.registerServices(core);
  const seeks: string[] = [];
  const player = (id: string, supportedFeatures: number) => {
    const h = addMediaPlayer(core, {
      entityId: id,
      owner: 'test',
      capabilities: { supportedFeatures },
      platform: {
        seek(position) {
          seeks.push(`${id}@${position}`);
        },
        turnOn() {},
      },
    });
    h.report({ state: 'playing' });
  };
  player('media_player.kitchen', MediaPlayerFeature.SEEK);
  player('media_player.radio', MediaPlayerFeature.TURN_ON);
  await core.services.call('media_player', 'media_seek', { entity_id: 'all', seek_position: 42 });
  t.same(seeks, ['media_player.kitchen@42'], 'only the player that can seek seeks; the call succeeds');
  await t.rejects(
    core.services.call('media_player', 'media_seek', { entity_id: ['media_player.kitchen', 'media_player.radio'], seek_position: 1 }),
    { kind: 'service_validation', message: 'Entity media_player.radio does not support action media_player.media_seek.' },
    'a player named explicitly without the feature is still refused',
  );
  await core.services.call('media_player', 'toggle', { entity_id: 'all' });
  t.pass('toggle on `all` skips players without both TURN_ON and TURN_OFF');
});

t.test('YAML options are validated with the allowed values in the message', async (t) => {
  t.same(parseIssues({}), []);
  t.same(parseIssues({ source: 'Vinyl' }), [
    'virtual.0.source: "Vinyl" is not allowed: expected one of Spotify, Radio, Line in, Bluetooth',
  ]);
  t.same(parseIssues({ initial: 'on' }), ['virtual.0.initial: "on" is not allowed: expected one of off, idle, paused, playing']);
  t.same(parseIssues({ volume: 2 }), ['virtual.0.volume: 2 is not allowed: expected a number from 0 to 1']);
  t.same(parseIssues({ playlist: [{ artist: 'Nobody' }] }), ['virtual.0.playlist.0.title: is required: expected a string']);
  t.same(parseIssues({ playlist: [{ title: 'X', length: 3 }] }), [
    'virtual.0.playlist.0.length: unknown option; allowed: album, artist, duration, title',
  ]);
  t.match(parseIssues({ colour: 'red' })[0], /^virtual\.0\.colour: unknown option; allowed: .*buffering_time/);
});
