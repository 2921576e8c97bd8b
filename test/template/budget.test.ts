import t from 'tap';
import { Share, TemplateBudget } from '../../src/template/budget.js';
import { engineFixture } from './helpers.js';

const HOSTILE = '{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}';
const LIMITS = { renderMs: 20, turnMs: 25, sourceShareMs: 100, hubShareMs: 500 };
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

t.test('a share counts render time over the last second, and says when a render fits again', async (t) => {
  const share = new Share(100);
  share.charge(1000, 30);
  share.charge(1400, 50);
  t.equal(share.used(1500), 80);
  t.equal(share.waitFor(1500, 20), 0, '80 + 20 fits in 100');
  t.equal(share.waitFor(1500, 30), 1050 - 1500 + 1000, 'the 30 ms charged at 1000 leave the window at 2050');
  t.equal(share.used(2049), 80);
  t.equal(share.used(2050), 50, 'a second (and the bucket then filling) later, it is gone');
  t.equal(share.used(2450), 0);
  share.charge(5000, 10);
  t.equal(share.used(5000), 10, 'no stale bucket counts after a long pause');
});

t.test('work starts only while the turn has room for a whole render; the rest waits, in order, each job once', async (t) => {
  const budget = new TemplateBudget(LIMITS);
  const source = budget.source({ name: 'a' });
  t.ok(budget.canStart(source));
  budget.charge(source, performance.now(), 6);
  t.notOk(budget.canStart(source), '6 ms used: a 20 ms render would take the turn past 25 ms');
  const ran: string[] = [];
  const one = () => ran.push('one');
  const two = () => ran.push('two');
  budget.run(source, one);
  budget.run(source, two);
  budget.run(source, one);
  t.same(ran, [], 'nothing runs in a full turn');
  t.equal(budget.waitingCount, 2, 'a job queued twice waits once');
  await nextTurn();
  t.same(ran, ['one', 'two'], 'the next turn runs them in order');
  t.equal(budget.ready(source), undefined, 'a fresh turn: ready at once');
});

t.test('runs waiting for room are let go one a turn (each renders after the drain that let it go)', async (t) => {
  const budget = new TemplateBudget(LIMITS);
  const source = budget.source({ name: 'automation.a' });
  budget.charge(source, performance.now(), 6);
  const order: string[] = [];
  const waits = ['one', 'two', 'three'].map((name) => budget.ready(source)?.then(() => order.push(name)));
  t.ok(
    waits.every((w) => w !== undefined),
    'a full turn: every run waits',
  );
  await nextTurn();
  t.same(order, ['one'], 'one let go in the first turn with room');
  await nextTurn();
  t.same(order, ['one', 'two'], 'the next in the next turn');
  await Promise.all(waits);
  t.same(order, ['one', 'two', 'three'], 'the rest, one a turn, in order');
});

t.test('a source over its share of the second waits; another source does not wait for it', async (t) => {
  const budget = new TemplateBudget(LIMITS);
  const greedy = budget.source({ name: 'greedy' });
  const other = budget.source({ name: 'other' });
  greedy.share.charge(performance.now(), 90);
  t.notOk(budget.canStart(greedy), '90 + 20 > 100');
  t.ok(budget.canStart(other));
  t.match(budget.refusal(greedy, performance.now()), /^refused: greedy rendered templates for more than 80 ms in the last second/);
  let ranGreedy = false;
  let ranOther = false;
  budget.run(greedy, () => {
    ranGreedy = true;
  });
  budget.run(other, () => {
    ranOther = true;
  });
  t.ok(ranOther, 'the other source runs at once');
  await nextTurn();
  t.notOk(ranGreedy, 'the greedy one waits for its share');
  const group = budget.source({ name: 'connection', suspends: false });
  const member = budget.source({ name: 'subscription', parent: group });
  group.share.charge(performance.now(), 95);
  t.notOk(budget.canStart(member), "a member waits for its group's share too");
});

t.test('two renders in a row stopped at the deadline suspend a source, with one warning; a resume lets it render again', async (t) => {
  // A share large enough that the stopped renders do not use it up (its own test is above).
  const f = engineFixture({ sourceShareMs: 10_000 });
  const warnings: string[] = [];
  const engine = f.engine.forSource({ name: 'sensor.slow', until: 'an entity it read changes', onWarning: (m) => warnings.push(m) });
  const first = engine.tryRender(HOSTILE);
  t.match(
    first.ok ? '' : first.error.message,
    /^TimeoutError: rendering took longer than 50 ms and was stopped/,
    'the render that compiles the template has 50 ms',
  );
  t.equal(engine.source?.suspension, undefined, 'once may be the machine: not suspended');
  const second = engine.tryRender(HOSTILE);
  t.match(second.ok ? '' : second.error.message, /^TimeoutError: rendering took longer than 20 ms and was stopped/);
  t.same(warnings, [
    'sensor.slow: templates took longer than 20 ms and were stopped; its templates are suspended until an entity it read changes',
  ]);
  const started = performance.now();
  const third = engine.tryRender(HOSTILE);
  t.ok(performance.now() - started < 10, 'a suspended source does not render');
  t.match(
    third.ok ? '' : third.error.message,
    /^TimeoutError: suspended: its renders took longer than 20 ms and were stopped; until an entity it read changes/,
  );
  t.equal(engine.tryRender('{{ 1 + 1 }}').ok, false, 'every template of the source is suspended');
  engine.resume();
  t.same(engine.tryRender('{{ 1 + 1 }}'), { ok: true, text: '2', info: engine.tryRender('{{ 1 + 1 }}').info });
  t.equal(warnings.length, 1, 'one warning');
  // Another source of the same engine was never affected.
  t.equal(f.engine.forSource({ name: 'other' }).tryRender('{{ 3 }}').ok, true);
});

t.test('a syntax error is compiled once; a template too slow to compile is stopped too', async (t) => {
  const f = engineFixture();
  const bad = f.engine.tryRender('{{ 1 +* }}', { name: 'a' });
  const again = f.engine.tryRender('{{ 1 +* }}', { name: 'b' });
  t.match(bad.ok ? '' : bad.error.message, /^TemplateSyntaxError: .*\(template "a", line 1, column 7\)$/);
  t.match(again.ok ? '' : again.error.message, /\(template "b", line 1, column 7\)$/, 'the cached error names the caller');
  const huge = '{{ x }}'.repeat(30_000);
  const started = performance.now();
  const slow = f.engine.forSource({ name: 'big' }).tryRender(huge);
  t.match(slow.ok ? '' : slow.error.message, /^TimeoutError: rendering took longer than 50 ms and was stopped/);
  t.ok(performance.now() - started < 2000, 'compiling is cut off too');
});
