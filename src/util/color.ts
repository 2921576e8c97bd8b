import convert from 'color-convert';
import cssColors from 'color-name';
import { ownValue } from '../core/own-keys.js';

export type RGB = [r: number, g: number, b: number];
export type HS = [hue: number, saturation: number];
export type XY = [x: number, y: number];

/** CSS named colours plus the two Home Assistant adds (util/color.py COLORS). */
const EXTRA_COLORS: Record<string, RGB> = { navyblue: [0, 0, 128], homeassistant: [24, 188, 242] };

export const COLOR_NAMES: readonly string[] = [...Object.keys(cssColors), ...Object.keys(EXTRA_COLORS)].sort();

/** rgb for a colour name, matched case-insensitively with spaces removed; undefined when unknown. */
export function rgbFromName(name: string): RGB | undefined {
  const key = name.replace(/\s+/g, '').toLowerCase();
  // The name comes from a client: only the tables' own names count (`constructor` is not a colour).
  const hit = ownValue(cssColors as Record<string, readonly number[]>, key) ?? ownValue(EXTRA_COLORS, key);
  return hit === undefined ? undefined : [hit[0] as number, hit[1] as number, hit[2] as number];
}

const round = (n: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
};

export function hsFromRgb(rgb: RGB): HS {
  const [h, s] = convert.rgb.hsv.raw(rgb[0], rgb[1], rgb[2]);
  return [round(h, 3), round(s, 3)];
}

export function rgbFromHs(hs: HS): RGB {
  const [r, g, b] = convert.hsv.rgb.raw(hs[0], hs[1], 100);
  return [Math.round(r), Math.round(g), Math.round(b)];
}

// The sRGB <-> CIE xy formulas Home Assistant uses (util/color.py, from Philips Hue's documentation).
function linear(c: number): number {
  return c > 0.04045 ? ((c + 0.055) / 1.055) ** 2.4 : c / 12.92;
}
function gamma(c: number): number {
  return c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055;
}

export function xyFromRgb(rgb: RGB): XY {
  const r = linear(rgb[0] / 255);
  const g = linear(rgb[1] / 255);
  const b = linear(rgb[2] / 255);
  const X = r * 0.664511 + g * 0.154324 + b * 0.162028;
  const Y = r * 0.283881 + g * 0.668433 + b * 0.047685;
  const Z = r * 0.000088 + g * 0.07231 + b * 0.986039;
  const sum = X + Y + Z;
  if (sum === 0) return [0, 0];
  return [round(X / sum, 3), round(Y / sum, 3)];
}

export function rgbFromXy(xy: XY, brightness = 255): RGB {
  const [x, y] = xy;
  if (y === 0) return [0, 0, 0];
  const Y = brightness / 255;
  const X = (Y / y) * x;
  const Z = (Y / y) * (1 - x - y);
  let r = X * 1.656492 - Y * 0.354851 - Z * 0.255038;
  let g = -X * 0.707196 + Y * 1.655397 + Z * 0.036152;
  let b = X * 0.051713 - Y * 0.121364 + Z * 1.01153;
  [r, g, b] = [gamma(Math.max(r, 0)), gamma(Math.max(g, 0)), gamma(Math.max(b, 0))];
  const max = Math.max(r, g, b, 1e-9);
  if (max > 1) [r, g, b] = [r / max, g / max, b / max];
  return [Math.round(r * 255), Math.round(g * 255), Math.round(b * 255)];
}

/** Tanner Helland's black-body approximation, as Home Assistant's color_temperature_to_rgb. */
export function rgbFromKelvin(kelvin: number): RGB {
  const t = Math.min(Math.max(kelvin, 1000), 40000) / 100;
  const clamp = (v: number): number => Math.min(Math.max(v, 0), 255);
  const red = t <= 66 ? 255 : clamp(329.698727446 * (t - 60) ** -0.1332047592);
  const green = t <= 66 ? clamp(99.4708025861 * Math.log(t) - 161.1195681661) : clamp(288.1221695283 * (t - 60) ** -0.0755148492);
  const blue = t >= 66 ? 255 : t <= 19 ? 0 : clamp(138.5177312231 * Math.log(t - 10) - 305.0447927307);
  return [Math.round(red), Math.round(green), Math.round(blue)];
}

/** Mireds and Kelvin convert the same way: floor(1e6 / value), as Home Assistant does. */
export function miredsKelvin(value: number): number {
  return Math.floor(1_000_000 / value);
}
