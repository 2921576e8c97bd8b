import type { Micros } from '../../src/core/clock.js';
import { HubError } from '../../src/core/errors.js';
import {
  addMediaPlayer,
  MediaPlayerFeature as F,
  type MediaInfo,
  type MediaPlayerModel,
  type PlayMediaParams,
  type RepeatMode,
} from '../../src/domains/media-player.js';
import { MAX_QUEUE, parseMediaPlayerOptions, type Track, type VirtualMediaPlayerOptions } from './media-player-options.js';
import type { VirtualPlatform } from './types.js';

type Playback = 'idle' | 'buffering' | 'playing' | 'paused';

/** Within this many seconds of a track's start, "previous" goes to the previous track; after it, back to the start. */
const RESTART_THRESHOLD_S = 3;

/** A readable title for a content id: the last path segment of a URL without its extension, else the id. */
function titleOf(contentId: string): string {
  let title = contentId;
  try {
    const segment = new URL(contentId).pathname.split('/').filter(Boolean).pop();
    if (segment !== undefined) title = decodeURIComponent(segment).replace(/\.[a-z0-9]{1,5}$/i, '');
  } catch {
    // Not a URL (or bad escapes): the id is the title.
  }
  return title.slice(0, 100);
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

/**
 * A networked speaker with a queue: it buffers briefly before each new track, plays through the queue
 * (shuffle and repeat as set), and reports the position only when playback changes, with the time it
 * was read, as Home Assistant's players do.
 */
export const virtualMediaPlayer: VirtualPlatform<VirtualMediaPlayerOptions> = {
  domain: 'media_player',
  parse: parseMediaPlayerOptions,
  create(ctx, { entityId, name }, o) {
    const clock = ctx.core.clock;
    let power = o.initial !== 'off';
    let playback: Playback = 'idle';
    let queue: Track[] = [...o.playlist];
    let index = 0;
    let volume = o.volume;
    let muted = false;
    let source = o.source;
    let soundMode = o.soundMode;
    let shuffle = false;
    let repeat: RepeatMode = 'off';
    // Where playback was, and when: the position advances from here while playing.
    let anchorPos = 0;
    let anchorAt: Micros = clock.now();
    let timer: NodeJS.Timeout | undefined;

    const current = (): Track | undefined => queue[index];
    const positionNow = (): number => {
      const track = current();
      if (playback !== 'playing' || track === undefined) return anchorPos;
      return Math.min(track.duration, anchorPos + (clock.now() - anchorAt) / 1e6);
    };
    const anchor = (pos: number) => {
      anchorPos = round1(pos);
      anchorAt = clock.now();
    };
    const cancel = () => {
      ctx.timers.clear(timer);
      timer = undefined;
    };

    const model = (): MediaPlayerModel => {
      const track = current();
      const loaded = power && playback !== 'idle' && track !== undefined;
      const media: MediaInfo | undefined = loaded
        ? {
            contentId: track.contentId,
            contentType: track.contentType,
            duration: track.duration,
            title: track.title,
            artist: track.artist,
            albumName: track.album,
            albumArtist: track.artist,
            track: index + 1,
            playlist: track.playlist,
          }
        : undefined;
      return {
        state: power ? playback : 'off',
        volumeLevel: volume,
        isVolumeMuted: muted,
        media,
        position: loaded ? anchorPos : undefined,
        positionUpdatedAt: loaded ? anchorAt : undefined,
        source,
        soundMode,
        shuffle,
        repeat,
      };
    };
    const report = () => player.report(model());

    /** Runs the current track from the anchored position to its end, then moves on. */
    const playFromAnchor = () => {
      const track = current();
      if (track === undefined) return;
      playback = 'playing';
      anchor(anchorPos);
      cancel();
      timer = ctx.timers.timeout(onTrackEnd, Math.max(0, track.duration - anchorPos) * 1000);
    };
    /** Loads track `i` from the start: buffering first (when configured), then playing. */
    const startTrack = (i: number) => {
      cancel();
      index = i;
      anchor(0);
      if (o.bufferingTime > 0) {
        playback = 'buffering';
        timer = ctx.timers.timeout(() => {
          playFromAnchor();
          report();
        }, o.bufferingTime * 1000);
      } else playFromAnchor();
      report();
    };
    const stopPlayback = () => {
      cancel();
      playback = 'idle';
      anchor(0);
    };
    /** The track after the current one, or undefined at the end of the queue. */
    const nextIndex = (automatic: boolean): number | undefined => {
      const n = queue.length;
      if (n === 0) return undefined;
      if (automatic && repeat === 'one') return index;
      if (shuffle && n > 1) {
        const j = Math.floor(ctx.random() * (n - 1));
        return j >= index ? j + 1 : j;
      }
      if (index + 1 < n) return index + 1;
      return repeat === 'all' ? 0 : undefined;
    };
    const onTrackEnd = () => {
      timer = undefined;
      const next = nextIndex(true);
      if (next === undefined) {
        stopPlayback();
        index = 0;
        report();
      } else startTrack(next);
    };
    /** Moves to track `i`, keeping what playback was doing (paused stays paused, at the start). */
    const moveTo = (i: number) => {
      if (playback === 'playing' || playback === 'buffering') {
        startTrack(i);
        return;
      }
      index = i;
      anchor(0);
      report();
    };
    const powerOn = () => {
      if (power) return;
      power = true;
      stopPlayback();
    };

    const player = addMediaPlayer(ctx.core, {
      entityId,
      name,
      owner: ctx.owner,
      capabilities: {
        supportedFeatures:
          F.PAUSE |
          F.SEEK |
          F.VOLUME_SET |
          F.VOLUME_MUTE |
          F.PREVIOUS_TRACK |
          F.NEXT_TRACK |
          F.TURN_ON |
          F.TURN_OFF |
          F.PLAY_MEDIA |
          F.VOLUME_STEP |
          F.STOP |
          F.CLEAR_PLAYLIST |
          F.PLAY |
          F.SHUFFLE_SET |
          F.REPEAT_SET |
          F.MEDIA_ENQUEUE |
          (o.sources.length > 0 ? F.SELECT_SOURCE : 0) |
          (o.soundModes.length > 0 ? F.SELECT_SOUND_MODE : 0),
        sourceList: o.sources,
        soundModeList: o.soundModes,
        deviceClass: o.deviceClass,
      },
      platform: {
        turnOn() {
          powerOn();
          report();
        },
        turnOff() {
          power = false;
          stopPlayback();
          report();
        },
        setVolume(level) {
          volume = level;
          report();
        },
        mute(m) {
          muted = m;
          report();
        },
        play() {
          powerOn();
          if (playback === 'paused') playFromAnchor();
          else if (playback === 'idle' && current() !== undefined) {
            startTrack(index);
            return;
          }
          report();
        },
        pause() {
          if (!power || (playback !== 'playing' && playback !== 'buffering')) return;
          anchor(positionNow());
          cancel();
          playback = 'paused';
          report();
        },
        stop() {
          if (!power || playback === 'idle') return;
          stopPlayback();
          report();
        },
        nextTrack() {
          if (!power || queue.length === 0) return;
          const next = nextIndex(false);
          if (next === undefined) {
            // Past the last track with repeat off: stop, ready at the start, as most players do.
            stopPlayback();
            index = 0;
            report();
          } else moveTo(next);
        },
        previousTrack() {
          if (!power || queue.length === 0) return;
          if (playback !== 'idle' && positionNow() > RESTART_THRESHOLD_S) moveTo(index);
          else moveTo(index > 0 ? index - 1 : repeat === 'all' ? queue.length - 1 : 0);
        },
        seek(position) {
          const track = current();
          if (!power || playback === 'idle' || track === undefined) return;
          anchor(Math.min(position, track.duration));
          if (playback === 'playing') playFromAnchor();
          report();
        },
        playMedia(p: PlayMediaParams) {
          if (p.contentType === 'playlist') {
            // The one playlist this speaker knows: back to the configured one.
            queue = [...o.playlist];
            powerOn();
            if (queue.length > 0) startTrack(0);
            else report();
            return;
          }
          const enqueue = p.enqueue ?? 'replace';
          if (enqueue !== 'replace' && queue.length >= MAX_QUEUE) {
            throw new HubError(
              'service_validation',
              `The queue of ${entityId} is full (${MAX_QUEUE} items): clear it or use enqueue: replace`,
            );
          }
          const track: Track = {
            title: titleOf(p.contentId),
            contentId: p.contentId,
            contentType: p.contentType,
            duration: o.mediaDuration,
          };
          const after = queue.length === 0 ? 0 : index + 1;
          if (enqueue === 'replace') {
            queue = [track];
            powerOn();
            startTrack(0);
          } else if (enqueue === 'play') {
            queue.splice(after, 0, track);
            powerOn();
            startTrack(after);
          } else {
            if (enqueue === 'next') queue.splice(after, 0, track);
            else queue.push(track);
            report();
          }
        },
        selectSource(s) {
          source = s;
          report();
        },
        selectSoundMode(m) {
          soundMode = m;
          report();
        },
        setShuffle(s) {
          shuffle = s;
          report();
        },
        setRepeat(r) {
          repeat = r;
          report();
        },
        clearPlaylist() {
          queue = [];
          index = 0;
          stopPlayback();
          report();
        },
      },
    });

    if (power && queue.length > 0 && (o.initial === 'playing' || o.initial === 'paused')) {
      if (o.initial === 'playing') {
        startTrack(0);
        return;
      }
      playback = 'paused';
    }
    report();
  },
};
