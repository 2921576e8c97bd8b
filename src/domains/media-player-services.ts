import type { Core } from '../core/core.js';
import type { Entity } from '../core/entities.js';
import { HubError } from '../core/errors.js';
import type { FieldSpec, ValidData } from '../core/fields.js';
import type { JsonObject, JsonValue } from '../core/json.js';
import { type Domain, dataOf, type EntityServiceSpec, featuresOf, platformOf, registerEntityServices } from './domain.js';
import {
  DEFAULT_VOLUME_STEP,
  ENQUEUE_MODES,
  type MediaEnqueue,
  type MediaPlayerData,
  MediaPlayerFeature,
  type MediaPlayerPlatform,
  type PlayMediaParams,
  REPEAT_MODES,
  type RepeatMode,
} from './media-player.js';

/**
 * media_player's service table and its Domain (the model, platform and rendering are in media-player.ts). Every
 * service is gated by its feature bits through the template (`feature:`), as Home Assistant's required_features:
 * an entity named explicitly without them is refused, one reached through `all` or an area is skipped.
 */

function unsupported(entity: Entity, service: string): HubError {
  return new HubError('service_validation', `Entity ${entity.id} does not support action media_player.${service}.`);
}

/** The platform's method for a service, or the "does not support" error when the driver has none. */
function method<K extends keyof MediaPlayerPlatform>(entity: Entity, name: K, service: string): NonNullable<MediaPlayerPlatform[K]> {
  const platform = platformOf<MediaPlayerPlatform>(entity, 'media_player');
  const fn = platform[name];
  if (fn === undefined) throw unsupported(entity, service);
  return fn.bind(platform) as NonNullable<MediaPlayerPlatform[K]>;
}

function listAttribute(entity: Entity, key: string): string[] | undefined {
  const v = entity.fixed[key];
  return Array.isArray(v) ? (v as string[]) : undefined;
}

/** Rounds away binary noise (0.1 + 0.2) without losing any precision a volume could mean. */
function cleanVolume(v: number): number {
  return Math.min(1, Math.max(0, Math.round(v * 1e6) / 1e6));
}

const F = MediaPlayerFeature;

type NoArgMethod = 'turnOn' | 'turnOff' | 'play' | 'pause' | 'stop' | 'nextTrack' | 'previousTrack' | 'clearPlaylist';

/** A service with no fields that maps straight onto one platform method behind one feature bit. */
function simple(service: string, name: string, description: string, feature: number, m: NoArgMethod): EntityServiceSpec {
  return { service, name, description, feature, run: (e) => method(e, m, service)() };
}

/** volume_up/volume_down: the player's own step, else Home Assistant's default through setVolume. */
function step(e: Entity, direction: 1 | -1): unknown {
  const service = direction === 1 ? 'volume_up' : 'volume_down';
  const platform = platformOf<MediaPlayerPlatform>(e, 'media_player');
  const own = direction === 1 ? platform.volumeUp : platform.volumeDown;
  if (own !== undefined) return own.call(platform);
  const level = e.attributes?.volume_level;
  if (typeof level !== 'number' || !(featuresOf(e) & F.VOLUME_SET)) return undefined;
  if ((direction === 1 && level >= 1) || (direction === -1 && level <= 0)) return undefined;
  const volumeStep = dataOf<MediaPlayerData>(e, 'media_player')?.volumeStep ?? DEFAULT_VOLUME_STEP;
  return method(e, 'setVolume', service)(cleanVolume(level + direction * volumeStep));
}

function playMedia(e: Entity, data: ValidData): unknown {
  const params: { -readonly [K in keyof PlayMediaParams]: PlayMediaParams[K] } = {
    contentType: data.media_content_type as string,
    contentId: data.media_content_id as string,
  };
  if (typeof data.enqueue === 'string') params.enqueue = data.enqueue as MediaEnqueue;
  if (typeof data.announce === 'boolean') params.announce = data.announce;
  if (data.extra !== undefined) params.extra = data.extra as JsonObject;
  return method(e, 'playMedia', 'play_media')(params);
}

/** A choice from the entity's list attribute (sources, sound modes): one not on the list is refused, naming the list. */
function choose(e: Entity, listKey: string, value: string, what: string, plural: string): string {
  const list = listAttribute(e, listKey);
  if (list !== undefined && !list.includes(value)) {
    throw new HubError('service_validation', `${what} ${value} is not valid. Valid ${plural} are: ${list.join(', ')}`);
  }
  return value;
}

const PLAY_MEDIA_FIELDS: Record<string, FieldSpec> = {
  media_content_id: {
    kind: 'text',
    required: true,
    maxLength: 4096,
    example: 'https://example.com/radio.mp3',
    description: 'The ID of the content to play. Platform dependent.',
  },
  media_content_type: {
    kind: 'text',
    required: true,
    maxLength: 255,
    example: 'music',
    description: 'The type of the content to play, such as music, playlist, channel or url.',
  },
  enqueue: {
    kind: 'select',
    options: ENQUEUE_MODES,
    description: 'If the content should be played now or be added to the queue.',
  },
  announce: { kind: 'boolean', description: 'If the media should be played as an announcement.' },
  extra: { kind: 'object', advanced: true, description: 'Extra, platform-specific data.' },
};

const SERVICES: readonly EntityServiceSpec[] = [
  simple('turn_on', 'Turn on', 'Turns on the power of the media player.', F.TURN_ON, 'turnOn'),
  simple('turn_off', 'Turn off', 'Turns off the power of the media player.', F.TURN_OFF, 'turnOff'),
  simple('media_play', 'Play', 'Starts playing.', F.PLAY, 'play'),
  simple('media_pause', 'Pause', 'Pauses.', F.PAUSE, 'pause'),
  simple('media_stop', 'Stop', 'Stops playing.', F.STOP, 'stop'),
  simple('media_next_track', 'Next', 'Selects the next track.', F.NEXT_TRACK, 'nextTrack'),
  simple('media_previous_track', 'Previous', 'Selects the previous track.', F.PREVIOUS_TRACK, 'previousTrack'),
  simple('clear_playlist', 'Clear playlist', 'Removes all items from the playlist.', F.CLEAR_PLAYLIST, 'clearPlaylist'),
  {
    service: 'toggle',
    name: 'Toggle',
    description: 'Toggles a media player on/off.',
    feature: { all: F.TURN_ON | F.TURN_OFF },
    run: (e) => {
      const s = e.state;
      return s === 'off' || s === 'idle' || s === 'standby' ? method(e, 'turnOn', 'toggle')() : method(e, 'turnOff', 'toggle')();
    },
  },
  {
    service: 'media_play_pause',
    name: 'Play/Pause',
    description: 'Toggles play/pause.',
    feature: { all: F.PLAY | F.PAUSE },
    run: (e) => (e.state === 'playing' ? method(e, 'pause', 'media_play_pause')() : method(e, 'play', 'media_play_pause')()),
  },
  // Home Assistant: VOLUME_SET or VOLUME_STEP will do.
  {
    service: 'volume_up',
    name: 'Turn up volume',
    description: 'Turns up the volume.',
    feature: F.VOLUME_SET | F.VOLUME_STEP,
    run: (e) => step(e, 1),
  },
  {
    service: 'volume_down',
    name: 'Turn down volume',
    description: 'Turns down the volume.',
    feature: F.VOLUME_SET | F.VOLUME_STEP,
    run: (e) => step(e, -1),
  },
  {
    service: 'volume_set',
    name: 'Set volume',
    description: 'Sets the volume level.',
    feature: F.VOLUME_SET,
    fields: {
      volume_level: {
        kind: 'number',
        required: true,
        min: 0,
        max: 1,
        step: 0.01,
        description: 'The volume. 0 is inaudible, 1 is the maximum.',
      },
    },
    run: (e, data) => method(e, 'setVolume', 'volume_set')(data.volume_level as number),
  },
  {
    service: 'volume_mute',
    name: 'Mute/unmute volume',
    description: 'Mutes or unmutes the media player.',
    feature: F.VOLUME_MUTE,
    fields: { is_volume_muted: { kind: 'boolean', required: true, description: 'Defines whether or not it is muted.' } },
    run: (e, data) => method(e, 'mute', 'volume_mute')(data.is_volume_muted as boolean),
  },
  {
    service: 'media_seek',
    name: 'Seek',
    description: 'Allows you to go to a different part of the media that is currently playing.',
    feature: F.SEEK,
    fields: {
      seek_position: { kind: 'number', required: true, min: 0, unit: 's', description: 'Target position in the currently playing media.' },
    },
    run: (e, data) => method(e, 'seek', 'media_seek')(data.seek_position as number),
  },
  {
    service: 'play_media',
    name: 'Play media',
    description: 'Starts playing specified media.',
    feature: F.PLAY_MEDIA,
    schema: { fields: PLAY_MEDIA_FIELDS, exclusive: [['enqueue', 'announce']] },
    run: playMedia,
  },
  {
    service: 'select_source',
    name: 'Select source',
    description: 'Sends the media player the command to change input source.',
    feature: F.SELECT_SOURCE,
    fields: {
      source: { kind: 'text', required: true, maxLength: 255, example: 'video1', description: 'Name of the source to switch to.' },
    },
    run: (e, data) => method(e, 'selectSource', 'select_source')(choose(e, 'source_list', data.source as string, 'Source', 'sources')),
  },
  {
    service: 'select_sound_mode',
    name: 'Select sound mode',
    description: 'Selects a specific sound mode.',
    feature: F.SELECT_SOUND_MODE,
    fields: {
      sound_mode: { kind: 'text', required: true, maxLength: 255, example: 'Music', description: 'Name of the sound mode to switch to.' },
    },
    run: (e, data) =>
      method(
        e,
        'selectSoundMode',
        'select_sound_mode',
      )(choose(e, 'sound_mode_list', data.sound_mode as string, 'Sound mode', 'sound modes')),
  },
  {
    service: 'shuffle_set',
    name: 'Shuffle',
    description: 'Playback mode that selects the media in randomized order.',
    feature: F.SHUFFLE_SET,
    fields: { shuffle: { kind: 'boolean', required: true, description: 'Whether or not shuffle mode is enabled.' } },
    run: (e, data) => method(e, 'setShuffle', 'shuffle_set')(data.shuffle as boolean),
  },
  {
    service: 'repeat_set',
    name: 'Repeat',
    description: 'Playback mode that plays the media in a loop.',
    feature: F.REPEAT_SET,
    fields: { repeat: { kind: 'select', required: true, options: REPEAT_MODES, description: 'Repeat mode to set.' } },
    run: (e, data) => method(e, 'setRepeat', 'repeat_set')(data.repeat as RepeatMode),
  },
];

export const mediaPlayerDomain: Domain = {
  name: 'media_player',
  restored: true,
  registerServices(core: Core): void {
    registerEntityServices(core, 'media_player', SERVICES);
  },

  /** As Home Assistant's media_player reproduce_state: power, then volume/source/sound mode/media, then playback. */
  async reproduceState(core, entityId, desired, context) {
    const entity = core.entities.get(entityId);
    if (entity === undefined) return;
    const f = featuresOf(entity);
    const call = (service: string, data: Record<string, JsonValue> = {}) =>
      core.services.call('media_player', service, { entity_id: entityId, ...data }, { context });
    const target = desired.state;
    if (target === 'off' || target === 'standby') {
      if (f & F.TURN_OFF && entity.state !== 'off') await call('turn_off');
      return;
    }
    if (!['on', 'idle', 'playing', 'paused', 'buffering'].includes(target)) return;
    if ((entity.state === 'off' || entity.state === 'standby') && f & F.TURN_ON) await call('turn_on');
    const a = desired.attributes;
    if (typeof a.volume_level === 'number' && f & F.VOLUME_SET) await call('volume_set', { volume_level: a.volume_level });
    if (typeof a.is_volume_muted === 'boolean' && f & F.VOLUME_MUTE) await call('volume_mute', { is_volume_muted: a.is_volume_muted });
    if (typeof a.source === 'string' && f & F.SELECT_SOURCE) await call('select_source', { source: a.source });
    if (typeof a.sound_mode === 'string' && f & F.SELECT_SOUND_MODE) await call('select_sound_mode', { sound_mode: a.sound_mode });
    if (typeof a.media_content_id === 'string' && typeof a.media_content_type === 'string' && f & F.PLAY_MEDIA) {
      await call('play_media', { media_content_id: a.media_content_id, media_content_type: a.media_content_type });
    }
    if (target === 'playing' && f & F.PLAY) await call('media_play');
    else if (target === 'paused' && f & F.PAUSE) await call('media_pause');
    else if (target === 'idle' && f & F.STOP) await call('media_stop');
  },
};
