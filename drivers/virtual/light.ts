import { addLight, type ColorMode, type LightModel } from '../../src/domains/light.js';
import type { VirtualPlatform } from './types.js';

const COLOR_MODES: readonly ColorMode[] = ['onoff', 'brightness', 'color_temp', 'hs', 'xy', 'rgb', 'white'];

interface VirtualLightOptions {
  readonly modes: ColorMode[];
  readonly effects: string[] | undefined;
  readonly initial: boolean;
  readonly brightness: number;
}

/** A bulb that applies what it is asked at once and remembers its last colour, like a real smart bulb. */
export const virtualLight: VirtualPlatform<VirtualLightOptions> = {
  domain: 'light',
  parse(r) {
    return {
      modes: (r.stringList('color_modes', { options: COLOR_MODES }) as ColorMode[] | undefined) ?? ['brightness'],
      effects: r.stringList('effects'),
      initial: r.boolean('initial', false),
      brightness: r.number('brightness', { min: 1, max: 255, integer: true, default: 180 }),
    };
  },
  create(ctx, { entityId, name }, o) {
    const preferred = o.modes.find((m) => m === 'hs' || m === 'xy' || m === 'rgb');
    let model: LightModel = {
      on: o.initial,
      brightness: o.brightness,
      colorMode: o.modes.includes('color_temp') ? 'color_temp' : (preferred ?? o.modes[0]),
      colorTempKelvin: 3000,
      hs: [30, 60],
    };
    const light = addLight(ctx.core, {
      entityId,
      name,
      owner: ctx.owner,
      capabilities: { supportedColorModes: o.modes, effectList: o.effects, supportedFeatures: (o.effects ? 4 : 0) | 8 | 32 },
      platform: {
        turnOn(p) {
          const next = withOn(model, true);
          if (p.brightness !== undefined) next.brightness = p.brightness;
          if (p.color_temp_kelvin !== undefined) {
            next.colorMode = 'color_temp';
            next.colorTempKelvin = p.color_temp_kelvin;
          }
          if (p.hs_color !== undefined) Object.assign(next, { colorMode: 'hs', hs: p.hs_color, rgb: undefined, xy: undefined });
          if (p.rgb_color !== undefined) Object.assign(next, { colorMode: 'rgb', rgb: p.rgb_color, hs: undefined, xy: undefined });
          if (p.xy_color !== undefined) Object.assign(next, { colorMode: 'xy', xy: p.xy_color, hs: undefined, rgb: undefined });
          if (p.effect !== undefined) next.effect = p.effect;
          model = next;
          light.report(model);
        },
        turnOff() {
          model = withOn(model, false);
          light.report(model);
        },
      },
    });
    light.report(model);
  },
};

type MutableModel = { -readonly [K in keyof LightModel]: LightModel[K] };

/** The model switched on or off, written field by field: every model then has one shape (a toggle is a bench's hot path). */
function withOn(m: LightModel, on: boolean): MutableModel {
  return {
    on,
    brightness: m.brightness,
    colorMode: m.colorMode,
    hs: m.hs,
    rgb: m.rgb,
    xy: m.xy,
    colorTempKelvin: m.colorTempKelvin,
    effect: m.effect,
  };
}
