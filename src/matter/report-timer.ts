// Subscription reports sent right after the event-loop turn in which the bridge changed the attributes, not 50 ms
// later.
//
// matter.js 0.17's ServerSubscription (@matter/node, node/server/ServerSubscription.js) holds every report back on a
// fixed 50 ms timer named `Subscription <id> delay`, started at the first change after a report, "to make sure to
// catch all updates"; changes that arrive meanwhile join that report. It has no option. The Matter specification asks
// for no such delay: a subscriber's pacing is its MinIntervalFloor, which matter.js keeps apart (#prepareDataUpdate
// compares the time since the last report with the floor and, when too soon, waits on the subscription's update timer
// before it starts the delay timer at all). hearth sets the attributes of every entity changed in one turn within
// that turn, so 50 ms gathered nothing more and made every change reach Apple Home or Google Home at least 50 ms
// late (bench/matter.ts: p50 61 ms on a quiet machine). The delay timer is created through matter.js's replaceable
// `Time.getTimer`; the wrapper installed here gives that one timer, matched by name and duration, 0 ms, run by
// setImmediate: Node runs it in the check phase right after the current turn's I/O callbacks, once every microtask of
// the turn has run, so every change of the turn (and its transactions' microtasks) still goes out in one report, the
// floor still holds, and a report already being sent still takes later changes right after it (matter.js's own
// #sendNextUpdateImmediately). Not a 0 ms setTimeout: Node makes that 1 ms and runs it only in the next loop's timers
// phase, after whatever else that loop polls (bench/matter.ts: 1.9 ms at p50, 7 ms at p90 from the change to the
// report's start). Written against matter.js 0.17's source, which is checked once at load: if the timer is not built
// the way this knows, nothing is changed and reports keep the 50 ms.

/** matter.js's `Time` class, whose static `getTimer` every timer of the library is made through. */
export interface MatterTime {
  getTimer(name: string, duration: number, callback: (...args: never[]) => unknown): unknown;
}

/** The delay matter.js gives each report, and the one hearth gives it. */
export const MATTER_REPORT_DELAY_MS = 50;
export const REPORT_DELAY_MS = 0;

const DELAY_TIMER = /^Subscription [0-9a-f]{8} delay$/;
/**
 * The delay timer's construction in ServerSubscription's constructor, as the ESM (`Millis(50)`), the CommonJS
 * (`(0, import_general.Millis)(50)`) and hearth's minified bundle (hearth/matter.cjs: `ee(50)`, private names
 * shortened) have it. The first group is the timer's field.
 */
const CONSTRUCTION =
  /this\.(#[\w$]+)\s*=\s*[\w$.]*\.getTimer\(\s*`Subscription \$\{this\.idStr\} delay`,\s*(?:\(0,\s*[\w$]+\.Millis\)|[\w$]+)\(50\),\s*\(\)\s*=>\s*this\.#[\w$]+\(\)\s*\)/;
/** The floor is checked before that timer starts (see above): the source that does so, for the timer's `field`. */
const floorFirst = (field: string): RegExp =>
  new RegExp(
    `if\\s*\\(\\s*[\\w$]+\\s*<\\s*this\\.minIntervalFloor\\s*\\)\\s*\\{[^}]*return;?\\s*\\}\\s*this\\.${field.replace(/\$/g, '\\$')}\\.start\\(\\)`,
  );

const installed = new WeakSet<(...args: never[]) => unknown>();

/**
 * Makes matter.js send a subscription's report after the turn of the change instead of 50 ms later. Returns false
 * (and changes nothing) when `serverSubscription`'s source does not build and use the delay timer the way matter.js
 * 0.17 does. Safe to call again.
 */
export function shortenReportDelay(time: MatterTime, serverSubscription: unknown): boolean {
  if (installed.has(time.getTimer)) return true;
  if (typeof serverSubscription !== 'function' || typeof time.getTimer !== 'function') return false;
  const source = Function.prototype.toString.call(serverSubscription);
  const field = CONSTRUCTION.exec(source)?.[1];
  if (field === undefined || !floorFirst(field).test(source)) return false;
  const original = time.getTimer;
  const getTimer: MatterTime['getTimer'] = (name, duration, callback) =>
    duration === MATTER_REPORT_DELAY_MS && DELAY_TIMER.test(name) ? new ImmediateTimer(name, callback) : original(name, duration, callback);
  installed.add(getTimer);
  time.getTimer = getTimer;
  return true;
}

/**
 * matter.js's `Timer` (what ServerSubscription uses of it: start, stop, isRunning; the rest for its diagnostics) on
 * setImmediate: one handle at a time, none allocated while it waits.
 */
export class ImmediateTimer {
  readonly interval = REPORT_DELAY_MS;
  readonly isPeriodic = false;
  isRunning = false;
  #utility = false;
  #handle: NodeJS.Immediate | undefined;
  readonly #fire = (): void => {
    this.#handle = undefined;
    this.isRunning = false;
    this.callback();
  };

  constructor(
    readonly name: string,
    private readonly callback: () => unknown,
  ) {}

  get systemId(): number {
    return 0;
  }

  get utility(): boolean {
    return this.#utility;
  }

  set utility(utility: boolean) {
    this.#utility = utility;
    if (utility) this.#handle?.unref();
    else this.#handle?.ref();
  }

  start(): this {
    if (this.#handle !== undefined) clearImmediate(this.#handle);
    this.#handle = setImmediate(this.#fire);
    if (this.#utility) this.#handle.unref();
    this.isRunning = true;
    return this;
  }

  stop(): this {
    if (this.#handle !== undefined) clearImmediate(this.#handle);
    this.#handle = undefined;
    this.isRunning = false;
    return this;
  }
}
