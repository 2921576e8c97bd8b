import type { Entity } from '../../src/core/entities.js';
import { addFan } from '../../src/domains/fan.js';
import { addLight } from '../../src/domains/light.js';
import { addLock } from '../../src/domains/lock.js';
import { addSwitch } from '../../src/domains/switch.js';
import type { GpioChip } from './chip.js';
import type { RelayConfig } from './config.js';
import type { GpioBackend, GpioLine } from './line.js';
import { isOn, levelOf, openLine, type Part, type PartContext, unavailableError, writeError } from './part.js';
import { RESTORES_ITSELF, type RememberedState, rememberedOn } from './restore.js';

/** Whether the relay is energised at start, by `restore` (and, for `last`, what was stored, else `initial`). */
export function startsOn(config: RelayConfig, remembered: RememberedState | undefined): boolean {
  if (config.restore === 'on') return true;
  if (config.restore === 'off') return false;
  const [onWord, offWord] =
    config.domain === 'lock' ? (config.lockedWhenOn ? ['locked', 'unlocked'] : ['unlocked', 'locked']) : ['on', 'off'];
  return rememberedOn(remembered, onWord, offWord) ?? config.initialOn;
}

/**
 * One output pin behind a switch, light, fan or lock. It reports what it did: the state changes only after
 * the write succeeded, and every poll reads the pin back, so a change made outside the hub shows too.
 */
export class RelayOutput implements Part {
  private line: GpioLine | undefined;
  /** Whether the relay is energised: the last level read or written (the initial one before that). */
  private on: boolean;
  private readonly entity: Entity;
  private readonly render: (on: boolean) => void;

  constructor(
    ctx: PartContext,
    private readonly config: RelayConfig,
  ) {
    this.on = startsOn(config, ctx.lastState(config.entityId));
    const base = { entityId: config.entityId, name: config.name, owner: ctx.owner, deviceId: ctx.deviceId, icon: config.icon };
    const uniqueId = `gpio-${ctx.deviceId}-${config.entityId}`;
    const turnOn = () => this.set(true);
    const turnOff = () => this.set(false);
    switch (config.domain) {
      case 'switch': {
        const h = addSwitch(ctx.core, {
          ...base,
          uniqueId,
          deviceClass: config.deviceClass,
          platform: { turnOn, turnOff, ...RESTORES_ITSELF },
        });
        this.entity = h.entity;
        this.render = (on) => h.report(on);
        break;
      }
      case 'light': {
        const h = addLight(ctx.core, {
          ...base,
          uniqueId,
          capabilities: { supportedColorModes: ['onoff'] },
          platform: { turnOn, turnOff, ...RESTORES_ITSELF },
        });
        this.entity = h.entity;
        this.render = (on) => h.report({ on });
        break;
      }
      case 'fan': {
        const h = addFan(ctx.core, { ...base, uniqueId, capabilities: {}, platform: { turnOn, turnOff, ...RESTORES_ITSELF } });
        this.entity = h.entity;
        this.render = (on) => h.report({ on });
        break;
      }
      case 'lock': {
        const lockedWhenOn = config.lockedWhenOn;
        const h = addLock(ctx.core, {
          ...base,
          uniqueId,
          platform: { lock: () => this.set(lockedWhenOn), unlock: () => this.set(!lockedWhenOn), ...RESTORES_ITSELF },
        });
        this.entity = h.entity;
        this.render = (on) => h.report({ state: on === lockedWhenOn ? 'locked' : 'unlocked' });
        break;
      }
    }
  }

  async open(chip: GpioChip, backend: GpioBackend): Promise<void> {
    // Re-opened after a failure with the last state, not the initial one: a pump that was on stays on.
    const { pin, invert } = this.config;
    this.line = await openLine(backend, chip, {
      line: pin,
      direction: 'out',
      initial: levelOf(this.on, invert),
      safe: levelOf(false, invert),
    });
  }

  async refresh(): Promise<void> {
    const line = this.line;
    if (line === undefined) return;
    this.on = isOn(await line.read(), this.config.invert);
    this.render(this.on);
  }

  fail(): void {
    this.entity.markUnavailable();
  }

  close(): void {
    this.line?.unexport();
    this.line = undefined;
  }

  private async set(on: boolean): Promise<void> {
    const line = this.line;
    if (line === undefined) throw unavailableError(this.config.entityId);
    try {
      await line.write(levelOf(on, this.config.invert));
    } catch (err) {
      throw writeError(this.config.entityId, this.config.pin, err);
    }
    this.on = on;
    this.render(on);
  }
}
