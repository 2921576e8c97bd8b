import { addBinarySensor, type BinarySensorHandle } from '../../src/domains/binary-sensor.js';
import { errorText } from '../common/device-poller.js';
import type { GpioChip } from './chip.js';
import type { InputConfig } from './config.js';
import type { GpioBackend, GpioLine, Level } from './line.js';
import { isOn, openLine, type Part, type PartContext } from './part.js';

/**
 * An input pin as a binary_sensor, driven by edge interrupts. With a debounce, a change is reported once
 * the pin has been quiet for that long (contacts bounce, PIRs chatter); the level is then read again, so a
 * missed edge cannot leave a wrong state. Polls read the level too, as a backstop.
 */
export class BinaryInput implements Part {
  private line: GpioLine | undefined;
  private readonly sensor: BinarySensorHandle;
  private settleTimer: NodeJS.Timeout | undefined;
  /** Bumped on open and fail, so an edge or a settle read of an older line reports nothing. */
  private generation = 0;
  private readonly onSettled = () => {
    this.settleTimer = undefined;
    void this.readAndReport(this.generation);
  };

  constructor(
    private readonly ctx: PartContext,
    private readonly config: InputConfig,
  ) {
    this.sensor = addBinarySensor(ctx.core, {
      entityId: config.entityId,
      name: config.name,
      owner: ctx.owner,
      deviceId: ctx.deviceId,
      uniqueId: `gpio-${ctx.deviceId}-${config.entityId}`,
      deviceClass: config.deviceClass,
      icon: config.icon,
    });
  }

  async open(chip: GpioChip, backend: GpioBackend): Promise<void> {
    const line = await openLine(backend, chip, { line: this.config.pin, direction: 'in', edges: true, bias: this.config.bias });
    this.line = line;
    const generation = ++this.generation;
    line.watch((err, level) => this.onEdge(generation, err, level));
  }

  async refresh(): Promise<void> {
    const line = this.line;
    if (line === undefined) return;
    const level = await line.read();
    // While a change is settling, the debounce timer reports it.
    if (this.settleTimer === undefined) this.sensor.report(isOn(level, this.config.invert));
  }

  fail(): void {
    this.generation++;
    this.ctx.timers.clear(this.settleTimer);
    this.settleTimer = undefined;
    this.sensor.entity.markUnavailable();
  }

  close(): void {
    this.ctx.timers.clear(this.settleTimer);
    this.settleTimer = undefined;
    this.line?.unexport();
    this.line = undefined;
  }

  private onEdge(generation: number, err: Error | null, level: Level): void {
    if (generation !== this.generation || !this.sensor.entity.available) return;
    if (err !== null) {
      // The next poll finds out whether the line is gone; an interrupt error alone is not a verdict.
      this.ctx.log.debug({ pin: this.config.pin, err: errorText(err) }, 'GPIO edge error');
      return;
    }
    if (this.config.debounceMs === 0) {
      this.sensor.report(isOn(level, this.config.invert));
      return;
    }
    this.ctx.timers.clear(this.settleTimer);
    this.settleTimer = this.ctx.timers.timeout(this.onSettled, this.config.debounceMs);
  }

  private async readAndReport(generation: number): Promise<void> {
    const line = this.line;
    if (line === undefined) return;
    try {
      const level = await line.read();
      if (generation === this.generation && this.settleTimer === undefined) this.sensor.report(isOn(level, this.config.invert));
    } catch (err) {
      this.ctx.log.debug({ pin: this.config.pin, err: errorText(err) }, 'GPIO read after debounce failed');
    }
  }
}
