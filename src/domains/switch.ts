import type { Core } from '../core/core.js';
import type { EntityInit } from '../core/entities.js';
import { type Domain, platformOf, registerEntityServices } from './domain.js';

export interface SwitchPlatform {
  turnOn(): void | Promise<void>;
  turnOff(): void | Promise<void>;
}

export type SwitchDeviceClass = 'outlet' | 'switch';

export interface SwitchOptions extends Omit<EntityInit<SwitchPlatform>, 'fixed'> {
  readonly deviceClass?: SwitchDeviceClass;
  readonly icon?: string;
}

export function addSwitch(core: Core, options: SwitchOptions) {
  const fixed: Record<string, string> = {};
  if (options.deviceClass) fixed.device_class = options.deviceClass;
  if (options.icon) fixed.icon = options.icon;
  const entity = core.entities.add({ ...options, fixed });
  return {
    entity,
    /** Reports whether the switch is on; null when it is not known. */
    report(on: boolean | null): void {
      entity.report(on === null ? null : on ? 'on' : 'off');
    },
  };
}

export const switchDomain: Domain = {
  name: 'switch',
  restored: true,
  published: true,
  adopted: true,
  registerServices(core: Core): void {
    const p = (e: Parameters<typeof platformOf>[0]) => platformOf<SwitchPlatform>(e, 'switch');
    registerEntityServices(core, 'switch', [
      {
        service: 'turn_on',
        name: 'Turn on',
        description: 'Turns a switch on.',
        schema: { fields: {} },
        run: (e) => p(e).turnOn(),
      },
      {
        service: 'turn_off',
        name: 'Turn off',
        description: 'Turns a switch off.',
        schema: { fields: {} },
        run: (e) => p(e).turnOff(),
      },
      {
        service: 'toggle',
        name: 'Toggle',
        description: 'Toggles a switch on/off.',
        schema: { fields: {} },
        run: (e) => (e.state === 'on' ? p(e).turnOff() : p(e).turnOn()),
      },
    ]);
  },
  async reproduceState(core, entityId, desired, context) {
    if (desired.state !== 'on' && desired.state !== 'off') return;
    await core.services.call('switch', desired.state === 'on' ? 'turn_on' : 'turn_off', { entity_id: entityId }, { context });
  },
};
