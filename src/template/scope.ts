import { fault, type TemplateFault } from './errors.js';
import type { RenderInfo } from './render-info.js';

/**
 * The state of the render in progress. nunjucks renders synchronously, so one module-level scope is enough:
 * the sandboxed runtime and the template functions read it to count work, stop a runaway render, track
 * what was read and know whether undefined values are errors (strict).
 */
export interface RenderScope {
  readonly info: RenderInfo;
  /** The template's name, for messages that quote it. */
  readonly templateName: string;
  /** The render's notion of now (microseconds), read once so every now() in one render agrees. */
  readonly nowUs: number;
  readonly strict: boolean;
  /** performance.now() when the render started. */
  readonly start?: number;
  /** performance.now() past which the render stops, once its CPU time confirms it (moved on when it does not). */
  deadline: number;
  readonly limitMs: number;
  /** The process's CPU time and performance.now() at the first clock check (CPU time is read only by renders that long). */
  cpuMark?: number;
  wallMark?: number;
  readonly maxOutputChars: number;
  readonly maxStringChars: number;
  steps: number;
  outputChars: number;
  /** Why the last lookup found nothing: the message when that nothing is then used (`'foo' is undefined`). */
  lastMissing: string | undefined;
}

let active: RenderScope | undefined;

/** Runs `fn` with `scope` as the active render; nested renders restore the outer scope. */
export function inScope<T>(scope: RenderScope, fn: () => T): T {
  const outer = active;
  active = scope;
  try {
    return fn();
  } finally {
    active = outer;
  }
}

export function currentScope(): RenderScope | undefined {
  return active;
}

/** Counts one unit of work; every 256 the clock is read and a render past its deadline is stopped. */
export function step(): void {
  const scope = active;
  if (scope === undefined) return;
  scope.steps++;
  if ((scope.steps & 0xff) === 0) checkTime(scope);
}

/**
 * Stops a render past its deadline. Past it by the wall clock, the process's CPU time decides: a render the
 * machine paused (another process, the kernel) has not held the loop for its time, and goes on until it has.
 */
function checkTime(scope: RenderScope): void {
  const now = performance.now();
  if (scope.cpuMark === undefined) {
    scope.cpuMark = cpuMs();
    scope.wallMark = now;
  }
  if (now <= scope.deadline) return;
  const used = cpuMs() - scope.cpuMark + ((scope.wallMark ?? now) - (scope.start ?? scope.wallMark ?? now));
  if (used >= scope.limitMs) throw fault('TimeoutError', `rendering took longer than ${scope.limitMs} ms and was stopped`, scope.limitMs);
  scope.deadline = now + (scope.limitMs - used);
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Remembers why a lookup came back empty, for the error raised if the empty value is then used. */
export function missing(message: string): undefined {
  if (active !== undefined) active.lastMissing = message;
  return undefined;
}

/** The error for using an undefined value, worded as Jinja's (`'foo' is undefined`). */
export function undefinedFault(): TemplateFault {
  return fault('UndefinedError', active?.lastMissing ?? 'a value is undefined');
}

/** Refuses lists past the size limit (the string limit, in items) before they are built. */
export function checkItems(count: number): void {
  const limit = active?.maxStringChars ?? Number.POSITIVE_INFINITY;
  if (count > limit) throw fault('OutputTooLarge', `a list of ${count} items is over the limit of ${limit}`);
}

/** Refuses strings (or lengths) past the size limit before they are built or passed on. */
export function checkStringSize<T extends string | number>(value: T): T {
  const limit = active?.maxStringChars ?? Number.POSITIVE_INFINITY;
  const length = typeof value === 'number' ? value : value.length;
  if (length > limit) throw fault('OutputTooLarge', `a string of ${length} characters is over the limit of ${limit}`);
  return value;
}
