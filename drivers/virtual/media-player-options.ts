import { ConfigReader } from '../../src/config/reader.js';
import type { MediaPlayerDeviceClass } from '../../src/domains/media-player.js';

/** The virtual media player's YAML options, validated (the simulation itself is in media-player.ts). */

export interface Track {
  readonly title: string;
  readonly artist?: string;
  readonly album?: string;
  /** Seconds. */
  readonly duration: number;
  readonly contentId: string;
  readonly contentType: string;
  /** Set for tracks of the configured playlist. */
  readonly playlist?: string;
}

export type Initial = 'off' | 'idle' | 'paused' | 'playing';

export interface VirtualMediaPlayerOptions {
  readonly initial: Initial;
  readonly deviceClass: MediaPlayerDeviceClass;
  readonly sources: readonly string[];
  readonly source: string | undefined;
  readonly soundModes: readonly string[];
  readonly soundMode: string | undefined;
  readonly volume: number;
  readonly playlistName: string;
  readonly playlist: readonly Track[];
  /** Seconds a new track buffers before it plays (0: at once). */
  readonly bufferingTime: number;
  /** Seconds that media started with play_media lasts (the simulation cannot know). */
  readonly mediaDuration: number;
}

/** Public-domain pieces, so the demo has something believable to show. */
const DEFAULT_PLAYLIST: readonly Omit<Track, 'contentId' | 'contentType'>[] = [
  { title: 'Clair de Lune', artist: 'Claude Debussy', album: 'Suite bergamasque', duration: 303 },
  { title: 'Gymnopédie No. 1', artist: 'Erik Satie', album: 'Trois Gymnopédies', duration: 215 },
  { title: 'Spring: I. Allegro', artist: 'Antonio Vivaldi', album: 'The Four Seasons', duration: 212 },
  { title: 'Canon in D', artist: 'Johann Pachelbel', album: 'Canon and Gigue', duration: 298 },
  { title: 'Moonlight Sonata: I. Adagio sostenuto', artist: 'Ludwig van Beethoven', album: 'Piano Sonata No. 14', duration: 361 },
];
const DEFAULT_SOURCES = ['Spotify', 'Radio', 'Line in', 'Bluetooth'];
const DEFAULT_SOUND_MODES = ['Stereo', 'Music', 'Movie', 'Night'];
/** Bounds the queue that play_media can grow (a client must not grow memory without end). */
export const MAX_QUEUE = 100;
function libraryTrack(t: Omit<Track, 'contentId' | 'contentType'>, i: number, playlist: string): Track {
  return { ...t, contentId: `library:track:${i + 1}`, contentType: 'music', playlist };
}

export function parseMediaPlayerOptions(r: ConfigReader): VirtualMediaPlayerOptions {
  const sources = r.stringList('sources') ?? DEFAULT_SOURCES;
  const soundModes = r.stringList('sound_modes') ?? DEFAULT_SOUND_MODES;
  const source = r.string('source') ?? sources[0];
  if (source !== undefined && !sources.includes(source))
    r.problem('source', `${JSON.stringify(source)} is not allowed: expected one of ${sources.join(', ')}`);
  const soundMode = r.string('sound_mode') ?? soundModes[0];
  if (soundMode !== undefined && !soundModes.includes(soundMode)) {
    r.problem('sound_mode', `${JSON.stringify(soundMode)} is not allowed: expected one of ${soundModes.join(', ')}`);
  }
  const playlistName = r.string('playlist_name', { default: 'Evening Classics' }) ?? 'Evening Classics';
  let items: Omit<Track, 'contentId' | 'contentType'>[] = [...DEFAULT_PLAYLIST];
  if (r.has('playlist')) {
    items = [];
    for (const { value, path } of r.list('playlist')) {
      const t = ConfigReader.of(value, path, r.issues);
      const title = t.string('title', { required: true });
      const artist = t.string('artist');
      const album = t.string('album');
      const duration = t.number('duration', { min: 0.1, max: 86_400, default: 180 });
      t.rejectUnknown();
      items.push({ title, artist, album, duration });
    }
  }
  if (items.length > MAX_QUEUE) r.problem('playlist', `has ${items.length} tracks: at most ${MAX_QUEUE} are allowed`);
  return {
    initial: r.oneOf('initial', ['off', 'idle', 'paused', 'playing'] as const, 'idle'),
    deviceClass: r.oneOf('device_class', ['speaker', 'tv', 'receiver'] as const, 'speaker'),
    sources,
    source,
    soundModes,
    soundMode,
    volume: r.number('volume', { min: 0, max: 1, default: 0.35 }),
    playlistName,
    playlist: items.slice(0, MAX_QUEUE).map((t, i) => libraryTrack(t, i, playlistName)),
    bufferingTime: r.number('buffering_time', { min: 0, max: 30, default: 0.5 }),
    mediaDuration: r.number('media_duration', { min: 1, max: 86_400, default: 240 }),
  };
}
