import type { JsonValue } from '../core/json.js';
import { addLock, LOCK_STATES, LockFeature, type LockPlatform, type LockState, lockStateAttributes } from '../domains/lock.js';
import { baseOf, type DeviceContext, type DeviceEntity, withCustom } from './device.js';
import type { Presented } from './entity.js';
import { actionRunner } from './scripts.js';

/** _handle_state: true/on/locked, false/off/unlocked, else one of the lock states (any case), else unknown. */
function lockStateOf(text: string | null | undefined): LockState | null {
  if (text === null || text === undefined) return null;
  const lower = text.toLowerCase();
  if (lower === 'true' || lower === 'on' || lower === 'locked') return 'locked';
  if (lower === 'false' || lower === 'off' || lower === 'unlocked') return 'unlocked';
  return (LOCK_STATES as readonly string[]).includes(lower) ? (lower as LockState) : null;
}

/**
 * A template lock (homeassistant/components/template/lock.py): its state template, and lock, unlock and open
 * (feature OPEN) run with the variable `code` (none when the call has none), after the lock domain checked it
 * against `code_format`. Without a state template (or with `optimistic: true`) the state asked for shows at once,
 * before the actions run.
 */
export function addTemplateLock(d: DeviceContext): DeviceEntity {
  const { ctx, device } = d;
  const run = (name: string) => {
    const actions = device.actions.get(name);
    return actions === undefined ? undefined : actionRunner(ctx, d.entityId, name, actions);
  };
  const lock = run('lock');
  const unlock = run('unlock');
  const open = run('open');
  const assumed = device.optimistic ?? d.def.state === undefined;
  let state: LockState | null = null;
  let custom: Record<string, JsonValue> = {};
  const present = (): Presented => {
    const attributes: Record<string, JsonValue> = { ...lockStateAttributes({ state }, device.codeFormat) };
    if (assumed) attributes.assumed_state = true;
    return { state, attributes: withCustom(attributes, custom) };
  };
  const act = (target: LockState, actions: typeof lock) => async (code?: string) => {
    if (assumed) {
      state = target;
      d.writer().writePresented(present());
    }
    await actions?.({ code: code ?? null }, ctx.core.newContext());
  };
  const platform: LockPlatform = { lock: act('locked', lock), unlock: act('unlocked', unlock) };
  if (open !== undefined) platform.open = act('open', open);
  const handle = addLock(ctx.core, {
    ...baseOf(d),
    codeFormat: device.codeFormat,
    supportedFeatures: open === undefined ? 0 : LockFeature.OPEN,
    platform,
  });
  return {
    entity: handle.entity,
    adapt: (result) => {
      custom = result.attributes;
      if (d.def.state !== undefined) state = lockStateOf(result.state);
      return present();
    },
  };
}
