import { readdirSync } from 'node:fs';
import type { Logger } from '../../src/core/log.js';
import type { ChardevBackendOptions } from './chardev-backend.js';
import type { GpioBackendChoice } from './config.js';
import type { GpioBackend, GpioBackendLoader } from './line.js';
import { loadOnoffBackend } from './onoff-backend.js';

/** Whether the kernel offers GPIO character devices (`/dev/gpiochipN`). */
export function hasGpioChips(devDir: string): boolean {
  try {
    return readdirSync(devDir).some((name) => /^gpiochip\d+$/.test(name));
  } catch {
    return false;
  }
}

export interface BackendChoiceOptions {
  /** Where to look for gpiochip devices (default /dev). */
  readonly devDir?: string;
  readonly chardev?: ChardevBackendOptions;
  readonly log?: Logger;
}

/**
 * The backend `gpio.backend` asks for: `chardev`, `sysfs` (onoff), or `auto`, the character device when
 * the kernel has one (every Raspberry Pi OS kernel since Bullseye) and sysfs otherwise. Decided on each load,
 * so a retry after a failure sees the system as it is then.
 */
export function backendLoader(choice: GpioBackendChoice, options: BackendChoiceOptions = {}): GpioBackendLoader {
  return async (): Promise<GpioBackend> => {
    const chardev = choice === 'chardev' || (choice === 'auto' && hasGpioChips(options.devDir ?? '/dev'));
    if (chardev) {
      // Loaded here, not at the top: it brings readline and child_process, which a hub without gpio: never needs.
      const { ChardevBackend } = await import('./chardev-backend.js');
      return new ChardevBackend({ log: options.log, ...options.chardev });
    }
    return loadOnoffBackend();
  };
}
