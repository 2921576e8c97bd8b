import type { Core } from '../../src/core/core.js';
import { HubError } from '../../src/core/errors.js';
import type { Logger } from '../../src/core/log.js';
import type { Timers } from '../../src/util/timers.js';
import { errorText } from '../common/device-poller.js';
import { type GpioChip, sysfsNumber } from './chip.js';
import type { GpioBackend, GpioLine, Level, LineRequest } from './line.js';
import type { LastStateLookup } from './restore.js';

/** What an entity of a GPIO device gets from it. */
export interface PartContext {
  readonly core: Core;
  readonly log: Logger;
  readonly owner: string;
  readonly timers: Timers;
  /** The registry id of the device the entity belongs to. */
  readonly deviceId: string;
  /** The entity's state from before the restart, for `restore: last`. */
  readonly lastState: LastStateLookup;
}

/**
 * One entity of a GPIO device and the lines it drives. The device opens every part's lines together and
 * polls them together, so a board that goes away takes all of its entities to `unavailable` at once.
 */
export interface Part {
  /** Exports the part's lines. On failure the device closes every part. */
  open(chip: GpioChip, backend: GpioBackend): Promise<void>;
  /** Reads the lines (the device answers) and reports the state; no event when nothing changed. */
  refresh(): Promise<void>;
  /** The device stopped answering: stop what is under way and mark the entity unavailable. */
  fail(): void;
  /** Drives outputs to their safe level and gives the lines back (unexport). Never throws. */
  close(): void;
}

/** Physical level for a logical on/off, through invert_logic. */
export function levelOf(on: boolean, invert: boolean): Level {
  return on !== invert ? 1 : 0;
}

export function isOn(level: Level, invert: boolean): boolean {
  return (level === 1) !== invert;
}

/** Opens one line of a part, naming the BCM pin in the error. */
export function openLine(backend: GpioBackend, chip: GpioChip, request: Omit<LineRequest, 'sysfsNumber'>): Promise<GpioLine> {
  return backend.open({ ...request, sysfsNumber: sysfsNumber(chip, request.line), chipPath: chip.devPath });
}

/** The error a service call gets when the line cannot be used: the state stays what it was. */
export function writeError(entityId: string, pin: number, err: unknown): HubError {
  return new HubError('hub_error', `${entityId}: writing GPIO${pin} failed (${errorText(err)}); the state is unchanged`);
}

export function unavailableError(entityId: string): HubError {
  return new HubError('hub_error', `${entityId} is unavailable: its GPIO device is not answering`);
}
