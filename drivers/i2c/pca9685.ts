import { type ConfigIssue, type ConfigPath, ConfigReader } from '../../src/config/reader.js';
import { isValidEntityId, slugify } from '../../src/core/entity-id.js';
import { HubError } from '../../src/core/errors.js';
import type { JsonValue } from '../../src/core/json.js';
import { addFan, type FanHandle } from '../../src/domains/fan.js';
import { addLight, type LightHandle } from '../../src/domains/light.js';
import { errorText } from '../common/device-poller.js';
import { type ChipContext, type ChipType, chipError } from './chip.js';

const REG_MODE1 = 0x00;
const REG_LED0 = 0x06;
const REG_PRE_SCALE = 0xfe;

const MODE1_RESTART = 0x80;
const MODE1_AI = 0x20;
const MODE1_SLEEP = 0x10;

/** Bit 4 of LEDn_ON_H / LEDn_OFF_H: the output is fully on / fully off (off wins). */
const FULL = 0x1000;
/** 12-bit PWM; 4096 stands for "fully on". */
export const DUTY_FULL = 4096;

const OSCILLATOR_HZ = 25_000_000;
export const MIN_FREQUENCY = 24;
export const MAX_FREQUENCY = 1526;

/** Datasheet 7.3.5: prescale = round(osc_clock / (4096 * update_rate)) - 1, limited to 3..255. */
export function pca9685Prescale(frequency: number): number {
  return Math.min(255, Math.max(3, Math.round(OSCILLATOR_HZ / (4096 * frequency)) - 1));
}

/** The four LEDn registers for a duty of 0..4096 (0 fully off, 4096 fully on). */
export function encodeDuty(duty: number): Buffer {
  const on = duty >= DUTY_FULL ? FULL : 0;
  const off = duty <= 0 ? FULL : duty >= DUTY_FULL ? 0 : duty;
  return Buffer.from([on & 0xff, on >> 8, off & 0xff, off >> 8]);
}

/** The duty (0..4096) the four LEDn registers produce, whatever phase offset they were written with. */
export function decodeDuty(regs: Buffer): number {
  const on = regs.readUInt16LE(0);
  const off = regs.readUInt16LE(2);
  if (off & FULL) return 0;
  if (on & FULL) return DUTY_FULL;
  return ((off & 0x0fff) - (on & 0x0fff) + 4096) % 4096;
}

interface ChannelBase {
  readonly channel: number;
  readonly entityId: string;
  readonly name: string;
  /** The output drives an active-low stage: duty is inverted. */
  readonly invert: boolean;
}
interface LightChannel extends ChannelBase {
  readonly platform: 'light';
  /** Brightness -> duty exponent; 1 is linear, about 2.2-2.8 looks even to the eye on LEDs. */
  readonly gamma: number;
}
interface FanChannel extends ChannelBase {
  readonly platform: 'fan';
  /** Duty (%) at the lowest speed: many fans stall below some duty. */
  readonly minDuty: number;
  readonly speedCount: number;
}
export type PwmChannel = LightChannel | FanChannel;

export interface Pca9685Options {
  readonly frequency: number;
  readonly channels: readonly PwmChannel[];
}

/** Brightness 1..255 -> duty 1..4096. */
export function brightnessToDuty(brightness: number, gamma: number): number {
  return Math.max(1, Math.round(DUTY_FULL * (brightness / 255) ** gamma));
}
export function dutyToBrightness(duty: number, gamma: number): number {
  return Math.min(255, Math.max(1, Math.round(255 * (duty / DUTY_FULL) ** (1 / gamma))));
}
/** Percentage 1..100 -> duty, starting at min_duty. */
export function percentageToDuty(percentage: number, minDuty: number): number {
  return Math.max(1, Math.round((DUTY_FULL * (minDuty + ((100 - minDuty) * percentage) / 100)) / 100));
}
export function dutyToPercentage(duty: number, minDuty: number): number {
  const pct = ((duty / DUTY_FULL) * 100 - minDuty) / ((100 - minDuty) / 100);
  return Math.min(100, Math.max(1, Math.round(pct)));
}

const PLATFORMS = ['fan', 'light'] as const;

function parseChannel(item: { value: JsonValue; path: ConfigPath }, deviceName: string, issues: ConfigIssue[]): PwmChannel | undefined {
  const c = ConfigReader.of(item.value, item.path, issues);
  const hasChannel = c.has('channel');
  const channel = c.number('channel', { required: true, integer: true, min: 0, max: 15 });
  const platform = c.oneOf('platform', PLATFORMS, 'light');
  const name = c.string('name') ?? `${deviceName} Channel ${channel}`;
  const objectId = c.string('id') ?? slugify(name);
  const entityId = `${platform}.${objectId}`;
  if (!isValidEntityId(entityId)) {
    c.problem('id', `${JSON.stringify(objectId)} is not a valid object id: use lower-case letters, digits and single underscores`);
  }
  const invert = c.boolean('invert', false);
  let out: PwmChannel;
  if (platform === 'light') {
    out = { platform, channel, entityId, name, invert, gamma: c.number('gamma', { min: 0.1, max: 5, default: 1 }) };
  } else {
    out = {
      platform,
      channel,
      entityId,
      name,
      invert,
      minDuty: c.number('min_duty', { min: 0, max: 99, default: 0 }),
      speedCount: c.number('speed_count', { min: 1, max: 100, integer: true, default: 100 }),
    };
  }
  c.rejectUnknown();
  return hasChannel ? out : undefined;
}

/** NXP PCA9685: 16 PWM outputs, each a dimmable light or a fan's speed. */
export const pca9685: ChipType<Pca9685Options> = {
  chip: 'pca9685',
  manufacturer: 'NXP Semiconductors',
  model: 'PCA9685',
  // Six address pins: 0x40..0x7F (0x70 is the default All Call address; the driver switches All Call off).
  addresses: Array.from({ length: 64 }, (_, i) => 0x40 + i),
  // An output chip: the poll reads its outputs back, to notice a reset or an unplugged board.
  defaultPollInterval: 60,
  parse(r, identity) {
    const frequency = r.number('frequency', { min: MIN_FREQUENCY, max: MAX_FREQUENCY, default: 1000 });
    const items = r.list('channels');
    if (items.length === 0) r.problem('channels', 'is required: list the outputs, e.g. [{channel: 0, platform: light, name: Desk Lamp}]');
    const channels: PwmChannel[] = [];
    const used = new Map<number, number>();
    items.forEach((item, i) => {
      const ch = parseChannel(item, identity.name, r.issues);
      if (ch === undefined) return;
      const first = used.get(ch.channel);
      if (first !== undefined) {
        r.issues.push({ path: [...item.path, 'channel'], message: `channel ${ch.channel} is already used by channels[${first}]` });
        return;
      }
      used.set(ch.channel, i);
      channels.push(ch);
    });
    return { options: { frequency, channels }, entityIds: channels.map((c) => c.entityId) };
  },
  create(ctx, options) {
    return new Pca9685(ctx, options);
  },
};

interface Output {
  readonly config: PwmChannel;
  /** Last duty read from or written to the chip (before inversion), or undefined before the first. */
  duty: number | undefined;
  /** Brightness or percentage last asked for, kept so a read-back duty that matches it reports it exactly. */
  level: number;
  report(): void;
  markUnavailable(): void;
}

class Pca9685 {
  private readonly outputs: Output[];
  private readonly prescale: number;

  constructor(
    private readonly ctx: ChipContext,
    options: Pca9685Options,
  ) {
    this.prescale = pca9685Prescale(options.frequency);
    this.outputs = options.channels.map((c) => (c.platform === 'light' ? this.addLightOutput(c) : this.addFanOutput(c)));
  }

  async init(): Promise<void> {
    const { bus, identity } = this.ctx;
    const mode1 = await bus.run((b) => b.readByte(identity.address, REG_MODE1));
    const prescale = await bus.run((b) => b.readByte(identity.address, REG_PRE_SCALE));
    await this.configure(mode1, prescale);
    await this.readOutputs();
  }

  async read(): Promise<void> {
    const mode1 = await this.ctx.bus.run((b) => b.readByte(this.ctx.identity.address, REG_MODE1));
    // Asleep or without auto-increment: the chip was reset (power loss) since we set it up.
    if (mode1 & MODE1_SLEEP || !(mode1 & MODE1_AI)) {
      const prescale = await this.ctx.bus.run((b) => b.readByte(this.ctx.identity.address, REG_PRE_SCALE));
      await this.configure(mode1, prescale);
    }
    await this.readOutputs();
  }

  markUnavailable(): void {
    for (const o of this.outputs) o.markUnavailable();
  }

  /** Sets the PWM frequency (only possible asleep) and wakes the chip, keeping the outputs it has. */
  private async configure(mode1: number, prescale: number): Promise<void> {
    const address = this.ctx.identity.address;
    const write = (reg: number, value: number) => this.ctx.bus.run((b) => b.writeByte(address, reg, value));
    if (prescale !== this.prescale) {
      await write(REG_MODE1, MODE1_AI | MODE1_SLEEP);
      await write(REG_PRE_SCALE, this.prescale);
    } else if ((mode1 & ~MODE1_RESTART) === MODE1_AI) {
      return;
    }
    // Awake, auto-increment on, All Call off; the oscillator needs 500 µs before RESTART.
    await write(REG_MODE1, MODE1_AI);
    await this.ctx.delay(1);
    await write(REG_MODE1, MODE1_AI | MODE1_RESTART);
  }

  private async readOutputs(): Promise<void> {
    const address = this.ctx.identity.address;
    for (const o of this.outputs) {
      const reg = REG_LED0 + 4 * o.config.channel;
      const regs = await this.ctx.bus.run(async (b) => {
        const { bytesRead, buffer } = await b.readI2cBlock(address, reg, 4, Buffer.alloc(4));
        if (bytesRead !== 4) throw chipError('EBADDATA', `read ${bytesRead} of 4 bytes of channel ${o.config.channel}`);
        return buffer;
      });
      const physical = decodeDuty(regs);
      o.duty = o.config.invert ? DUTY_FULL - physical : physical;
    }
    for (const o of this.outputs) o.report();
  }

  /** Writes one output; a failure becomes a client error, and the chip is checked (and marked unavailable). */
  private async writeDuty(o: Output, duty: number): Promise<void> {
    const physical = o.config.invert ? DUTY_FULL - duty : duty;
    const data = Buffer.concat([Buffer.from([REG_LED0 + 4 * o.config.channel]), encodeDuty(physical)]);
    try {
      await this.ctx.bus.run((b) => b.i2cWrite(this.ctx.identity.address, data.length, data));
    } catch (err) {
      this.ctx.recheck();
      throw new HubError('hub_error', `${this.ctx.label} did not take the new output: ${errorText(err)}`);
    }
    o.duty = duty;
    o.report();
  }

  private entityBase(c: PwmChannel) {
    return {
      entityId: c.entityId,
      owner: this.ctx.owner,
      name: c.name,
      uniqueId: `${this.ctx.identity.key}-${c.channel}`,
      deviceId: this.ctx.deviceId,
    };
  }

  private addLightOutput(c: LightChannel): Output {
    const output: Output = {
      config: c,
      duty: undefined,
      level: 255,
      report: () => {
        const duty = output.duty;
        if (duty === undefined) return light.report(null);
        if (duty > 0 && brightnessToDuty(output.level, c.gamma) !== duty) output.level = dutyToBrightness(duty, c.gamma);
        light.report({ on: duty > 0, brightness: output.level, colorMode: 'brightness' });
      },
      markUnavailable: () => light.entity.markUnavailable(),
    };
    const light: LightHandle = addLight(this.ctx.core, {
      ...this.entityBase(c),
      capabilities: { supportedColorModes: ['brightness'] },
      platform: {
        turnOn: (p) => {
          if (p.brightness !== undefined) output.level = p.brightness;
          return this.writeDuty(output, brightnessToDuty(output.level, c.gamma));
        },
        turnOff: () => this.writeDuty(output, 0),
      },
    });
    light.report(null);
    return output;
  }

  private addFanOutput(c: FanChannel): Output {
    const output: Output = {
      config: c,
      duty: undefined,
      level: 100,
      report: () => {
        const duty = output.duty;
        if (duty === undefined) return fan.report(null);
        if (duty > 0 && percentageToDuty(output.level, c.minDuty) !== duty) output.level = dutyToPercentage(duty, c.minDuty);
        fan.report({ on: duty > 0, percentage: duty > 0 ? output.level : 0 });
      },
      markUnavailable: () => fan.entity.markUnavailable(),
    };
    const setPercentage = (percentage: number) => {
      output.level = percentage;
      return this.writeDuty(output, percentageToDuty(percentage, c.minDuty));
    };
    const fan: FanHandle = addFan(this.ctx.core, {
      ...this.entityBase(c),
      capabilities: { speedCount: c.speedCount },
      platform: {
        turnOn: (p) => setPercentage(p.percentage ?? output.level),
        turnOff: () => this.writeDuty(output, 0),
        setPercentage,
      },
    });
    fan.report(null);
    return output;
  }
}
