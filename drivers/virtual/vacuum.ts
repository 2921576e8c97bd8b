import type { Micros } from '../../src/core/clock.js';
import { addVacuum, VacuumFeature as F, type VacuumState } from '../../src/domains/vacuum.js';
import type { VirtualPlatform } from './types.js';

interface VirtualVacuumOptions {
  readonly fanSpeeds: readonly string[];
  readonly fanSpeed: string;
  readonly battery: number;
  /** Battery % per minute while cleaning at the middle fan speed; faster fans drain more. */
  readonly drainRate: number;
  /** Battery % per minute on the dock. */
  readonly chargeRate: number;
  /** At or below this %, the vacuum heads home (and will not start). */
  readonly lowBattery: number;
  /** Seconds of cleaning before the run is done and it returns. */
  readonly cleaningTime: number;
  readonly spotTime: number;
  /** Seconds the drive back to the dock takes. */
  readonly returnTime: number;
  readonly updateInterval: number;
  /** Chance per minute of cleaning that the robot gets stuck (state `error`). */
  readonly stuckChance: number;
  readonly initial: 'docked' | 'idle';
}

const STUCK_REASONS = ['Error: main brush is jammed', 'Error: wheel is stuck', 'Error: cliff sensor is dirty', 'Error: bin is full'];
const MAX_STATUS = 255;

/**
 * A robot vacuum on a battery: it drains while cleaning (more at higher fan speeds), heads home when the
 * run is done or the battery is low, takes a few seconds to get there, and charges on the dock.
 */
export const virtualVacuum: VirtualPlatform<VirtualVacuumOptions> = {
  domain: 'vacuum',
  parse(r) {
    const fanSpeeds = r.stringList('fan_speeds') ?? ['quiet', 'standard', 'turbo', 'max'];
    if (fanSpeeds.length === 0) r.problem('fan_speeds', 'must list at least one fan speed');
    const preferred = fanSpeeds.includes('standard') ? 'standard' : (fanSpeeds[0] ?? 'standard');
    const fanSpeed = r.string('fan_speed') ?? preferred;
    if (fanSpeeds.length > 0 && !fanSpeeds.includes(fanSpeed))
      r.problem('fan_speed', `${JSON.stringify(fanSpeed)} is not allowed: expected one of ${fanSpeeds.join(', ')}`);
    return {
      fanSpeeds,
      fanSpeed: fanSpeeds.includes(fanSpeed) ? fanSpeed : preferred,
      battery: r.number('battery', { min: 0, max: 100, default: 100 }),
      drainRate: r.number('drain_rate', { min: 0.01, max: 6000, default: 1.5 }),
      chargeRate: r.number('charge_rate', { min: 0.01, max: 6000, default: 3 }),
      lowBattery: r.number('low_battery', { min: 1, max: 90, default: 20 }),
      cleaningTime: r.number('cleaning_time', { min: 0.05, max: 86_400, default: 1800 }),
      spotTime: r.number('spot_time', { min: 0.05, max: 3600, default: 60 }),
      returnTime: r.number('return_time', { min: 0.05, max: 600, default: 8 }),
      updateInterval: r.number('update_interval', { min: 0.02, max: 60, default: 1 }),
      stuckChance: r.number('stuck_chance', { min: 0, max: 1, default: 0 }),
      initial: r.oneOf('initial', ['docked', 'idle'] as const, 'docked'),
    };
  },
  create(ctx, { entityId, name }, o) {
    const clock = ctx.core.clock;
    let state: VacuumState = o.initial;
    let battery = o.battery;
    let fanSpeed = o.fanSpeed;
    let status = '';
    let spot = false;
    let cleaned = 0; // seconds into the current run
    let lastTick: Micros = clock.now();
    let ticker: NodeJS.Timeout | undefined;
    let returning: NodeJS.Timeout | undefined;
    let reportedBattery = -1;

    const level = () => Math.min(100, Math.max(0, Math.round(battery)));
    const dockedStatus = () => (level() >= 100 ? 'Fully charged' : 'Charging');
    // Slowest speed 0.8x the drain, fastest 1.6x.
    const fanFactor = () => {
      const n = o.fanSpeeds.length;
      return n < 2 ? 1 : 0.8 + (0.8 * o.fanSpeeds.indexOf(fanSpeed)) / (n - 1);
    };

    const report = () => {
      reportedBattery = level();
      vacuum.report({ state, batteryLevel: reportedBattery, charging: state === 'docked', fanSpeed, status });
    };

    const stopTicking = () => {
      ctx.timers.clear(ticker);
      ticker = undefined;
    };
    const startTicking = () => {
      lastTick = clock.now();
      if (ticker === undefined) ticker = ctx.timers.interval(tick, o.updateInterval * 1000);
    };

    const dock = () => {
      returning = undefined;
      state = 'docked';
      spot = false;
      cleaned = 0;
      status = dockedStatus();
      startTicking();
      report();
    };
    const goHome = (why: string) => {
      state = 'returning';
      status = why;
      ctx.timers.clear(returning);
      returning = ctx.timers.timeout(dock, o.returnTime * 1000);
      startTicking();
      report();
    };

    /** Advances the battery and the run by the time since the last tick. */
    function tick(): void {
      const now = clock.now();
      const minutes = Math.max(0, now - lastTick) / 60e6;
      lastTick = now;
      if (state === 'cleaning') {
        battery = Math.max(0, battery - o.drainRate * fanFactor() * minutes);
        cleaned += minutes * 60;
        if (o.stuckChance > 0 && ctx.random() < 1 - (1 - o.stuckChance) ** minutes) {
          stopTicking();
          state = 'error';
          status = STUCK_REASONS[Math.floor(ctx.random() * STUCK_REASONS.length)] as string;
          report();
          return;
        }
        if (battery <= o.lowBattery) goHome('Battery low, returning to dock');
        else if (cleaned >= (spot ? o.spotTime : o.cleaningTime))
          goHome(spot ? 'Spot done, returning to dock' : 'Cleaning finished, returning to dock');
      } else if (state === 'returning') {
        battery = Math.max(0, battery - o.drainRate * 0.5 * minutes);
      } else if (state === 'docked') {
        battery = Math.min(100, battery + o.chargeRate * minutes);
        if (battery >= 100) {
          stopTicking();
          status = dockedStatus();
          report();
          return;
        }
        status = dockedStatus();
      } else {
        stopTicking();
        return;
      }
      if (level() !== reportedBattery) report();
    }

    /** Brings the battery up to now before a change of state, so no drain or charge is lost. */
    const settle = () => {
      if (ticker !== undefined) tick();
    };

    const beginCleaning = (isSpot: boolean, fresh: boolean) => {
      settle();
      if (battery <= o.lowBattery) {
        if (state === 'docked') {
          status = `Battery too low to clean (${level()}%), charging first`;
          report();
        } else goHome('Battery low, returning to dock');
        return;
      }
      ctx.timers.clear(returning);
      returning = undefined;
      if (fresh) {
        spot = isSpot;
        cleaned = 0;
      }
      state = 'cleaning';
      status = spot ? 'Spot cleaning' : 'Cleaning';
      startTicking();
      report();
    };

    const vacuum = addVacuum(ctx.core, {
      entityId,
      name,
      owner: ctx.owner,
      capabilities: {
        supportedFeatures:
          F.START |
          F.PAUSE |
          F.STOP |
          F.RETURN_HOME |
          F.FAN_SPEED |
          F.BATTERY |
          F.STATUS |
          F.SEND_COMMAND |
          F.LOCATE |
          F.CLEAN_SPOT |
          F.STATE,
        fanSpeedList: o.fanSpeeds,
      },
      platform: {
        start() {
          if (state === 'cleaning') return;
          // Paused, stuck or on its way home: carry on with the same run; otherwise a new one.
          beginCleaning(false, !(state === 'paused' || state === 'error' || state === 'returning'));
        },
        pause() {
          if (state !== 'cleaning' && state !== 'returning') return;
          settle();
          stopTicking();
          ctx.timers.clear(returning);
          returning = undefined;
          state = 'paused';
          status = 'Paused';
          report();
        },
        stop() {
          if (state === 'docked' || state === 'idle') return;
          settle();
          stopTicking();
          ctx.timers.clear(returning);
          returning = undefined;
          state = 'idle';
          status = 'Stopped';
          report();
        },
        returnToBase() {
          if (state === 'docked' || state === 'returning') return;
          settle();
          goHome('Returning to dock');
        },
        cleanSpot() {
          beginCleaning(true, true);
        },
        locate() {
          status = "Beep! I'm over here";
          report();
        },
        setFanSpeed(speed) {
          settle();
          fanSpeed = speed;
          report();
        },
        sendCommand(command, params) {
          status = `Executing ${command}(${params === undefined ? '' : JSON.stringify(params)})`.slice(0, MAX_STATUS);
          report();
        },
      },
    });

    status = state === 'docked' ? dockedStatus() : 'Stopped';
    if (state === 'docked' && battery < 100) startTicking();
    report();
  },
};
