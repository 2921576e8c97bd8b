import { ownValue, setOwn } from '../../src/core/own-keys.js';
import type { BuiltEntity, DeviceState } from './built-entity.js';

function jsonSame(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * A device's state as the converters keep it (zigbee2mqtt's state cache) and the entities drawn from it: a payload
 * merges in, and each entity one of whose properties changed is rendered once, however many of them changed.
 * An `action` is no state: it goes to `onAction` with the rest of the payload.
 */
export class DeviceStateView {
  readonly state: DeviceState = {};
  private built: readonly BuiltEntity[] = [];
  private readonly byProperty = new Map<string, BuiltEntity[]>();
  private available = true;
  private refusal: string | undefined;

  constructor(private readonly onAction: (action: string, rest: DeviceState) => void) {}

  /** The entities now made for the device (after a sync of its exposes). */
  index(built: readonly BuiltEntity[]): void {
    this.built = [...built];
    this.byProperty.clear();
    for (const b of this.built) for (const p of b.spec.properties) this.byProperty.set(p, [...(this.byProperty.get(p) ?? []), b]);
  }

  apply(payload: DeviceState): void {
    const { action, ...rest } = payload;
    if ((typeof action === 'string' && action !== '') || typeof action === 'number') this.onAction(String(action), rest);
    const dirty = new Set<BuiltEntity>();
    for (const [key, value] of Object.entries(rest)) {
      // Keys a device's message brings: `__proto__` stays a key, `constructor` is not already there.
      if (jsonSame(ownValue(this.state, key), value)) continue;
      setOwn(this.state, key, value);
      for (const b of this.byProperty.get(key) ?? []) dirty.add(b);
    }
    // While the device is unavailable its entities stay so; what it said shows when it is back.
    if (!this.available) return;
    for (const b of dirty) b.render(this.state);
  }

  /**
   * The network's view of the device: every entity unavailable, or each drawn again from the state. `refusal` (the
   * adapter is gone): a service call naming one of its entities fails with it instead of being skipped.
   */
  setAvailable(available: boolean, refusal?: string): void {
    if (this.available === available && (available || refusal === this.refusal)) return;
    this.available = available;
    this.refusal = available ? undefined : refusal;
    for (const b of this.built) {
      if (available) b.render(this.state);
      else b.entity.markUnavailable(undefined, refusal);
    }
  }
}
