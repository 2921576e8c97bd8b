import t from 'tap';
import type { JsonObject } from '../../src/core/json.js';
import { mediaPlayerDomain } from '../../src/domains/media-player-services.js';
import { ID, setup } from './media-player-rig.js';

/** Volume, mute, source, sound mode, shuffle and repeat; power; scenes; the service catalogue. */

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
