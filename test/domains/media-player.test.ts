import t from 'tap';
import { parseVirtualSection, seededRandom } from '../../drivers/virtual/index.js';
import type { VirtualContext } from '../../drivers/virtual/types.js';
import type { ConfigIssue } from '../../src/config/reader.js';
import { type Clock, isoFromMicros, ManualClock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import type { JsonObject, JsonValue } from '../../src/core/json.js';
import { silentLogger } from '../../src/core/log.js';
import type { State } from '../../src/core/state.js';
import { addMediaPlayer, MediaPlayerFeature } from '../../src/domains/media-player.js';
import { mediaPlayerDomain } from '../../src/domains/media-player-services.js';
import { Timers } from '../../src/util/timers.js';
import { waitForState } from '../helpers/wait.js';

interface Teardown {
  teardown(fn: () => unknown): void;
}

const ID = 'media_player.living_room';

function setup(t: Teardown, item: JsonObject = {}, clock: Clock = new ManualClock()) {
  const core = new Core({ log: silentLogger, clock });
  mediaPlayerDomain.registerServices(core);
  const timers = new Timers((err) => {
    throw err;
  });
  t.teardown(() => timers.stopAll());
  const issues: ConfigIssue[] = [];
  const [parsed] = parseVirtualSection(
    [{ platform: 'media_player', name: 'Living Room', buffering_time: 0.02, ...item }],
    ['virtual'],
    issues,
  );
  if (parsed === undefined || issues.length > 0) throw new Error(`bad test config: ${JSON.stringify(issues)}`);
  const ctx: VirtualContext = { core, log: silentLogger, owner: 'virtual', timers, random: seededRandom(7) };
  parsed.platform.create(ctx, { entityId: parsed.entityId, name: parsed.name }, parsed.options);
  const state = () => core.states.get(ID) as State;
  return {
    core,
    state,
    attrs: () => state().attributes,
    call: (service: string, data: Record<string, JsonValue> = {}) =>
      core.services.call('media_player', service, { entity_id: ID, ...data }, { collectChanges: true }),
    waitFor: (pred: (s: State) => boolean, ms?: number) => waitForState(core, ID, pred, ms),
  };
}

function parseIssues(item: JsonObject): string[] {
  const issues: ConfigIssue[] = [];
  parseVirtualSection([{ platform: 'media_player', name: 'Living Room', ...item }], ['virtual'], issues);
  return issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

t.test('a minimal player is idle with Home Assistant capability and state attributes', async (t) => {
  const { state, attrs } = setup(t);
  t.equal(state().state, 'idle');
  const a = attrs();
  t.same(a.source_list, ['Spotify', 'Radio', 'Line in', 'Bluetooth']);
  t.same(a.sound_mode_list, ['Stereo', 'Music', 'Movie', 'Night']);
  t.equal(a.device_class, 'speaker');
  t.equal(a.friendly_name, 'Living Room');
  const F = MediaPlayerFeature;
  const expected =
    F.PAUSE | F.SEEK | F.VOLUME_SET | F.VOLUME_MUTE | F.PREVIOUS_TRACK | F.NEXT_TRACK | F.TURN_ON | F.TURN_OFF | F.PLAY_MEDIA;
  t.equal((a.supported_features as number) & expected, expected);
  t.equal(a.supported_features, 2490303, 'every feature the simulation implements, and no grouping or browsing');
  t.match(a, { volume_level: 0.35, is_volume_muted: false, source: 'Spotify', sound_mode: 'Stereo', shuffle: false, repeat: 'off' });
  t.notOk('media_title' in a, 'nothing loaded while idle');
  t.notOk('media_position' in a);
});

t.test('play buffers, then plays the first track with position and the time it was read', async (t) => {
  const clock = new ManualClock();
  const { call, waitFor, attrs } = setup(t, {}, clock);
  const result = await call('media_play');
  t.equal(result.changed[0]?.state, 'buffering', 'the call reports the buffering state it caused');
  const playing = await waitFor((s) => s.state === 'playing');
  t.match(playing.attributes, {
    media_content_id: 'library:track:1',
    media_content_type: 'music',
    media_duration: 303,
    media_position: 0,
    media_position_updated_at: isoFromMicros(clock.now()),
    media_title: 'Clair de Lune',
    media_artist: 'Claude Debussy',
    media_album_name: 'Suite bergamasque',
    media_album_artist: 'Claude Debussy',
    media_track: 1,
    media_playlist: 'Evening Classics',
  });
  const keys = Object.keys(attrs());
  t.ok(keys.indexOf('volume_level') < keys.indexOf('media_content_id'), "attributes in Home Assistant's order");
  t.ok(keys.indexOf('media_position_updated_at') < keys.indexOf('media_title'));

  // The position is not re-reported as it advances: a volume change 42 s later keeps the same pair.
  const before = attrs();
  clock.advance(42_000_000);
  await call('volume_set', { volume_level: 0.5 });
  t.equal(attrs().media_position, before.media_position);
  t.equal(attrs().media_position_updated_at, before.media_position_updated_at);
  t.equal(attrs().volume_level, 0.5);

  // Pausing reads the position where playback is now.
  clock.advance(1_500_000);
  await call('media_pause');
  t.equal(attrs().media_position, 43.5);
  t.equal(attrs().media_position_updated_at, isoFromMicros(clock.now()));
  t.equal(await waitFor((s) => s.state === 'paused').then((s) => s.state), 'paused');

  // Paused, time passes without moving the position; play resumes from it without buffering.
  clock.advance(10_000_000);
  const resumed = await call('media_play');
  t.equal(resumed.changed[0]?.state, 'playing');
  t.equal(attrs().media_position, 43.5);
  t.equal(attrs().media_position_updated_at, isoFromMicros(clock.now()));
});

t.test('media_play_pause toggles, media_stop goes idle and drops the media attributes', async (t) => {
  const { call, waitFor, attrs, state } = setup(t, { initial: 'paused' });
  t.equal(state().state, 'paused');
  t.equal(attrs().media_title, 'Clair de Lune', 'a paused player shows what is loaded');
  await call('media_play_pause');
  t.equal(state().state, 'playing');
  await call('media_play_pause');
  t.equal(state().state, 'paused');
  await call('media_stop');
  t.equal(state().state, 'idle');
  t.notOk('media_title' in attrs());
  await call('media_play_pause');
  await waitFor((s) => s.state === 'playing');
});

t.test('seek moves the position; previous restarts the track after 3 s, else goes back', async (t) => {
  const clock = new ManualClock();
  const { call, attrs, waitFor } = setup(t, { initial: 'paused' }, clock);
  await call('media_seek', { seek_position: 100 });
  t.match(attrs(), { media_position: 100, media_position_updated_at: isoFromMicros(clock.now()), media_track: 1 });
  await call('media_seek', { seek_position: 5000 });
  t.equal(attrs().media_position, 303, 'clipped to the duration');

  await call('media_next_track');
  t.match(attrs(), { media_track: 2, media_title: 'Gymnopédie No. 1', media_position: 0 });
  t.equal((await waitFor((s) => s.state === 'paused')).state, 'paused', 'next while paused stays paused');

  await call('media_seek', { seek_position: 10 });
  await call('media_previous_track');
  t.match(attrs(), { media_track: 2, media_position: 0 }, 'more than 3 s in: back to the start of the track');
  await call('media_previous_track');
  t.match(attrs(), { media_track: 1 }, 'at the start: the previous track');
  await call('media_previous_track');
  t.match(attrs(), { media_track: 1 }, 'the first track has no previous one with repeat off');
  await call('repeat_set', { repeat: 'all' });
  await call('media_previous_track');
  t.match(attrs(), { media_track: 5 }, 'with repeat all it wraps to the last track');
});

t.test('tracks play through the queue; repeat one, repeat all and the end of the queue', async (t) => {
  const playlist = [
    { title: 'One', artist: 'A', duration: 0.1 },
    { title: 'Two', artist: 'B', duration: 0.1 },
  ];
  const { call, waitFor, attrs } = setup(t, { playlist, buffering_time: 0 }, { now: () => Date.now() * 1000 });
  await call('media_play');
  t.equal(attrs().media_title, 'One');
  await waitFor((s) => s.attributes.media_title === 'Two' && s.state === 'playing');
  const end = await waitFor((s) => s.state === 'idle');
  t.notOk('media_title' in end.attributes, 'after the last track with repeat off the player stops');

  await call('repeat_set', { repeat: 'all' });
  await call('media_play');
  await waitFor((s) => s.attributes.media_title === 'Two');
  await waitFor((s) => s.attributes.media_title === 'One' && s.state === 'playing');
  t.pass('repeat all wraps around to the first track');

  await call('repeat_set', { repeat: 'one' });
  await call('play_media', { media_content_id: 'library', media_content_type: 'playlist' });
  const first = await waitFor((s) => s.attributes.media_title === 'One' && s.attributes.repeat === 'one');
  const again = await waitFor((s) => s.attributes.media_position_updated_at !== first.attributes.media_position_updated_at);
  t.equal(again.attributes.media_title, 'One', 'repeat one plays the same track again');
});

t.test('buffering_time holds a new track in buffering before it plays', async (t) => {
  const { call, state, waitFor } = setup(t, { buffering_time: 0.05 });
  await call('media_play');
  t.equal(state().state, 'buffering');
  t.equal(state().attributes.media_position, 0);
  await waitFor((s) => s.state === 'playing');
});

t.test('volume, mute, source, sound mode, shuffle and repeat', async (t) => {
  const { call, attrs } = setup(t);
  await call('volume_set', { volume_level: 0.6 });
  t.equal(attrs().volume_level, 0.6);
  await call('volume_up');
  t.equal(attrs().volume_level, 0.7, 'a 0.1 step, without binary noise');
  await call('volume_down');
  await call('volume_down');
  t.equal(attrs().volume_level, 0.5);
  await call('volume_set', { volume_level: '0.95' });
  await call('volume_up');
  t.equal(attrs().volume_level, 1, 'clipped at 1');
  await call('volume_up');
  t.equal(attrs().volume_level, 1);
  await call('volume_mute', { is_volume_muted: true });
  t.equal(attrs().is_volume_muted, true);
  await call('select_source', { source: 'Radio' });
  t.equal(attrs().source, 'Radio');
  await call('select_sound_mode', { sound_mode: 'Night' });
  t.equal(attrs().sound_mode, 'Night');
  await call('shuffle_set', { shuffle: 'on' });
  t.equal(attrs().shuffle, true);
  await call('repeat_set', { repeat: 'one' });
  t.equal(attrs().repeat, 'one');
});

t.test('turn_off hides the state attributes; toggle follows Home Assistant (on from off/idle, else off)', async (t) => {
  const { call, state, attrs, waitFor } = setup(t);
  await call('turn_off');
  t.equal(state().state, 'off');
  t.notOk('volume_level' in attrs(), 'an off player shows only its capability attributes');
  t.same(attrs().source_list, ['Spotify', 'Radio', 'Line in', 'Bluetooth']);
  await call('toggle');
  t.equal(state().state, 'idle');
  await call('toggle');
  t.equal(state().state, 'idle', 'idle toggles to on, which is idle again');
  await call('media_play');
  await waitFor((s) => s.state === 'playing');
  await call('toggle');
  t.equal(state().state, 'off');
  await call('media_next_track');
  t.equal(state().state, 'off', 'transport commands do nothing while off');
  await call('media_play');
  t.equal(state().state, 'buffering', 'play turns the player on');
});

t.test('play_media replaces, plays next, queues, and reloads the playlist', async (t) => {
  const { call, attrs, waitFor, state } = setup(t);
  await call('play_media', { media_content_id: 'https://example.com/music/Morning%20Jazz.mp3', media_content_type: 'music' });
  const playing = await waitFor((s) => s.state === 'playing');
  t.match(playing.attributes, {
    media_content_id: 'https://example.com/music/Morning%20Jazz.mp3',
    media_title: 'Morning Jazz',
    media_track: 1,
    media_duration: 240,
  });
  t.notOk('media_playlist' in playing.attributes);

  await call('play_media', { media_content_id: 'radio-1', media_content_type: 'channel', enqueue: 'add' });
  t.equal(attrs().media_title, 'Morning Jazz', 'add only queues');
  await call('play_media', { media_content_id: 'news', media_content_type: 'music', enqueue: 'next' });
  await call('media_next_track');
  await waitFor((s) => s.state === 'playing' && s.attributes.media_title === 'news');
  await call('media_next_track');
  await waitFor((s) => s.state === 'playing' && s.attributes.media_title === 'radio-1');

  await call('play_media', { media_content_id: 'now!', media_content_type: 'music', enqueue: 'play' });
  t.match(attrs(), { media_title: 'now!', media_track: 4 });

  await call('play_media', { media_content_id: 'anything', media_content_type: 'playlist' });
  t.match(attrs(), { media_title: 'Clair de Lune', media_track: 1, media_playlist: 'Evening Classics' });

  await call('clear_playlist');
  t.equal(state().state, 'idle');
  await call('media_play');
  t.equal(state().state, 'idle', 'nothing to play after clearing the queue');
});

t.test('the queue is bounded', async (t) => {
  const { call } = setup(t, { playlist: [] });
  for (let i = 0; i < 100; i++) await call('play_media', { media_content_id: `item-${i}`, media_content_type: 'music', enqueue: 'add' });
  await t.rejects(call('play_media', { media_content_id: 'one too many', media_content_type: 'music', enqueue: 'add' }), {
    kind: 'service_validation',
    message: `The queue of ${ID} is full (100 items): clear it or use enqueue: replace`,
  });
  await call('play_media', { media_content_id: 'fresh', media_content_type: 'music', enqueue: 'replace' });
});

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

t.test('scenes: reproduceState powers on, applies volume and source, then plays', async (t) => {
  const { core, state, waitFor } = setup(t, { initial: 'off' });
  await mediaPlayerDomain.reproduceState?.(
    core,
    ID,
    { state: 'playing', attributes: { volume_level: 0.2, source: 'Radio' } },
    core.newContext(),
  );
  await waitFor((s) => s.state === 'playing');
  t.match(state().attributes, { volume_level: 0.2, source: 'Radio', media_title: 'Clair de Lune' });
  await mediaPlayerDomain.reproduceState?.(core, ID, { state: 'off', attributes: {} }, core.newContext());
  t.equal(state().state, 'off');
});

t.test('the service catalogue carries the field ranges', async (t) => {
  const { core } = setup(t);
  const services = core.services.catalogue().media_player as Record<string, JsonObject>;
  t.match(services.volume_set, { fields: { volume_level: { required: true, selector: { number: { min: 0, max: 1 } } } } });
  t.match(services.repeat_set, { fields: { repeat: { selector: { select: { options: ['off', 'all', 'one'] } } } } });
  t.ok(services.play_media && services.select_sound_mode && services.clear_playlist);
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
