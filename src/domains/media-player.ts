import { isoFromMicros, type Micros } from '../core/clock.js';
import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import type { JsonObject, JsonValue } from '../core/json.js';

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

export const DEFAULT_VOLUME_STEP = 0.1;
/** What a media player keeps per entity (EntityInit.data). */
export interface MediaPlayerData {
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
