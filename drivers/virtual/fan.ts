import { addFan, type FanDirection, type FanModel, percentageOfSpeed, speedOfPercentage } from '../../src/domains/fan.js';
import type { VirtualPlatform } from './types.js';

interface VirtualFanOptions {
  readonly speedCount: number;
  readonly presets: string[] | undefined;
  readonly oscillate: boolean;
  readonly direction: boolean;
  readonly initial: boolean;
  readonly percentage: number;
}

/**
 * A fan with a fixed number of speeds: any percentage snaps to the speed that covers it, as a real
 * three- or six-speed motor does. Presets replace the speed until a speed is set again.
 */
export const virtualFan: VirtualPlatform<VirtualFanOptions> = {
  domain: 'fan',
  parse(r) {
    const presets = r.stringList('presets');
    if (presets !== undefined && presets.length === 0) r.problem('presets', 'must list at least one preset');
    return {
      speedCount: r.number('speed_count', { min: 1, max: 100, integer: true, default: 4 }),
      presets: presets && presets.length > 0 ? presets : undefined,
      oscillate: r.boolean('oscillate', false),
      direction: r.boolean('direction', false),
      initial: r.boolean('initial', false),
      percentage: r.number('percentage', { min: 1, max: 100, integer: true, default: 50 }),
    };
  },

  create(ctx, { entityId, name }, o) {
    const snap = (p: number) => percentageOfSpeed(o.speedCount, Math.max(1, speedOfPercentage(o.speedCount, p)));
    let on = o.initial;
    // The speed it runs at when on, kept while off so that turn_on resumes it.
    let speed = snap(o.percentage);
    let preset: string | null = null;
    let oscillating = false;
    let direction: FanDirection = 'forward';
    const model = (): FanModel => ({
      on,
      // Off reads 0; a preset stands in for the speed (null), as Home Assistant's demo fan reports.
      percentage: on ? (preset === null ? speed : null) : 0,
      presetMode: on ? preset : null,
      oscillating,
      direction,
    });
    const report = () => fan.report(model());
    const fan = addFan(ctx.core, {
      entityId,
      name,
      owner: ctx.owner,
      capabilities: { speedCount: o.speedCount, presetModes: o.presets, oscillate: o.oscillate, direction: o.direction },
      platform: {
        turnOn(p) {
          on = true;
          if (p.presetMode !== undefined) preset = p.presetMode;
          else if (p.percentage !== undefined) {
            preset = null;
            speed = snap(p.percentage);
          }
          report();
        },
        turnOff() {
          on = false;
          preset = null;
          report();
        },
        setPercentage(p) {
          on = true;
          preset = null;
          speed = snap(p);
          report();
        },
        setPresetMode(mode) {
          on = true;
          preset = mode;
          report();
        },
        oscillate(value) {
          oscillating = value;
          report();
        },
        setDirection(value) {
          direction = value;
          report();
        },
      },
    });
    report();
  },
};
