// Which Matter device type an entity becomes, its attributes for a hub state, and the hub services a controller's
// change calls. Matter's commands change the endpoint's attributes (matter.js's default cluster servers); each
// change that differs from the hub's state becomes a service call, so the hub's own updates never echo back.
import type { State } from '../core/state.js';
import { moreKindFor } from './devices-more.js';
import { clamp, type DeviceKind, type EntityLink, num, onChange, typeWith } from './kind.js';
import type { BehaviorType, EndpointType, MatterEndpoint, MatterLib, Patch } from './lib.js';

function domainOf(entityId: string): string {
  return entityId.slice(0, entityId.indexOf('.'));
}

/** Runs `fn` once at the end of this turn however often it is asked (X and Y, hue and saturation, change apart). */
function coalesced(fn: () => void): () => void {
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    queueMicrotask(() => {
      queued = false;
      fn();
    });
  };
}

function onOffListener(endpoint: MatterEndpoint, link: EntityLink, domain: string): void {
  onChange(endpoint, 'onOff', 'onOff', (value) => {
    const on = link.state()?.state === 'on';
    if (value !== on) link.call(domain, value === true ? 'turn_on' : 'turn_off');
  });
}

/** Domains bridged as plug-in units (on/off only). */
const SWITCH_DOMAINS = new Set(['switch', 'input_boolean']);

function switchKind(lib: MatterLib): DeviceKind | undefined {
  const type = lib.devices.OnOffPlugInUnitDevice;
  if (type === undefined) return undefined;
  return {
    type,
    patch: (s) => ({ onOff: { onOff: s.state === 'on' } }),
    listen: (endpoint, link) => onOffListener(endpoint, link, domainOf(link.entityId)),
  };
}

/** Two numbers (HA's hs_color, xy_color), or undefined. */
function pair(value: unknown): [number, number] | undefined {
  return Array.isArray(value) && typeof value[0] === 'number' && typeof value[1] === 'number' ? [value[0], value[1]] : undefined;
}

/** Matter's colour units: X/Y in 1/65536 (to 0xFEFF), hue in 254ths of a turn, saturation in 254ths. */
const xyOf = (v: number): number => clamp(v * 65536, 0, 0xfeff);
const hueOf = (degrees: number): number => clamp((degrees / 360) * 254, 0, 254);
const satOf = (percent: number): number => clamp((percent / 100) * 254, 0, 254);

/** Matter's level (1-254) from HA's brightness (0-255), and back. */
export const levelOf = (brightness: number): number => clamp((brightness * 254) / 255, 1, 254);
export const brightnessOf = (level: number): number => clamp((level * 255) / 254, 1, 255);

/**
 * An extended colour light with hue and saturation besides matter.js's X/Y and colour temperature (Apple Home and Alexa
 * send hue/saturation). Read only for a colour light: the built hub loads colour lights' code when first read.
 */
function extendedColourLight(lib: MatterLib): { type: EndpointType | undefined; hueSaturation: boolean } {
  const colourServer = (lib.devices.ExtendedColorLightRequirements as unknown as { ColorControlServer?: BehaviorType } | undefined)
    ?.ColorControlServer;
  const extended = lib.devices.ExtendedColorLightDevice;
  return colourServer === undefined || extended === undefined
    ? { type: extended, hueSaturation: false }
    : { type: typeWith(extended, colourServer.with('HueSaturation', 'Xy', 'ColorTemperature')), hueSaturation: true };
}

function lightKind(lib: MatterLib, state: State): DeviceKind | undefined {
  const modes = Array.isArray(state.attributes.supported_color_modes) ? state.attributes.supported_color_modes : [];
  const colour = modes.some((m) => m === 'hs' || m === 'xy' || m === 'rgb' || m === 'rgbw' || m === 'rgbww');
  const temperature = modes.includes('color_temp');
  const dimmable = colour || temperature || modes.includes('brightness') || modes.includes('white');
  const extended = colour ? extendedColourLight(lib) : undefined;
  const hueSaturation = extended?.hueSaturation === true;
  const type = colour
    ? extended?.type
    : temperature
      ? lib.devices.ColorTemperatureLightDevice
      : dimmable
        ? lib.devices.DimmableLightDevice
        : lib.devices.OnOffLightDevice;
  if (type === undefined) return undefined;
  // Mireds bounds from the light's kelvin range (Matter keeps colour temperature in mireds).
  const minMireds = clamp(1e6 / (num(state.attributes.max_color_temp_kelvin) ?? 6500), 1, 65279);
  const maxMireds = clamp(1e6 / (num(state.attributes.min_color_temp_kelvin) ?? 2000), minMireds, 65279);
  return {
    type,
    patch(s) {
      const on = s.state === 'on';
      const out: Patch = { onOff: { onOff: on } };
      const brightness = num(s.attributes.brightness);
      if (dimmable && brightness !== undefined) out.levelControl = { currentLevel: levelOf(brightness) };
      if (colour || temperature) {
        // ColorMode (and EnhancedColorMode): hue/saturation 0, X/Y 1, colour temperature 2.
        const cc: Record<string, unknown> = {
          colorTempPhysicalMinMireds: minMireds,
          colorTempPhysicalMaxMireds: maxMireds,
          coupleColorTempToLevelMinMireds: minMireds,
        };
        const kelvin = num(s.attributes.color_temp_kelvin);
        const xy = pair(s.attributes.xy_color);
        const hs = pair(s.attributes.hs_color);
        if (kelvin !== undefined && kelvin > 0) cc.colorTemperatureMireds = clamp(1e6 / kelvin, minMireds, maxMireds);
        if (colour && xy !== undefined) [cc.currentX, cc.currentY] = [xyOf(xy[0]), xyOf(xy[1])];
        if (colour && hueSaturation && hs !== undefined) [cc.currentHue, cc.currentSaturation] = [hueOf(hs[0]), satOf(hs[1])];
        const mode =
          s.attributes.color_mode === 'color_temp' || !colour
            ? 2
            : s.attributes.color_mode === 'xy' || !hueSaturation
              ? 1
              : hs !== undefined
                ? 0
                : temperature
                  ? 2
                  : 1;
        cc.colorMode = mode;
        cc.enhancedColorMode = mode;
        out.colorControl = cc;
      }
      return out;
    },
    listen(endpoint, link) {
      onOffListener(endpoint, link, 'light');
      if (dimmable)
        onChange(endpoint, 'levelControl', 'currentLevel', (level) => {
          const s = link.state();
          if (typeof level !== 'number' || s === undefined) return;
          const brightness = num(s.attributes.brightness);
          if (s.state === 'on' && brightness !== undefined && levelOf(brightness) === level) return;
          // A level set while the light is off (Matter keeps the level apart from on/off) waits for the next on.
          if (s.state !== 'on' && endpoint.state.onOff?.onOff !== true) return;
          link.call('light', 'turn_on', { brightness: brightnessOf(level) });
        });
      if (colour || temperature)
        onChange(endpoint, 'colorControl', 'colorTemperatureMireds', (mireds) => {
          const kelvin = num(link.state()?.attributes.color_temp_kelvin);
          if (typeof mireds !== 'number' || mireds <= 0) return;
          if (kelvin !== undefined && clamp(1e6 / kelvin, minMireds, maxMireds) === mireds) return;
          link.call('light', 'turn_on', { color_temp_kelvin: Math.round(1e6 / mireds) });
        });
      if (colour) {
        const sendXy = coalesced(() => {
          const cc = endpoint.state.colorControl;
          const x = num(cc?.currentX);
          const y = num(cc?.currentY);
          if (x === undefined || y === undefined || cc?.colorMode !== 1) return;
          const xy = pair(link.state()?.attributes.xy_color);
          if (xy !== undefined && xyOf(xy[0]) === x && xyOf(xy[1]) === y) return;
          link.call('light', 'turn_on', { xy_color: [Math.round((x / 65536) * 1e4) / 1e4, Math.round((y / 65536) * 1e4) / 1e4] });
        });
        onChange(endpoint, 'colorControl', 'currentX', sendXy);
        onChange(endpoint, 'colorControl', 'currentY', sendXy);
        const sendHs = coalesced(() => {
          const cc = endpoint.state.colorControl;
          const hue = num(cc?.currentHue);
          const sat = num(cc?.currentSaturation);
          if (hue === undefined || sat === undefined || cc?.colorMode !== 0) return;
          const hs = pair(link.state()?.attributes.hs_color);
          if (hs !== undefined && hueOf(hs[0]) === hue && satOf(hs[1]) === sat) return;
          link.call('light', 'turn_on', { hs_color: [Math.round((hue * 3600) / 254) / 10, Math.round((sat * 1000) / 254) / 10] });
        });
        onChange(endpoint, 'colorControl', 'currentHue', sendHs);
        onChange(endpoint, 'colorControl', 'currentSaturation', sendHs);
      }
    },
  };
}

/** The Matter device for an entity's state, or undefined when Matter has none for it. */
export function kindFor(lib: MatterLib, entityId: string, state: State): DeviceKind | undefined {
  const domain = domainOf(entityId);
  if (domain === 'light') return lightKind(lib, state);
  if (SWITCH_DOMAINS.has(domain)) return switchKind(lib);
  return moreKindFor(lib, state);
}
