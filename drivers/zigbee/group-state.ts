import type { State } from '../../src/core/state.js';
import { type ColorMode, type LightCapabilities, LightFeature, type LightModel } from '../../src/domains/light.js';

/**
 * A Zigbee group's entity state from its members', as Home Assistant's light and switch groups reduce them
 * (homeassistant/components/group/light.py, switch.py): on when any member is on, off when the rest are off,
 * unavailable when every member is; brightness, colour temperature and colour the mean of the members that are on,
 * the colour mode the one most of them are in. Pure functions, so they are tested as tables.
 */

export type GroupKind = 'light' | 'switch';

/** What a group shows: unavailable, unknown (no member has said), or on/off with the light's model. */
export type GroupReading =
  | { readonly kind: 'unavailable' }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'known'; readonly on: boolean };

/** The members' on/off reduced: `any` member on makes the group on (HA's default `all: false`). */
export function reduceOnOff(states: readonly (State | undefined)[]): GroupReading {
  let available = false;
  let known = false;
  let on = false;
  for (const s of states) {
    if (s === undefined || s.state === 'unavailable') continue;
    available = true;
    if (s.state === 'on') on = true;
    if (s.state === 'on' || s.state === 'off') known = true;
  }
  if (!available) return { kind: 'unavailable' };
  if (!known) return { kind: 'unknown' };
  return { kind: 'known', on };
}

const COLOR_MODES: readonly ColorMode[] = ['onoff', 'brightness', 'color_temp', 'hs', 'xy', 'rgb', 'white'];

/** HA's filter_supported_color_modes: onoff and brightness go when a richer mode is there. */
function filterModes(modes: ReadonlySet<ColorMode>): ColorMode[] {
  const out = COLOR_MODES.filter((m) => modes.has(m));
  const rich = out.filter((m) => m !== 'onoff' && m !== 'brightness');
  if (rich.length > 0) return rich;
  if (out.includes('brightness')) return ['brightness'];
  return ['onoff'];
}

/** The group light's capabilities: the union of its members' (HA's light group). */
export function unionCapabilities(members: readonly LightCapabilities[]): LightCapabilities {
  const modes = new Set<ColorMode>();
  const effects = new Set<string>();
  let minK: number | undefined;
  let maxK: number | undefined;
  let features = 0;
  for (const c of members) {
    for (const m of c.supportedColorModes) modes.add(m);
    for (const e of c.effectList ?? []) effects.add(e);
    if (c.minColorTempKelvin !== undefined) minK = Math.min(minK ?? c.minColorTempKelvin, c.minColorTempKelvin);
    if (c.maxColorTempKelvin !== undefined) maxK = Math.max(maxK ?? c.maxColorTempKelvin, c.maxColorTempKelvin);
    features |= (c.supportedFeatures ?? 0) & (LightFeature.EFFECT | LightFeature.FLASH | LightFeature.TRANSITION);
  }
  const supportedColorModes = filterModes(modes);
  const temp = supportedColorModes.includes('color_temp');
  return {
    supportedColorModes,
    minColorTempKelvin: temp ? minK : undefined,
    maxColorTempKelvin: temp ? maxK : undefined,
    effectList: effects.size > 0 ? [...effects].sort() : undefined,
    supportedFeatures: effects.size > 0 ? features : features & ~LightFeature.EFFECT,
  };
}

function mean(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

function pair(v: unknown): [number, number] | undefined {
  return Array.isArray(v) && v.length === 2 && typeof v[0] === 'number' && typeof v[1] === 'number' ? [v[0], v[1]] : undefined;
}

function meanPair(values: readonly [number, number][], digits: number): [number, number] | undefined {
  const a = mean(values.map((v) => v[0]));
  const b = mean(values.map((v) => v[1]));
  const f = 10 ** digits;
  return a === undefined || b === undefined ? undefined : [Math.round(a * f) / f, Math.round(b * f) / f];
}

/** The group light's model from the members that are on (undefined attributes when none is). */
export function groupLightModel(states: readonly (State | undefined)[], caps: LightCapabilities, on: boolean): LightModel {
  if (!on) return { on: false, colorMode: caps.supportedColorModes[0] };
  const lit = states.filter((s): s is State => s !== undefined && s.state === 'on');
  const nums = (key: string): number[] => lit.map((s) => s.attributes[key]).filter((v): v is number => typeof v === 'number');
  const pairs = (key: string): [number, number][] =>
    lit.map((s) => pair(s.attributes[key])).filter((v): v is [number, number] => v !== undefined);
  // The mode most members that are on are in (the first such in the group's order on a tie), when the group has it.
  const counts = new Map<ColorMode, number>();
  for (const s of lit) {
    const m = s.attributes.color_mode;
    if (typeof m === 'string' && caps.supportedColorModes.includes(m as ColorMode))
      counts.set(m as ColorMode, (counts.get(m as ColorMode) ?? 0) + 1);
  }
  let colorMode = caps.supportedColorModes[0] ?? 'onoff';
  let best = 0;
  for (const [m, n] of counts)
    if (n > best) {
      best = n;
      colorMode = m;
    }
  const brightness = mean(nums('brightness'));
  const kelvin = mean(nums('color_temp_kelvin'));
  return {
    on: true,
    colorMode,
    brightness: brightness === undefined ? undefined : Math.round(brightness),
    colorTempKelvin: kelvin === undefined ? undefined : Math.round(kelvin),
    xy: meanPair(pairs('xy_color'), 3),
    hs: meanPair(pairs('hs_color'), 3),
  };
}
