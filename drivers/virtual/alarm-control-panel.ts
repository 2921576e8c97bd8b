import {
  AlarmFeature,
  type AlarmState,
  ARM_MODE_FEATURE,
  ARM_MODES,
  type ArmMode,
  addAlarmControlPanel,
  invalidAlarmCode,
} from '../../src/domains/alarm-control-panel.js';
import type { VirtualPlatform } from './types.js';

type Settled = 'disarmed' | ArmMode;

interface VirtualAlarmOptions {
  readonly code: string | undefined;
  readonly codeArmRequired: boolean;
  readonly armingTime: number;
  readonly delayTime: number;
  readonly triggerTime: number;
  readonly disarmAfterTrigger: boolean;
  readonly armModes: readonly ArmMode[];
  readonly initial: Settled;
}

/**
 * A keypad alarm that behaves like Home Assistant's manual panel: arming takes `arming_time` (state
 * `arming`), a trigger first waits `delay_time` (state `pending`, time to disarm), then sounds for
 * `trigger_time` (state `triggered`) and returns to the state it was in (or disarms, with
 * `disarm_after_trigger`). A trigger_time of 0 makes the panel ignore triggers.
 */
export const virtualAlarmControlPanel: VirtualPlatform<VirtualAlarmOptions> = {
  domain: 'alarm_control_panel',
  parse(r) {
    const code = r.string('code');
    if (code === '') r.problem('code', 'must not be empty: leave it out for a panel without a code');
    const armModes = (r.stringList('arm_modes', { options: ARM_MODES }) as ArmMode[] | undefined) ?? [...ARM_MODES];
    if (armModes.length === 0) r.problem('arm_modes', `must name at least one of ${ARM_MODES.join(', ')}`);
    const initial = r.oneOf('initial', ['disarmed', ...ARM_MODES] as const, 'disarmed');
    if (initial !== 'disarmed' && !armModes.includes(initial)) {
      r.problem('initial', `${JSON.stringify(initial)} is not one of the panel's arm_modes (${armModes.join(', ')})`);
    }
    const seconds = (key: string, fallback: number) => r.number(key, { min: 0, max: 3600, default: fallback });
    return {
      code: code === '' ? undefined : code,
      // Without a code there is nothing to ask for, so arming needs none unless the YAML says so.
      codeArmRequired: r.boolean('code_arm_required', code !== undefined && code !== ''),
      armingTime: seconds('arming_time', 10),
      delayTime: seconds('delay_time', 10),
      triggerTime: seconds('trigger_time', 60),
      disarmAfterTrigger: r.boolean('disarm_after_trigger', false),
      armModes,
      initial,
    };
  },
  create(ctx, { entityId, name }, o) {
    // As the manual panel: `target` is where the panel is going (its _state), `previous` where it came
    // from; the shown state adds arming/pending while a timer runs.
    let target: Settled | 'triggered' = o.initial;
    let previous: Settled = o.initial;
    let shown: AlarmState = o.initial;
    let timer: NodeJS.Timeout | undefined;

    const report = () => {
      const transitional = shown === 'arming' || shown === 'pending';
      panel.report({
        state: shown,
        changedBy: null,
        extra: {
          previous_state: transitional || shown === 'triggered' ? previous : null,
          next_state: transitional ? target : null,
        },
      });
    };
    const show = (state: AlarmState) => {
      shown = state;
      report();
    };
    const after = (seconds: number, fn: () => void) => {
      ctx.timers.clear(timer);
      timer = ctx.timers.timeout(() => {
        timer = undefined;
        fn();
      }, seconds * 1000);
    };
    const cancel = () => {
      ctx.timers.clear(timer);
      timer = undefined;
    };

    /** The manual panel's code check: disarming always needs the code; arming only when required. */
    const validate = (code: string | undefined, to: Settled) => {
      if (o.code === undefined || (to !== 'disarmed' && !o.codeArmRequired)) return;
      if (code !== o.code) throw invalidAlarmCode();
    };

    const sound = () => {
      show('triggered');
      after(o.triggerTime, () => {
        target = o.disarmAfterTrigger ? 'disarmed' : previous;
        show(target);
      });
    };

    const goTo = (to: Settled | 'triggered') => {
      if (target === to) return;
      previous = target === 'triggered' ? previous : target;
      target = to;
      cancel();
      if (to === 'triggered') {
        if (o.delayTime > 0) {
          show('pending');
          after(o.delayTime, sound);
        } else sound();
      } else if (to !== 'disarmed' && o.armingTime > 0) {
        show('arming');
        after(o.armingTime, () => show(to));
      } else show(to);
    };

    const panel = addAlarmControlPanel(ctx.core, {
      entityId,
      name,
      owner: ctx.owner,
      capabilities: {
        supportedFeatures: o.armModes.reduce<number>((f, m) => f | ARM_MODE_FEATURE[m], AlarmFeature.TRIGGER),
        codeFormat: o.code === undefined ? null : /^\d+$/.test(o.code) ? 'number' : 'text',
        codeArmRequired: o.codeArmRequired,
      },
      platform: {
        disarm(code) {
          validate(code, 'disarmed');
          cancel();
          target = 'disarmed';
          show('disarmed');
        },
        arm(mode, code) {
          validate(code, mode);
          goTo(mode);
        },
        trigger() {
          // No code needed to raise the alarm, as the manual panel; trigger_time 0 disables it.
          if (o.triggerTime === 0) return;
          goTo('triggered');
        },
      },
    });
    report();
  },
};
