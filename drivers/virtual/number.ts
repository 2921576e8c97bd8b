import { addNumber, NUMBER_MODES, type NumberMode } from '../../src/domains/number.js';
import type { VirtualPlatform } from './types.js';

interface VirtualNumberOptions {
  readonly min: number;
  readonly max: number;
  readonly step: number | undefined;
  readonly mode: NumberMode;
  readonly initial: number;
  readonly unit: string | undefined;
  readonly icon: string | undefined;
}

/** A device setting (a volume, a setpoint) that takes any value in its range at once. */
export const virtualNumber: VirtualPlatform<VirtualNumberOptions> = {
  domain: 'number',
  parse(r) {
    const min = r.number('min', { default: 0 }) ?? 0;
    const max = r.number('max', { default: 100 }) ?? 100;
    if (max < min) r.problem('max', `must be at least min (${min})`);
    const initial = r.number('initial', { default: min }) ?? min;
    if (initial < min || initial > max) r.problem('initial', `must be between min (${min}) and max (${max})`);
    return {
      min,
      max,
      step: r.number('step', { min: 1e-9 }),
      mode: r.oneOf('mode', NUMBER_MODES, 'auto'),
      initial,
      unit: r.string('unit_of_measurement'),
      icon: r.string('icon'),
    };
  },
  create(ctx, { entityId, name }, o) {
    const number = addNumber(ctx.core, {
      entityId,
      name,
      owner: ctx.owner,
      range: { min: o.min, max: o.max, step: o.step, mode: o.mode },
      unit: o.unit,
      icon: o.icon,
      platform: { setValue: (value) => number.report(value) },
    });
    number.report(o.initial);
  },
};
