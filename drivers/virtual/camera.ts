import { join, resolve } from 'node:path';
import type { Micros } from '../../src/core/clock.js';
import { addCamera, CameraFeature, type CameraImage } from '../../src/domains/camera.js';
import { encodePng } from '../../src/util/png.js';
import { paintScene } from './camera-scene.js';
import type { VirtualPlatform } from './types.js';

interface VirtualCameraOptions {
  readonly initial: boolean;
  readonly brand: string;
  readonly model: string;
  readonly width: number;
  readonly height: number;
  readonly motionDetection: boolean;
  /** Mean seconds between visitors walking past. */
  readonly motionInterval: number;
  /** Seconds a visitor is in view (and the camera records, with motion detection on). */
  readonly recordingTime: number;
  readonly snapshotDir: string | undefined;
}

/** An encoded frame is served for this long: a dashboard polling every second costs one encode a second at most. */
const FRAME_CACHE_US = 1_000_000;

function two(n: number): string {
  return String(n).padStart(2, '0');
}

/**
 * A front-door camera: a generated PNG street scene (sky by the local time of day, drifting clouds, a car
 * every half minute, an on-screen clock). Now and then a visitor walks past; with motion detection on,
 * the camera records while they are in view.
 */
export const virtualCamera: VirtualPlatform<VirtualCameraOptions> = {
  domain: 'camera',
  parse(r) {
    const dir = r.string('snapshot_dir');
    return {
      initial: r.boolean('initial', true),
      brand: r.string('brand', { default: 'hearth' }) ?? 'hearth',
      model: r.string('model', { default: 'Virtual Camera' }) ?? 'Virtual Camera',
      width: r.number('width', { integer: true, min: 64, max: 1920, default: 320 }),
      height: r.number('height', { integer: true, min: 48, max: 1080, default: 240 }),
      motionDetection: r.boolean('motion_detection', true),
      motionInterval: r.number('motion_interval', { min: 0.05, max: 86_400, default: 90 }),
      recordingTime: r.number('recording_time', { min: 0.05, max: 600, default: 10 }),
      snapshotDir: dir === undefined ? undefined : resolve(dir),
    };
  },
  create(ctx, { entityId, name }, o) {
    const clock = ctx.core.clock;
    let on = o.initial;
    let motionDetection = o.motionDetection;
    let recording = false;
    let visitorSince: Micros | undefined;
    const pixels = new Uint8Array(o.width * o.height * 3);
    let frame: { at: Micros; image: CameraImage } | undefined;
    // Snapshots go to the configured folder, else to `snapshots/` in the hub's data folder when the
    // driver context carries one.
    const dataDir = 'dataDir' in ctx && typeof ctx.dataDir === 'string' ? ctx.dataDir : undefined;
    const snapshotDir = o.snapshotDir ?? (dataDir === undefined ? undefined : join(dataDir, 'snapshots'));

    const report = () => camera.report({ on, recording, motionDetection });

    const render = (now: Micros): CameraImage => {
      const date = new Date(now / 1000);
      const visitor = visitorSince === undefined ? undefined : Math.min(1, (now - visitorSince) / (o.recordingTime * 1e6));
      paintScene(o.width, o.height, pixels, {
        hour: date.getHours() + date.getMinutes() / 60 + date.getSeconds() / 3600,
        seconds: now / 1e6,
        clock: `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`,
        label: name,
        visitor,
        recording,
      });
      return { contentType: 'image/png', body: encodePng({ width: o.width, height: o.height, pixels }) };
    };

    const scheduleVisitor = () => {
      // Exponential gaps (a Poisson process) look like real comings and goings; bounded both ways.
      const gap = Math.min(Math.max(-Math.log(1 - ctx.random()) * o.motionInterval, o.motionInterval / 10), o.motionInterval * 10);
      ctx.timers.timeout(visit, gap * 1000);
    };
    const visit = () => {
      visitorSince = clock.now();
      if (on && motionDetection) {
        recording = true;
        report();
      }
      ctx.timers.timeout(leave, o.recordingTime * 1000);
    };
    const leave = () => {
      visitorSince = undefined;
      if (recording) {
        recording = false;
        report();
      }
      scheduleVisitor();
    };

    const camera = addCamera(ctx.core, {
      entityId,
      name,
      owner: ctx.owner,
      brand: o.brand,
      model: o.model,
      supportedFeatures: CameraFeature.ON_OFF,
      timers: ctx.timers,
      snapshotDir,
      platform: {
        turnOn() {
          on = true;
          report();
        },
        turnOff() {
          on = false;
          recording = false;
          report();
        },
        enableMotionDetection() {
          motionDetection = true;
          if (on && visitorSince !== undefined) recording = true;
          report();
        },
        disableMotionDetection() {
          motionDetection = false;
          recording = false;
          report();
        },
        async image() {
          if (!on) throw new Error('the camera is off');
          const now = clock.now();
          if (frame === undefined || now - frame.at >= FRAME_CACHE_US || now < frame.at) frame = { at: now, image: render(now) };
          return frame.image;
        },
      },
    });
    report();
    scheduleVisitor();
  },
};
