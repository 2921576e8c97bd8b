/** What one control pass knows (Home Assistant's _async_control_heating reads the same). */
export interface ControlInput {
  /** The sensor's temperature; null while it gives none. */
  readonly current: number | null;
  readonly target: number;
  readonly coldTolerance: number;
  readonly hotTolerance: number;
  readonly acMode: boolean;
  readonly switchOn: boolean;
  /** A user changed the mode, target or preset: no hold applies. */
  readonly force: boolean;
  /** The keep_alive interval: the current command is sent again. */
  readonly keepAlive: boolean;
  /** How long the switch has been in its state, and min_cycle_duration. */
  readonly heldMs: number;
  readonly minCycleMs: number;
  /** Since the switch last toggled, and cycle_cooldown (the off time before it may go on again). */
  readonly sinceToggleMs: number;
  readonly cooldownMs: number;
}

export type ControlDecision =
  | { readonly kind: 'none' }
  | { readonly kind: 'switch'; readonly on: boolean; readonly keepAlive: boolean }
  /** The switch is due to change but is held: decide again after this long. */
  | { readonly kind: 'hold'; readonly ms: number };

const NONE: ControlDecision = { kind: 'none' };

/**
 * One pass of Home Assistant's control: too cold at or below target - cold_tolerance, too hot at or above
 * target + hot_tolerance; the heater (the cooler with ac_mode) goes on when too cold (hot) and off when too hot
 * (cold). min_cycle_duration holds the switch in either state that long and cycle_cooldown holds it off after a
 * toggle, unless forced; keep-alive repeats the current command. Without a temperature the switch stays off.
 */
export function decide(i: ControlInput): ControlDecision {
  if (i.current === null) return i.switchOn || i.keepAlive ? { kind: 'switch', on: false, keepAlive: !i.switchOn } : NONE;
  const tooCold = i.target >= i.current + i.coldTolerance;
  const tooHot = i.current >= i.target + i.hotTolerance;
  const wantOff = i.acMode ? tooCold : tooHot;
  const wantOn = i.acMode ? tooHot : tooCold;
  if (i.switchOn) {
    if (wantOff) return i.force ? { kind: 'switch', on: false, keepAlive: false } : held(i.minCycleMs - i.heldMs, false);
    return i.keepAlive ? { kind: 'switch', on: true, keepAlive: true } : NONE;
  }
  if (wantOn)
    return i.force
      ? { kind: 'switch', on: true, keepAlive: false }
      : held(Math.max(i.minCycleMs - i.heldMs, i.cooldownMs - i.sinceToggleMs), true);
  return i.keepAlive ? { kind: 'switch', on: false, keepAlive: true } : NONE;
}

function held(leftMs: number, on: boolean): ControlDecision {
  return leftMs > 0 ? { kind: 'hold', ms: leftMs } : { kind: 'switch', on, keepAlive: false };
}
