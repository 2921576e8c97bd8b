import type { Action } from '../automation/model.js';
import type { ConfigReader } from '../config/reader.js';
import { COVER_DEVICE_CLASSES } from '../domains/cover.js';
import { readActions, readTemplateText } from './read.js';

/**
 * Template covers, lights and fans as homeassistant/components/template/{cover,light,fan}.py read them: their own
 * templates and actions beside the common parts (name, availability, icon, picture, attributes), in the modern
 * `template:` keys or the legacy platform keys, which Home Assistant maps onto the modern ones (LEGACY_FIELDS).
 */

export const DEVICE_DOMAINS = ['cover', 'light', 'fan', 'lock'] as const;
export type DeviceDomain = (typeof DEVICE_DOMAINS)[number];

export function isDeviceDomain(domain: string): domain is DeviceDomain {
  return (DEVICE_DOMAINS as readonly string[]).includes(domain);
}

/** A device template entity's own parts: templates and actions by their modern key. */
export interface DeviceParts {
  readonly state?: string;
  readonly templates: ReadonlyMap<string, string>;
  readonly actions: ReadonlyMap<string, readonly Action[]>;
  /** `optimistic:` as written (absent is not false: Home Assistant then assumes it without a state template). */
  readonly optimistic?: boolean;
  readonly tiltOptimistic?: boolean;
  readonly deviceClass?: string;
  readonly speedCount?: number;
  readonly presetModes?: readonly string[];
  /** A lock's code_format: the pattern codes must match. */
  readonly codeFormat?: string;
}

interface DeviceSpec {
  /** The templates beside `state` (modern keys). */
  readonly templates: readonly string[];
  readonly actions: readonly string[];
  /** Actions without which the entity cannot work: [key, what it is]. */
  readonly required: readonly (readonly [string, string])[];
  /** The legacy map's key (`covers:`) */
  readonly legacyKey: string;
  /** LEGACY_FIELDS: each modern key's legacy names (the first is the one check-config names). */
  readonly legacy: Readonly<Record<string, readonly string[]>>;
}

export const DEVICE_SPECS: Readonly<Record<DeviceDomain, DeviceSpec>> = {
  cover: {
    templates: ['position', 'tilt'],
    actions: ['open_cover', 'close_cover', 'stop_cover', 'set_cover_position', 'set_cover_tilt_position'],
    required: [],
    legacyKey: 'covers',
    legacy: { state: ['value_template'], position: ['position_template'], tilt: ['tilt_template'] },
  },
  light: {
    templates: ['level', 'temperature', 'hs', 'rgb', 'effect_list', 'effect', 'min_mireds', 'max_mireds', 'supports_transition'],
    actions: ['turn_on', 'turn_off', 'set_level', 'set_temperature', 'set_hs', 'set_rgb', 'set_effect'],
    required: [
      ['turn_on', 'the actions that turn the light on'],
      ['turn_off', 'the actions that turn the light off'],
    ],
    legacyKey: 'lights',
    legacy: {
      state: ['value_template'],
      level: ['level_template'],
      temperature: ['temperature_template'],
      hs: ['hs_template', 'color_template'],
      set_hs: ['set_hs', 'set_color'],
      rgb: ['rgb_template'],
      effect_list: ['effect_list_template'],
      effect: ['effect_template'],
      min_mireds: ['min_mireds_template'],
      max_mireds: ['max_mireds_template'],
      supports_transition: ['supports_transition_template'],
    },
  },
  fan: {
    templates: ['percentage', 'preset_mode', 'oscillating', 'direction'],
    actions: ['turn_on', 'turn_off', 'set_percentage', 'set_preset_mode', 'set_oscillating', 'set_direction'],
    required: [
      ['turn_on', 'the actions that turn the fan on'],
      ['turn_off', 'the actions that turn the fan off'],
    ],
    legacyKey: 'fans',
    legacy: {
      state: ['value_template'],
      percentage: ['percentage_template'],
      preset_mode: ['preset_mode_template'],
      oscillating: ['oscillating_template'],
      direction: ['direction_template'],
    },
  },
  lock: {
    templates: [],
    actions: ['lock', 'unlock', 'open'],
    required: [
      ['lock', 'the actions that lock'],
      ['unlock', 'the actions that unlock'],
    ],
    legacyKey: 'locks',
    legacy: { state: ['value_template'], code_format: ['code_format_template'] },
  },
};

/** A lock's code_format: a pattern (a template that renders one is not supported: the check is fixed at start). */
function readCodeFormat(r: ConfigReader, key: string): string | undefined {
  const format = r.string(key);
  if (format === undefined) return undefined;
  if (format.includes('{{') || format.includes('{%')) {
    r.problem(key, 'a templated code_format is not supported: give the pattern itself (e.g. "^\\d{4}$")');
    return undefined;
  }
  try {
    new RegExp(format);
  } catch {
    r.problem(key, `${JSON.stringify(format)} is not a valid regular expression`);
    return undefined;
  }
  return format;
}

/** Reads a cover's, light's or fan's own parts; `legacy` reads the platform list's names of its keys. */
export function readDeviceParts(domain: DeviceDomain, r: ConfigReader, legacy: boolean): DeviceParts {
  const spec = DEVICE_SPECS[domain];
  /** The key `modern` is written under: one of its legacy names (both given is Home Assistant's vol.Exclusive). */
  const keyOf = (modern: string): string => {
    const names = legacy ? (spec.legacy[modern] ?? [modern]) : [modern];
    // Each name is allowed, given or not (check-config lists it).
    for (const n of names) r.raw(n);
    const given = names.filter((n) => r.has(n));
    if (given.length > 1) r.problem(given[1] as string, `give either ${given[0]} or ${given[1]}, not both`);
    return given[0] ?? (names[0] as string);
  };
  const templates = new Map<string, string>();
  for (const key of spec.templates) {
    const source = readTemplateText(r, keyOf(key));
    if (source !== undefined) templates.set(key, source);
  }
  const actions = new Map<string, readonly Action[]>();
  for (const key of spec.actions) {
    const list = readActions(r, keyOf(key), true);
    if (list !== undefined) actions.set(key, list);
  }
  r.raw('optimistic');
  const parts: DeviceParts = {
    state: readTemplateText(r, keyOf('state')),
    templates,
    actions,
    optimistic: r.has('optimistic') ? r.boolean('optimistic', false) : undefined,
    tiltOptimistic: domain === 'cover' ? r.boolean('tilt_optimistic', false) : undefined,
    deviceClass: domain === 'cover' ? r.oneOf('device_class', COVER_DEVICE_CLASSES) : undefined,
    speedCount: domain === 'fan' ? r.number('speed_count', { integer: true, min: 1 }) : undefined,
    presetModes: domain === 'fan' ? r.stringList('preset_modes') : undefined,
    codeFormat: domain === 'lock' ? readCodeFormat(r, keyOf('code_format')) : undefined,
  };
  for (const [key, what] of spec.required) if (!r.has(keyOf(key))) r.problem(keyOf(key), `is required: expected ${what}`);
  if (domain === 'cover') {
    r.inclusive('open_cover', 'close_cover', 'open_cover and close_cover go together');
    if (!r.has('open_cover') && !r.has('close_cover') && !r.has('set_cover_position'))
      r.problem('open_cover', 'is required: expected open_cover and close_cover, or set_cover_position (or both)');
  }
  if (domain === 'light') {
    const effect = ['set_effect', keyOf('effect_list'), keyOf('effect')];
    const given = effect.filter((k) => r.has(k));
    if (given.length > 0 && given.length < 3)
      for (const k of effect) if (!r.has(k)) r.problem(k, `is required with the other one: ${effect.join(', ')} go together`);
  }
  return parts;
}
