import t from 'tap';
import { errorCode } from '../../../drivers/i2c/bus.js';
import { BusQueue } from '../../../drivers/i2c/bus-queue.js';
import { Timers } from '../../../src/util/timers.js';
import { FakeI2cBus, missingBusError, nackError } from '../../fakes/fake-i2c-bus.js';

function queue(t: { teardown(fn: () => unknown): void }, options: { timeoutMs?: number; retries?: number; maxQueue?: number } = {}) {
  const bus = new FakeI2cBus(1);
  let opens = 0;
  const timers = new Timers((err) => {
    throw err;
  });
  const q = new BusQueue({
    busNumber: 1,
    open: async () => {
      opens++;
      return bus;
    },
    timers,
    timeoutMs: options.timeoutMs ?? 1000,
    retries: options.retries ?? 2,
    maxQueue: options.maxQueue ?? 16,
  });
  t.teardown(async () => {
    await q.close();
    timers.stopAll();
  });
  return { q, bus, opens: () => opens };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (err: unknown) => errorCode(err) ?? String(err),
  );

t.test('transfers run one at a time, in order, on a bus opened once', async (t) => {
  const { q, opens } = queue(t);
  let active = 0;
  let most = 0;
  const order: number[] = [];
  const results = await Promise.all(
    [1, 2, 3, 4, 5].map((n) =>
      q.run(async () => {
        active++;
        most = Math.max(most, active);
        await tick();
        order.push(n);
        active--;
        return n * 10;
      }),
    ),
  );
  t.same(results, [10, 20, 30, 40, 50]);
  t.same(order, [1, 2, 3, 4, 5]);
  t.equal(most, 1);
  t.equal(opens(), 1);
});

t.test('a NACK is retried a bounded number of times; other errors are not', async (t) => {
  const { q } = queue(t, { retries: 2 });
  let attempts = 0;
  t.equal(
    await q.run(async () => {
      if (++attempts === 1) throw nackError();
      return 'ok';
    }),
    'ok',
  );
  t.equal(attempts, 2, 'one NACK, then the retry answered');
  attempts = 0;
  t.equal(
    await codeOf(
      q.run(async () => {
        attempts++;
        throw nackError();
      }),
    ),
    'EREMOTEIO',
  );
  t.equal(attempts, 3, 'first try and two retries');
  attempts = 0;
  t.equal(
    await codeOf(
      q.run(async () => {
        attempts++;
        throw missingBusError(1);
      }),
    ),
    'ENOENT',
  );
  t.equal(attempts, 1, 'a missing bus is not retried');
  t.equal(errorCode(Object.assign(new Error('x'), { errno: 121 })), 'EREMOTEIO', 'a bare errno 121 is a NACK');
});

t.test('a transfer that does not finish times out, and the bus refuses more until it settles', async (t) => {
  const { q } = queue(t, { timeoutMs: 20 });
  let finish: () => void = () => {};
  const stuck = new Promise<void>((resolve) => {
    finish = resolve;
  });
  t.equal(await codeOf(q.run(() => stuck)), 'ETIMEDOUT');
  let ran = false;
  t.equal(
    await codeOf(
      q.run(async () => {
        ran = true;
      }),
    ),
    'EBUSSTUCK',
  );
  t.notOk(ran, 'nothing more was sent to a stuck bus');
  finish();
  await tick();
  t.equal(await q.run(async () => 'free'), 'free');
});

t.test('the queue is bounded', async (t) => {
  const { q } = queue(t, { maxQueue: 2 });
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const running = q.run(() => gate);
  await tick();
  const waiting = [q.run(async () => 1), q.run(async () => 2)];
  t.equal(await codeOf(q.run(async () => 3)), 'EQUEUEFULL');
  release();
  await running;
  t.same(await Promise.all(waiting), [1, 2]);
});

t.test('an open that fails is tried again on the next transfer', async (t) => {
  const bus = new FakeI2cBus(1);
  let opens = 0;
  const timers = new Timers(() => {});
  const q = new BusQueue({
    busNumber: 1,
    open: async () => {
      if (++opens === 1) throw Object.assign(new Error('no i2c-bus'), { code: 'ENOPKG' });
      return bus;
    },
    timers,
    timeoutMs: 100,
    retries: 0,
    maxQueue: 4,
  });
  t.teardown(() => timers.stopAll());
  t.equal(await codeOf(q.run(async () => 1)), 'ENOPKG');
  t.equal(await q.run(async () => 2), 2);
  t.equal(opens, 2);
  await q.close();
  t.ok(bus.closed, 'close closes the bus');
  t.equal(await codeOf(q.run(async () => 3)), 'ECLOSED');
});

t.test('close fails the transfers still waiting', async (t) => {
  const { q } = queue(t);
  let release: () => void = () => {};
  const running = q.run(
    () =>
      new Promise<void>((resolve) => {
        release = resolve;
      }),
  );
  await tick();
  const waiting = codeOf(q.run(async () => 1));
  const closing = q.close();
  t.equal(await waiting, 'ECLOSED');
  release();
  await running;
  await closing;
});
