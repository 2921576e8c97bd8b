import { addButton, BUTTON_DEVICE_CLASSES } from '../../src/domains/button.js';
import type { VirtualPlatform } from './types.js';

interface VirtualButtonOptions {
  readonly deviceClass: (typeof BUTTON_DEVICE_CLASSES)[number] | undefined;
  readonly icon: string | undefined;
}

/** A push button (a doorbell chime's test, a device's identify): a press is logged; the domain records its time. */
export const virtualButton: VirtualPlatform<VirtualButtonOptions> = {
  domain: 'button',
  parse(r) {
    return { deviceClass: r.oneOf('device_class', BUTTON_DEVICE_CLASSES), icon: r.string('icon') };
  },
  create(ctx, { entityId, name }, o) {
    const button = addButton(ctx.core, {
      entityId,
      name,
      owner: ctx.owner,
      deviceClass: o.deviceClass,
      icon: o.icon,
      platform: { press: () => ctx.log.info({ entity_id: entityId }, 'virtual button pressed') },
    });
    button.report();
  },
};
