import t from 'tap';
import { Backoff, backoffDelay } from '../../src/util/backoff.js';

t.test('backoffDelay: the first, doubling, capped; never below the first', async (t) => {
  const o = { initialMs: 100, maxMs: 1000 };
  t.same(
    [0, 1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, o)),
    [100, 100, 200, 400, 800, 1000, 1000],
  );
  t.equal(backoffDelay(10_000, o), 1000, 'a huge count stays at the cap');
});

t.test('Backoff: fail() gives each wait, succeed() starts over, nextDelay looks one ahead', async (t) => {
  const b = new Backoff({ initialMs: 5, maxMs: 20 });
  t.equal(b.nextDelay, 5);
  t.same([b.fail(), b.fail(), b.fail(), b.fail()], [5, 10, 20, 20]);
  t.equal(b.failures, 4);
  t.equal(b.nextDelay, 20);
  b.succeed();
  t.equal(b.failures, 0);
  t.equal(b.fail(), 5, 'after a success the first wait again');
});
