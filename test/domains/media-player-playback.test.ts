import t from 'tap';
import { isoFromMicros, ManualClock } from '../../src/core/clock.js';
import { MediaPlayerFeature } from '../../src/domains/media-player.js';
import { ID, setup } from './media-player-rig.js';

/** The simulated player's playback: buffering, playing, pausing, seeking, the queue and play_media. */

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
