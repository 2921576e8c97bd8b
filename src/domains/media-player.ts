import { isoFromMicros, type Micros } from '../core/clock.js';
import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import { HubError } from '../core/errors.js';
import type { FieldSpec, ServiceSchema, ValidData } from '../core/fields.js';
import type { JsonObject, JsonValue } from '../core/json.js';
import { type Domain, dataOf, platformOf, registerEntityServices, requireFeature } from './domain.js';

/** MediaPlayerEntityFeature. */
export const MediaPlayerFeature = {
  PAUSE: 1,
  SEEK: 2,
  VOLUME_SET: 4,
  VOLUME_MUTE: 8,
  PREVIOUS_TRACK: 16,
  NEXT_TRACK: 32,
  TURN_ON: 128,
  TURN_OFF: 256,
  PLAY_MEDIA: 512,
  VOLUME_STEP: 1024,
  SELECT_SOURCE: 2048,
  STOP: 4096,
  CLEAR_PLAYLIST: 8192,
  PLAY: 16384,
  SHUFFLE_SET: 32768,
  SELECT_SOUND_MODE: 65536,
  BROWSE_MEDIA: 131072,
  REPEAT_SET: 262144,
  GROUPING: 524288,
  MEDIA_ANNOUNCE: 1048576,
  MEDIA_ENQUEUE: 2097152,
} as const;

export type MediaPlayerState = 'off' | 'on' | 'idle' | 'playing' | 'paused' | 'standby' | 'buffering';
export type RepeatMode = 'off' | 'all' | 'one';
export type MediaEnqueue = 'add' | 'next' | 'play' | 'replace';
export type MediaPlayerDeviceClass = 'tv' | 'speaker' | 'receiver';

export const REPEAT_MODES: readonly RepeatMode[] = ['off', 'all', 'one'];
export const ENQUEUE_MODES: readonly MediaEnqueue[] = ['add', 'next', 'play', 'replace'];

export interface PlayMediaParams {
  readonly contentType: string;
  readonly contentId: string;
  readonly enqueue?: MediaEnqueue;
  readonly announce?: boolean;
  readonly extra?: JsonObject;
}

/**
 * What a media player can be asked. A method is needed for each feature bit the player declares; the
 * domain checks the bit first, so a call the player lacks is refused with Home Assistant's message.
 * volumeUp/volumeDown are optional even with VOLUME_STEP: without them the domain steps the volume
 * through setVolume, as Home Assistant's default does.
 */
export interface MediaPlayerPlatform {
  turnOn?(): void | Promise<void>;
  turnOff?(): void | Promise<void>;
  setVolume?(level: number): void | Promise<void>;
  mute?(muted: boolean): void | Promise<void>;
  volumeUp?(): void | Promise<void>;
  volumeDown?(): void | Promise<void>;
  play?(): void | Promise<void>;
  pause?(): void | Promise<void>;
  stop?(): void | Promise<void>;
  nextTrack?(): void | Promise<void>;
  previousTrack?(): void | Promise<void>;
  seek?(position: number): void | Promise<void>;
  playMedia?(params: PlayMediaParams): void | Promise<void>;
  selectSource?(source: string): void | Promise<void>;
  selectSoundMode?(mode: string): void | Promise<void>;
  setShuffle?(shuffle: boolean): void | Promise<void>;
  setRepeat?(repeat: RepeatMode): void | Promise<void>;
  clearPlaylist?(): void | Promise<void>;
}

/** What is loaded; every field optional, as players know different things about what they play. */
export interface MediaInfo {
  readonly contentId?: string;
  readonly contentType?: string;
  /** Seconds. */
  readonly duration?: number;
  readonly title?: string;
  readonly artist?: string;
  readonly albumName?: string;
  readonly albumArtist?: string;
  readonly track?: number;
  readonly seriesTitle?: string;
  readonly season?: string;
  readonly episode?: string;
  readonly channel?: string;
  readonly playlist?: string;
  readonly appId?: string;
  readonly appName?: string;
}

/** What a player is: drivers report this, the domain renders Home Assistant's state and attributes. */
export interface MediaPlayerModel {
  readonly state: MediaPlayerState;
  readonly volumeLevel?: number;
  readonly isVolumeMuted?: boolean;
  readonly media?: MediaInfo;
  /**
   * Seconds into the media when `positionUpdatedAt` was read. Like Home Assistant, players report it when
   * playback changes (play, pause, seek, new track), not as it advances: clients extrapolate.
   */
  readonly position?: number;
  readonly positionUpdatedAt?: Micros;
  readonly source?: string;
  readonly soundMode?: string;
  readonly shuffle?: boolean;
  readonly repeat?: RepeatMode;
  readonly groupMembers?: readonly string[];
}

export interface MediaPlayerCapabilities {
  readonly supportedFeatures: number;
  readonly sourceList?: readonly string[];
  readonly soundModeList?: readonly string[];
  readonly deviceClass?: MediaPlayerDeviceClass;
  /** The volume_up/volume_down step when the player has no volumeUp/volumeDown of its own (default 0.1). */
  readonly volumeStep?: number;
}

export interface MediaPlayerOptions extends Omit<EntityInit<MediaPlayerPlatform>, 'fixed'> {
  readonly capabilities: MediaPlayerCapabilities;
  readonly icon?: string;
}

export interface MediaPlayerHandle {
  readonly entity: Entity<MediaPlayerPlatform>;
  report(model: MediaPlayerModel | null): void;
}

const DEFAULT_VOLUME_STEP = 0.1;
/** What a media player keeps per entity (EntityInit.data). */
interface MediaPlayerData {
  readonly volumeStep: number;
}

function fixedAttributes(caps: MediaPlayerCapabilities, icon: string | undefined): JsonObject {
  const out: Record<string, JsonValue> = {};
  const f = caps.supportedFeatures;
  // Home Assistant's capability attributes: the lists only with their feature and when not empty.
  if (caps.sourceList?.length && f & MediaPlayerFeature.SELECT_SOURCE) out.source_list = [...caps.sourceList];
  if (caps.soundModeList?.length && f & MediaPlayerFeature.SELECT_SOUND_MODE) out.sound_mode_list = [...caps.soundModeList];
  if (caps.deviceClass) out.device_class = caps.deviceClass;
  if (icon) out.icon = icon;
  out.supported_features = f;
  return out;
}

/**
 * The state attributes in Home Assistant's order (ATTR_TO_PROPERTY), each only when known. An off player
 * shows none of them (only group_members, when it can group).
 */
export function mediaPlayerStateAttributes(caps: MediaPlayerCapabilities, m: MediaPlayerModel): JsonObject {
  const out: Record<string, JsonValue> = {};
  if (caps.supportedFeatures & MediaPlayerFeature.GROUPING) out.group_members = m.groupMembers ? [...m.groupMembers] : null;
  if (m.state === 'off') return out;
  const media = m.media ?? {};
  const put = (key: string, value: JsonValue | undefined) => {
    if (value !== undefined && value !== null) out[key] = value;
  };
  put('volume_level', m.volumeLevel);
  put('is_volume_muted', m.isVolumeMuted);
  put('media_content_id', media.contentId);
  put('media_content_type', media.contentType);
  put('media_duration', media.duration);
  put('media_position', m.position);
  put('media_position_updated_at', m.positionUpdatedAt === undefined ? undefined : isoFromMicros(m.positionUpdatedAt));
  put('media_title', media.title);
  put('media_artist', media.artist);
  put('media_album_name', media.albumName);
  put('media_album_artist', media.albumArtist);
  put('media_track', media.track);
  put('media_series_title', media.seriesTitle);
  put('media_season', media.season);
  put('media_episode', media.episode);
  put('media_channel', media.channel);
  put('media_playlist', media.playlist);
  put('app_id', media.appId);
  put('app_name', media.appName);
  put('source', m.source);
  put('sound_mode', m.soundMode);
  put('shuffle', m.shuffle);
  put('repeat', m.repeat);
  return out;
}

export function addMediaPlayer(core: Core, options: MediaPlayerOptions): MediaPlayerHandle {
  const caps = options.capabilities;
  const { capabilities: _c, icon, ...init } = options;
  const data: MediaPlayerData = { volumeStep: caps.volumeStep ?? DEFAULT_VOLUME_STEP };
  const entity = core.entities.add({ ...init, fixed: fixedAttributes(caps, icon), data });
  return {
    entity,
    report(model) {
      if (model === null) entity.report(null);
      else entity.report(model.state, mediaPlayerStateAttributes(caps, model));
    },
  };
}

function featuresOf(entity: Entity): number {
  const f = entity.fixed.supported_features;
  return typeof f === 'number' ? f : 0;
}

function unsupported(entity: Entity, service: string): HubError {
  return new HubError('service_validation', `Entity ${entity.id} does not support action media_player.${service}.`);
}

/** Home Assistant's required_features=[A | B]: every bit of the set is needed. */
function requireAll(entity: Entity, bits: number, service: string): void {
  if ((featuresOf(entity) & bits) !== bits) throw unsupported(entity, service);
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
const NO_FIELDS: ServiceSchema = { fields: {} };

type NoArgMethod = 'turnOn' | 'turnOff' | 'play' | 'pause' | 'stop' | 'nextTrack' | 'previousTrack' | 'clearPlaylist';

interface Simple {
  readonly service: string;
  readonly name: string;
  readonly description: string;
  readonly feature: number;
  readonly method: NoArgMethod;
}

/** Services with no fields that map straight onto one platform method behind one feature bit. */
const SIMPLE: readonly Simple[] = [
  { service: 'turn_on', name: 'Turn on', description: 'Turns on the power of the media player.', feature: F.TURN_ON, method: 'turnOn' },
  {
    service: 'turn_off',
    name: 'Turn off',
    description: 'Turns off the power of the media player.',
    feature: F.TURN_OFF,
    method: 'turnOff',
  },
  { service: 'media_play', name: 'Play', description: 'Starts playing.', feature: F.PLAY, method: 'play' },
  { service: 'media_pause', name: 'Pause', description: 'Pauses.', feature: F.PAUSE, method: 'pause' },
  { service: 'media_stop', name: 'Stop', description: 'Stops playing.', feature: F.STOP, method: 'stop' },
  {
    service: 'media_next_track',
    name: 'Next',
    description: 'Selects the next track.',
    feature: F.NEXT_TRACK,
    method: 'nextTrack',
  },
  {
    service: 'media_previous_track',
    name: 'Previous',
    description: 'Selects the previous track.',
    feature: F.PREVIOUS_TRACK,
    method: 'previousTrack',
  },
  {
    service: 'clear_playlist',
    name: 'Clear playlist',
    description: 'Removes all items from the playlist.',
    feature: F.CLEAR_PLAYLIST,
    method: 'clearPlaylist',
  },
];

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

export const mediaPlayerDomain: Domain = {
  name: 'media_player',
  registerServices(core: Core): void {
    const register = (
      service: string,
      name: string,
      description: string,
      schema: ServiceSchema,
      entity: (e: Entity, data: ValidData) => unknown,
    ) => registerEntityServices(core, 'media_player', [{ service, name, description, schema, run: entity }]);

    for (const s of SIMPLE) {
      register(s.service, s.name, s.description, NO_FIELDS, (e) => {
        requireFeature(e, s.feature, 'media_player', s.service);
        return method(e, s.method, s.service)();
      });
    }

    register('toggle', 'Toggle', 'Toggles a media player on/off.', NO_FIELDS, (e) => {
      requireAll(e, F.TURN_ON | F.TURN_OFF, 'toggle');
      const s = e.state;
      return s === 'off' || s === 'idle' || s === 'standby' ? method(e, 'turnOn', 'toggle')() : method(e, 'turnOff', 'toggle')();
    });
    register('media_play_pause', 'Play/Pause', 'Toggles play/pause.', NO_FIELDS, (e) => {
      requireAll(e, F.PLAY | F.PAUSE, 'media_play_pause');
      return e.state === 'playing' ? method(e, 'pause', 'media_play_pause')() : method(e, 'play', 'media_play_pause')();
    });
    const step = (e: Entity, direction: 1 | -1) => {
      const service = direction === 1 ? 'volume_up' : 'volume_down';
      // Home Assistant: VOLUME_SET or VOLUME_STEP will do.
      requireFeature(e, F.VOLUME_SET | F.VOLUME_STEP, 'media_player', service);
      const platform = platformOf<MediaPlayerPlatform>(e, 'media_player');
      const own = direction === 1 ? platform.volumeUp : platform.volumeDown;
      if (own !== undefined) return own.call(platform);
      const level = e.attributes?.volume_level;
      if (typeof level !== 'number' || !(featuresOf(e) & F.VOLUME_SET)) return undefined;
      if ((direction === 1 && level >= 1) || (direction === -1 && level <= 0)) return undefined;
      return method(
        e,
        'setVolume',
        service,
      )(cleanVolume(level + direction * (dataOf<MediaPlayerData>(e, 'media_player')?.volumeStep ?? DEFAULT_VOLUME_STEP)));
    };
    register('volume_up', 'Turn up volume', 'Turns up the volume.', NO_FIELDS, (e) => step(e, 1));
    register('volume_down', 'Turn down volume', 'Turns down the volume.', NO_FIELDS, (e) => step(e, -1));

    register(
      'volume_set',
      'Set volume',
      'Sets the volume level.',
      {
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
      },
      (e, data) => {
        requireFeature(e, F.VOLUME_SET, 'media_player', 'volume_set');
        return method(e, 'setVolume', 'volume_set')(data.volume_level as number);
      },
    );
    register(
      'volume_mute',
      'Mute/unmute volume',
      'Mutes or unmutes the media player.',
      { fields: { is_volume_muted: { kind: 'boolean', required: true, description: 'Defines whether or not it is muted.' } } },
      (e, data) => {
        requireFeature(e, F.VOLUME_MUTE, 'media_player', 'volume_mute');
        return method(e, 'mute', 'volume_mute')(data.is_volume_muted as boolean);
      },
    );
    register(
      'media_seek',
      'Seek',
      'Allows you to go to a different part of the media that is currently playing.',
      {
        fields: {
          seek_position: {
            kind: 'number',
            required: true,
            min: 0,
            unit: 's',
            description: 'Target position in the currently playing media.',
          },
        },
      },
      (e, data) => {
        requireFeature(e, F.SEEK, 'media_player', 'media_seek');
        return method(e, 'seek', 'media_seek')(data.seek_position as number);
      },
    );
    register(
      'play_media',
      'Play media',
      'Starts playing specified media.',
      { fields: PLAY_MEDIA_FIELDS, exclusive: [['enqueue', 'announce']] },
      (e, data) => {
        requireFeature(e, F.PLAY_MEDIA, 'media_player', 'play_media');
        const params: { -readonly [K in keyof PlayMediaParams]: PlayMediaParams[K] } = {
          contentType: data.media_content_type as string,
          contentId: data.media_content_id as string,
        };
        if (typeof data.enqueue === 'string') params.enqueue = data.enqueue as MediaEnqueue;
        if (typeof data.announce === 'boolean') params.announce = data.announce;
        if (data.extra !== undefined) params.extra = data.extra as JsonObject;
        return method(e, 'playMedia', 'play_media')(params);
      },
    );
    register(
      'select_source',
      'Select source',
      'Sends the media player the command to change input source.',
      {
        fields: {
          source: { kind: 'text', required: true, maxLength: 255, example: 'video1', description: 'Name of the source to switch to.' },
        },
      },
      (e, data) => {
        requireFeature(e, F.SELECT_SOURCE, 'media_player', 'select_source');
        const source = data.source as string;
        const list = listAttribute(e, 'source_list');
        if (list !== undefined && !list.includes(source)) {
          throw new HubError('service_validation', `Source ${source} is not valid. Valid sources are: ${list.join(', ')}`);
        }
        return method(e, 'selectSource', 'select_source')(source);
      },
    );
    register(
      'select_sound_mode',
      'Select sound mode',
      'Selects a specific sound mode.',
      {
        fields: {
          sound_mode: {
            kind: 'text',
            required: true,
            maxLength: 255,
            example: 'Music',
            description: 'Name of the sound mode to switch to.',
          },
        },
      },
      (e, data) => {
        requireFeature(e, F.SELECT_SOUND_MODE, 'media_player', 'select_sound_mode');
        const mode = data.sound_mode as string;
        const list = listAttribute(e, 'sound_mode_list');
        if (list !== undefined && !list.includes(mode)) {
          throw new HubError('service_validation', `Sound mode ${mode} is not valid. Valid sound modes are: ${list.join(', ')}`);
        }
        return method(e, 'selectSoundMode', 'select_sound_mode')(mode);
      },
    );
    register(
      'shuffle_set',
      'Shuffle',
      'Playback mode that selects the media in randomized order.',
      { fields: { shuffle: { kind: 'boolean', required: true, description: 'Whether or not shuffle mode is enabled.' } } },
      (e, data) => {
        requireFeature(e, F.SHUFFLE_SET, 'media_player', 'shuffle_set');
        return method(e, 'setShuffle', 'shuffle_set')(data.shuffle as boolean);
      },
    );
    register(
      'repeat_set',
      'Repeat',
      'Playback mode that plays the media in a loop.',
      { fields: { repeat: { kind: 'select', required: true, options: REPEAT_MODES, description: 'Repeat mode to set.' } } },
      (e, data) => {
        requireFeature(e, F.REPEAT_SET, 'media_player', 'repeat_set');
        return method(e, 'setRepeat', 'repeat_set')(data.repeat as RepeatMode);
      },
    );
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
