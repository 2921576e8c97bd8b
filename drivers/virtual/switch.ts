import { addSwitch } from '../../src/domains/switch.js';
import type { VirtualPlatform } from './types.js';

interface VirtualSwitchOptions {
  readonly initial: boolean;
  readonly deviceClass: 'outlet' | 'switch' | undefined;
  readonly icon: string | undefined;
}

/** A relay that switches at once and reports what it did. */
export const virtualSwitch: VirtualPlatform<VirtualSwitchOptions> = {
  domain: 'switch',
  parse(r) {
    return {
      initial: r.boolean('initial', false),
      deviceClass: r.oneOf('device_class', ['outlet', 'switch'] as const),
      icon: r.string('icon'),
    };
  },
  create(ctx, { entityId, name }, o) {
    let on = o.initial;
    const sw = addSwitch(ctx.core, {
      entityId,
      name,
      owner: ctx.owner,
      deviceClass: o.deviceClass,
      icon: o.icon,
      platform: {
        turnOn() {
          on = true;
          sw.report(on);
        },
        turnOff() {
          on = false;
          sw.report(on);
        },
      },
    });
    sw.report(on);
  },
};
