import type { RgbImage } from '../../src/util/png.js';

/**
 * The picture of the simulated front-door camera: a street scene whose sky follows the time of day,
 * with drifting clouds, a car passing every half minute, a visitor when there is motion, and an on-screen
 * clock, so a dashboard that refreshes the image visibly moves. Pure drawing, no I/O.
 */

type Rgb = readonly [number, number, number];

export interface SceneInput {
  /** Local hours since midnight, fractional (14.5 = 14:30). */
  readonly hour: number;
  /** Seconds on a monotonic-enough scale, for the moving parts. */
  readonly seconds: number;
  /** The clock text in the corner, e.g. `14:30:05`. */
  readonly clock: string;
  /** The camera's name, shown top right. */
  readonly label: string;
  /** 0..1 while a visitor walks past (left to right), undefined otherwise. */
  readonly visitor?: number;
  readonly recording: boolean;
}

/** Sky colours (top, horizon) through the day; linear in between, wrapping at midnight. */
const SKY: readonly (readonly [number, Rgb, Rgb])[] = [
  [0, [5, 8, 25], [15, 20, 50]],
  [5, [10, 15, 45], [40, 40, 80]],
  [6.5, [70, 90, 160], [250, 160, 110]],
  [8, [90, 150, 230], [170, 210, 245]],
  [12, [60, 130, 230], [160, 205, 250]],
  [17, [80, 140, 220], [190, 210, 240]],
  [19, [60, 70, 140], [250, 140, 90]],
  [20.5, [20, 25, 70], [60, 50, 100]],
  [22, [8, 10, 30], [20, 25, 55]],
  [24, [5, 8, 25], [15, 20, 50]],
];

const CAR_PERIOD_S = 30;
const CAR_CROSSING_S = 6;
const CAR_COLOURS: readonly Rgb[] = [
  [200, 40, 40],
  [40, 90, 200],
  [230, 230, 230],
  [30, 30, 30],
  [240, 190, 40],
];

function lerp(a: number, b: number, t: number): number {
  return a + (b - a) * t;
}

function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [lerp(a[0], b[0], t), lerp(a[1], b[1], t), lerp(a[2], b[2], t)];
}

function skyAt(hour: number): [Rgb, Rgb] {
  const h = ((hour % 24) + 24) % 24;
  for (let i = 1; i < SKY.length; i++) {
    const [h1, top1, bottom1] = SKY[i] as (typeof SKY)[number];
    const [h0, top0, bottom0] = SKY[i - 1] as (typeof SKY)[number];
    if (h <= h1) {
      const t = (h - h0) / (h1 - h0);
      return [mix(top0, top1, t), mix(bottom0, bottom1, t)];
    }
  }
  return [SKY[0]?.[1] as Rgb, SKY[0]?.[2] as Rgb];
}

/** 1 at noon-ish, 0.25 at night: how lit the ground is. */
function daylight(hour: number): number {
  const h = ((hour % 24) + 24) % 24;
  if (h < 5 || h > 21) return 0.25;
  if (h < 8) return 0.25 + (0.75 * (h - 5)) / 3;
  if (h > 18) return 0.25 + (0.75 * (21 - h)) / 3;
  return 1;
}

/** A tiny 3x5 font: each glyph is five rows of three bits. */
const FONT: Readonly<Record<string, string>> = {
  '0': '111101101101111',
  '1': '010110010010111',
  '2': '111001111100111',
  '3': '111001111001111',
  '4': '101101111001001',
  '5': '111100111001111',
  '6': '111100111101111',
  '7': '111001001010010',
  '8': '111101111101111',
  '9': '111101111001111',
  ':': '000010000010000',
  '-': '000000111000000',
  '.': '000000000000010',
  A: '010101111101101',
  B: '110101110101110',
  C: '011100100100011',
  D: '110101101101110',
  E: '111100110100111',
  F: '111100110100100',
  G: '011100101101011',
  H: '101101111101101',
  I: '111010010010111',
  J: '001001001101010',
  K: '101101110101101',
  L: '100100100100111',
  M: '101111111101101',
  N: '110101101101101',
  O: '010101101101010',
  P: '110101110100100',
  Q: '010101101110011',
  R: '110101110101101',
  S: '011100010001110',
  T: '111010010010010',
  U: '101101101101111',
  V: '101101101101010',
  W: '101101111111101',
  X: '101101010101101',
  Y: '101101010010010',
  Z: '111001010100111',
};

/** Draws into a reusable RGB buffer; coordinates outside the frame are clipped. */
class Canvas {
  constructor(
    readonly width: number,
    readonly height: number,
    readonly pixels: Uint8Array,
  ) {}

  rect(x0: number, y0: number, x1: number, y1: number, c: Rgb): void {
    const ax = Math.max(0, Math.round(x0));
    const bx = Math.min(this.width, Math.round(x1));
    const ay = Math.max(0, Math.round(y0));
    const by = Math.min(this.height, Math.round(y1));
    const r = Math.round(c[0]);
    const g = Math.round(c[1]);
    const b = Math.round(c[2]);
    for (let y = ay; y < by; y++) {
      let i = (y * this.width + ax) * 3;
      for (let x = ax; x < bx; x++) {
        this.pixels[i++] = r;
        this.pixels[i++] = g;
        this.pixels[i++] = b;
      }
    }
  }

  ellipse(cx: number, cy: number, rx: number, ry: number, c: Rgb, alpha = 1): void {
    const ay = Math.max(0, Math.floor(cy - ry));
    const by = Math.min(this.height - 1, Math.ceil(cy + ry));
    for (let y = ay; y <= by; y++) {
      const dy = (y - cy) / ry;
      if (dy * dy > 1) continue;
      const half = rx * Math.sqrt(1 - dy * dy);
      const ax = Math.max(0, Math.round(cx - half));
      const bx = Math.min(this.width - 1, Math.round(cx + half));
      for (let x = ax; x <= bx; x++) this.blend(x, y, c, alpha);
    }
  }

  blend(x: number, y: number, c: Rgb, alpha: number): void {
    const i = (y * this.width + x) * 3;
    const p = this.pixels;
    p[i] = Math.round(lerp(p[i] as number, c[0], alpha));
    p[i + 1] = Math.round(lerp(p[i + 1] as number, c[1], alpha));
    p[i + 2] = Math.round(lerp(p[i + 2] as number, c[2], alpha));
  }

  text(x: number, y: number, text: string, scale: number, c: Rgb): void {
    let cx = x;
    for (const ch of text.toUpperCase()) {
      const glyph = FONT[ch];
      if (glyph !== undefined) {
        for (let row = 0; row < 5; row++) {
          for (let col = 0; col < 3; col++) {
            if (glyph[row * 3 + col] === '1') {
              this.rect(cx + col * scale, y + row * scale, cx + (col + 1) * scale, y + (row + 1) * scale, c);
            }
          }
        }
      }
      cx += 4 * scale;
    }
  }

  /** Text with a dark shadow, legible on sky and lawn alike. */
  label(x: number, y: number, text: string, scale: number, c: Rgb): void {
    this.text(x + scale, y + scale, text, scale, [0, 0, 0]);
    this.text(x, y, text, scale, c);
  }
}

function shade(c: Rgb, light: number): Rgb {
  return [c[0] * light, c[1] * light, c[2] * light];
}

/** Deterministic 0..1 from an integer, for star positions and car colours. */
function hash(n: number): number {
  let x = Math.imul(n ^ 0x9e3779b9, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return (x >>> 0) / 4294967296;
}

/** Paints the scene into `pixels` (width*height*3 bytes, reused between frames). */
export function paintScene(width: number, height: number, pixels: Uint8Array, s: SceneInput): RgbImage {
  const c = new Canvas(width, height, pixels);
  const horizon = Math.round(height * 0.55);
  const light = daylight(s.hour);

  // Sky: a vertical gradient, one colour per row.
  const [top, bottom] = skyAt(s.hour);
  for (let y = 0; y < horizon; y++) c.rect(0, y, width, y + 1, mix(top, bottom, y / horizon));

  // Stars fade in as the light goes.
  const starAlpha = Math.max(0, (0.6 - light) / 0.35);
  if (starAlpha > 0) {
    for (let i = 0; i < 40; i++) {
      const x = Math.floor(hash(i) * width);
      const y = Math.floor(hash(i + 1000) * horizon * 0.8);
      c.blend(x, y, [255, 255, 230], Math.min(1, starAlpha) * (0.5 + hash(i + 2000) / 2));
    }
  }

  // Sun by day, moon by night, each on an arc over the horizon.
  const h = ((s.hour % 24) + 24) % 24;
  const r = height * 0.05;
  if (h > 6 && h < 19) {
    const t = (h - 6) / 13;
    c.ellipse(width * (0.05 + 0.9 * t), horizon - Math.sin(Math.PI * t) * horizon * 0.8, r, r, [255, 225, 120]);
  } else {
    const t = (h >= 19 ? h - 19 : h + 5) / 11;
    c.ellipse(width * (0.05 + 0.9 * t), horizon - Math.sin(Math.PI * t) * horizon * 0.75, r * 0.8, r * 0.8, [235, 235, 215]);
  }

  // Clouds drift left to right, at different speeds.
  const cloud = shade([255, 255, 255], 0.35 + 0.65 * light);
  for (let i = 0; i < 3; i++) {
    const w = width * (0.18 + 0.06 * i);
    const span = width + w * 2;
    const x = ((s.seconds * (3 + 2 * i) + i * span * 0.37) % span) - w;
    const y = horizon * (0.15 + 0.17 * i);
    c.ellipse(x, y, w / 2, height * 0.035, cloud, 0.85);
    c.ellipse(x + w * 0.15, y - height * 0.025, w / 3, height * 0.035, cloud, 0.85);
  }

  // Lawn, pavement, road.
  const pavementTop = Math.round(height * 0.66);
  const roadTop = Math.round(height * 0.72);
  const roadBottom = Math.round(height * 0.86);
  c.rect(0, horizon, width, height, shade([70, 140, 60], light));
  c.rect(0, pavementTop, width, roadTop, shade([170, 165, 155], light));
  c.rect(0, roadTop, width, roadBottom, shade([70, 70, 75], light));
  const dash = Math.max(4, Math.round(width / 20));
  const lineY = (roadTop + roadBottom) / 2;
  for (let x = 0; x < width; x += dash * 2) c.rect(x, lineY - 1, x + dash, lineY + 1, shade([230, 230, 210], light));

  // The garden path from the door (bottom edge) to the pavement.
  for (let y = roadBottom; y < height; y++) {
    const t = (y - roadBottom) / (height - roadBottom);
    const half = width * (0.06 + 0.1 * t);
    c.rect(width / 2 - half, y, width / 2 + half, y + 1, shade([185, 170, 150], light));
  }

  // A tree in the front garden.
  const treeX = width * 0.16;
  c.rect(treeX - width * 0.015, horizon - height * 0.02, treeX + width * 0.015, pavementTop, shade([90, 60, 35], light));
  c.ellipse(treeX, horizon - height * 0.08, width * 0.08, height * 0.11, shade([40, 110, 45], light));

  // A car crosses for a few seconds of every half minute; its colour changes each pass.
  const pass = Math.floor(s.seconds / CAR_PERIOD_S);
  const into = s.seconds - pass * CAR_PERIOD_S;
  if (into < CAR_CROSSING_S) {
    const carW = width * 0.22;
    const carH = height * 0.07;
    const x = (into / CAR_CROSSING_S) * (width + carW) - carW;
    const y = roadTop + (roadBottom - roadTop) * 0.2;
    const body = shade(CAR_COLOURS[Math.floor(hash(pass) * CAR_COLOURS.length)] as Rgb, light);
    c.rect(x + carW * 0.2, y - carH * 0.6, x + carW * 0.75, y, shade([40, 50, 60], light));
    c.rect(x, y, x + carW, y + carH, body);
    c.ellipse(x + carW * 0.2, y + carH, carH * 0.45, carH * 0.45, [20, 20, 20]);
    c.ellipse(x + carW * 0.8, y + carH, carH * 0.45, carH * 0.45, [20, 20, 20]);
    if (light < 0.6) c.ellipse(x + carW, y + carH * 0.4, carH * 0.25, carH * 0.25, [255, 250, 200]);
  }

  // A visitor walking along the pavement while there is motion.
  if (s.visitor !== undefined) {
    const px = s.visitor * width * 1.1 - width * 0.05;
    const feet = pavementTop + (roadTop - pavementTop) * 0.6;
    const bodyH = height * 0.12;
    c.rect(px - width * 0.012, feet - bodyH, px + width * 0.012, feet, shade([60, 60, 140], light));
    c.ellipse(px, feet - bodyH - height * 0.025, height * 0.022, height * 0.025, shade([230, 190, 160], light));
  }

  // On-screen display: clock, name, and REC while recording.
  const scale = Math.max(1, Math.floor(height / 120));
  const margin = 3 * scale;
  c.label(margin, margin, s.clock, scale, [255, 255, 255]);
  const name = s.label.slice(0, Math.max(0, Math.floor(width / 2 / (4 * scale))));
  c.label(width - margin - name.length * 4 * scale, margin, name, scale, [255, 255, 255]);
  if (s.recording) {
    const y = height - margin - 5 * scale;
    c.ellipse(margin + 2 * scale, y + 2.5 * scale, 2.5 * scale, 2.5 * scale, [230, 30, 30]);
    c.label(margin + 6 * scale, y, 'REC', scale, [230, 30, 30]);
  }
  return { width, height, pixels };
}
