// The subscription report delay: matter.js's own 50 ms `Subscription <id> delay` timer made 0 ms once matter.js is
// loaded, no other timer touched, and nothing changed when matter.js's ServerSubscription is not the one it knows.
import t from 'tap';
import { loadMatter } from '../../src/matter/lib.js';
import { MATTER_REPORT_DELAY_MS, type MatterTime, REPORT_DELAY_MS, shortenReportDelay } from '../../src/matter/report-timer.js';
import { recordingLogger } from '../api/ws/client.js';

// Through a string, as src/matter/lib.ts does: matter.js's declarations need the DOM's types.
const MATTER_MAIN: string = '@matter/main';

interface Timer {
  readonly interval: number;
  readonly isRunning: boolean;
  start(): Timer;
  stop(): Timer;
}
interface TimerTime {
  getTimer(name: string, duration: number, callback: () => void): Timer;
}

t.test("loading matter.js shortens its subscriptions' report delay and no other timer", async (t) => {
  const log = recordingLogger();
  await loadMatter(log);
  t.same(
    log.lines.filter((l) => l.level !== 'info'),
    [],
    "no warning: matter.js's ServerSubscription is the one hearth knows",
  );
  const { Time, ServerSubscription } = (await import(MATTER_MAIN)) as { Time: TimerTime; ServerSubscription: unknown };
  const timer = (name: string, ms: number) => Time.getTimer(name, ms, () => {}).interval;
  t.equal(timer('Subscription 0a1b2c3d delay', MATTER_REPORT_DELAY_MS), REPORT_DELAY_MS, 'the report delay is 0 ms');
  t.equal(REPORT_DELAY_MS, 0);
  t.equal(timer('Subscription 0a1b2c3d update', MATTER_REPORT_DELAY_MS), 50, "the subscription's update timer (the floor) keeps its time");
  t.equal(timer('Subscription 0a1b2c3d delay', 70), 70, 'a delay of another length is not this one');
  t.equal(timer('Storage commit', MATTER_REPORT_DELAY_MS), 50, "matter.js's other timers keep theirs");
  const wrapped = Time.getTimer;
  t.ok(shortenReportDelay(Time, ServerSubscription), 'a second call says it is in effect');
  t.equal(Time.getTimer, wrapped, 'and does not wrap twice');
});

t.test('the report delay runs right after the turn: before a 0 ms setTimeout, once per start, and not once stopped', async (t) => {
  const { Time } = (await import(MATTER_MAIN)) as { Time: TimerTime };
  const order: string[] = [];
  const delay = Time.getTimer('Subscription 0a1b2c3d delay', MATTER_REPORT_DELAY_MS, () => order.push('report'));
  const done = new Promise<void>((resolve) => setTimeout(resolve, 0));
  setTimeout(() => order.push('timeout 0'), 0);
  t.equal(delay.start(), delay, 'start is chainable');
  t.ok(delay.isRunning, 'running once started');
  delay.start();
  queueMicrotask(() => order.push('microtask'));
  await done;
  await new Promise((resolve) => setImmediate(resolve));
  t.same(order, ['microtask', 'report', 'timeout 0'], "after the turn's microtasks, before the 0 ms timeout, once though started twice");
  t.notOk(delay.isRunning, 'not running once it ran');
  order.length = 0;
  delay.start().stop();
  t.notOk(delay.isRunning, 'not running once stopped');
  await new Promise((resolve) => setTimeout(resolve, 5));
  t.same(order, [], 'a stopped delay does not run');
});

t.test("a ServerSubscription that builds its delay otherwise leaves matter.js's timers alone", async (t) => {
  const made: [string, number][] = [];
  const getTimer = (name: string, duration: number) => {
    made.push([name, duration]);
    return { interval: duration };
  };
  const time: MatterTime = { getTimer };
  class Renamed {
    timer = (time as TimerTime).getTimer('Subscription 00000001 wait', 50, () => {});
  }
  t.notOk(shortenReportDelay(time, Renamed), 'a renamed timer: not installed');
  t.notOk(shortenReportDelay(time, undefined), 'no ServerSubscription at all: not installed');
  t.equal(time.getTimer, getTimer, 'getTimer is untouched');
  time.getTimer('Subscription 0a1b2c3d delay', 50, () => {});
  t.same(made, [['Subscription 0a1b2c3d delay', 50]], 'the 50 ms stay');
});
