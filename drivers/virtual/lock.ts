import { HubError } from '../../src/core/errors.js';
import { addLock, compileCodeFormat, type LockState } from '../../src/domains/lock.js';
import type { VirtualPlatform } from './types.js';

interface VirtualLockOptions {
  readonly initial: 'locked' | 'unlocked';
  /** Seconds the bolt takes to move (locking/unlocking/opening are reported meanwhile). */
  readonly transitionTime: number;
  /** The code the keypad accepts; absent means any code (or none) works. */
  readonly code: string | undefined;
  readonly codeFormat: string | undefined;
  /** Supports `open` (unlatching). */
  readonly open: boolean;
  /** Seconds the latch stays open before the lock rests unlocked. */
  readonly openTime: number;
  /** Seconds after unlocking before the lock locks itself again; 0 never. */
  readonly autoLock: number;
  /** Every Nth operation jams; 0 never. */
  readonly jamAfter: number;
  /** Chance that any operation jams. */
  readonly jamProbability: number;
}

/** The code_format a keypad implies: exactly N digits for a numeric code, else any non-empty code. */
function impliedFormat(code: string): string {
  return /^\d+$/.test(code) ? `^\\d{${code.length}}$` : '^.+$';
}

/**
 * A motorised door lock: the bolt takes a moment to move, it can be set up to jam (every Nth operation
 * or at random), to check a keypad code, to unlatch (`open`) and to lock itself again after a while.
 */
export const virtualLock: VirtualPlatform<VirtualLockOptions> = {
  domain: 'lock',
  parse(r) {
    const code = r.string('code');
    let codeFormat = r.string('code_format');
    if (codeFormat !== undefined) {
      try {
        const pattern = compileCodeFormat(codeFormat);
        if (code !== undefined && !pattern.test(code)) r.problem('code', 'does not match code_format');
      } catch (err) {
        r.problem('code_format', `is not a valid regular expression: ${(err as Error).message}`);
        codeFormat = undefined;
      }
    }
    return {
      initial: r.oneOf('initial', ['locked', 'unlocked'] as const, 'locked'),
      transitionTime: r.number('transition_time', { min: 0, max: 60, default: 1 }),
      code,
      codeFormat: codeFormat ?? (code === undefined ? undefined : impliedFormat(code)),
      open: r.boolean('open', false),
      openTime: r.number('open_time', { min: 0, max: 600, default: 3 }),
      autoLock: r.number('auto_lock', { min: 0, max: 86_400, default: 0 }),
      jamAfter: r.number('jam_after', { min: 0, max: 1_000_000, integer: true, default: 0 }),
      jamProbability: r.number('jam_probability', { min: 0, max: 1, default: 0 }),
    };
  },

  create(ctx, { entityId, name }, o) {
    let state: LockState = o.initial;
    let changedBy: string | null = null;
    let operations = 0;
    let pending: NodeJS.Timeout | undefined;
    let autoLock: NodeJS.Timeout | undefined;

    const report = () => lock.report({ state, changedBy });
    const jams = () => (o.jamAfter > 0 && operations % o.jamAfter === 0) || (o.jamProbability > 0 && ctx.random() < o.jamProbability);

    const checkCode = (code: string | undefined) => {
      if (o.code !== undefined && code !== o.code) throw new HubError('hub_error', `Wrong code for ${entityId}`);
    };

    /** Moves the bolt: `moving` now, then `done` (or jammed) after the transition time. */
    const operate = (moving: LockState, done: LockState, by: string, after?: () => void) => {
      ctx.timers.clear(pending);
      ctx.timers.clear(autoLock);
      pending = undefined;
      operations++;
      changedBy = by;
      const finish = () => {
        pending = undefined;
        state = jams() ? 'jammed' : done;
        report();
        if (state === done) after?.();
      };
      if (o.transitionTime === 0) {
        finish();
        return;
      }
      state = moving;
      report();
      pending = ctx.timers.timeout(finish, o.transitionTime * 1000);
    };

    const scheduleAutoLock = () => {
      if (o.autoLock > 0) autoLock = ctx.timers.timeout(() => operate('locking', 'locked', 'auto_lock'), o.autoLock * 1000);
    };

    const lock = addLock(ctx.core, {
      entityId,
      name,
      owner: ctx.owner,
      codeFormat: o.codeFormat,
      supportedFeatures: o.open ? 1 : 0,
      platform: {
        lock(code) {
          checkCode(code);
          if (state === 'locked') return;
          operate('locking', 'locked', 'remote');
        },
        unlock(code) {
          checkCode(code);
          if (state === 'unlocked') return;
          operate('unlocking', 'unlocked', 'remote', scheduleAutoLock);
        },
        open(code) {
          checkCode(code);
          operate('opening', 'open', 'remote', () => {
            // The latch springs back: the door rests unlocked.
            pending = ctx.timers.timeout(() => {
              pending = undefined;
              state = 'unlocked';
              report();
              scheduleAutoLock();
            }, o.openTime * 1000);
          });
        },
      },
    });
    report();
  },
};
