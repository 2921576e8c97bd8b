import t from 'tap';
import { isoFromMicros, ManualClock } from '../../src/core/clock.js';
import { createContext } from '../../src/core/context.js';
import { NOT_KEPT, plain, TraceStore } from '../../src/trace/index.js';

function store(clock = new ManualClock(), limits = { perPath: 20, steps: 50, bytes: 4096, elementBytes: 1024 }) {
  return new TraceStore({ clock, limits });
}

function begin(traces: TraceStore, clock: ManualClock, itemId = 'item', storedTraces = 5) {
  return traces.begin({ domain: 'script', itemId, context: createContext(clock.now()), config: { alias: 'x' }, storedTraces });
}

t.test('steps past the step limit are counted as dropped; the first ones are kept', async (t) => {
  const clock = new ManualClock();
  const traces = store(clock, { perPath: 20, steps: 50, bytes: 1 << 20, elementBytes: 1024 });
  const trace = begin(traces, clock);
  for (let i = 0; i < 80; i++) {
    const step = trace.enter(`sequence/${i}`, { i });
    trace.leave(step, { i });
  }
  trace.finish('finished');
  const full = traces.get('script', 'item', trace.runId) as { trace: Record<string, unknown>; steps_dropped: number };
  t.equal(Object.keys(full.trace).length, 50);
  t.ok('sequence/0' in full.trace && 'sequence/49' in full.trace && !('sequence/50' in full.trace), 'the first 50');
  t.equal(full.steps_dropped, 30);
  t.equal(traces.list('script', 'item')[0]?.last_step, 'sequence/79', 'last_step is the last step reached');
});

t.test('large values are replaced by a note, and a full trace keeps no more steps', async (t) => {
  const clock = new ManualClock();
  const traces = store(clock);
  const trace = begin(traces, clock);
  const big = 'x'.repeat(5000);
  const step = trace.enter('sequence/0', {});
  step.result = { small: 1, big };
  trace.leave(step, { huge: big, tiny: 2 });
  for (let i = 1; i < 40; i++) trace.record(`sequence/${i}`, { [`v${i}`]: 'y'.repeat(300) });
  trace.finish('finished');
  const full = traces.get('script', 'item', trace.runId) as { trace: Record<string, Record<string, unknown>[]>; steps_dropped: number };
  const first = full.trace['sequence/0']?.[0];
  t.same(first?.result, { small: 1, big: NOT_KEPT });
  t.same(first?.changed_variables, { huge: NOT_KEPT, tiny: 2 });
  t.ok(full.steps_dropped > 0, 'steps beyond the byte budget are dropped');
  t.ok(JSON.stringify(full).length < 4096 + 2048, 'the trace stays near its byte budget');
});

t.test('stored_traces bounds the runs kept per item; 0 keeps none; list, get and contexts filter', async (t) => {
  const clock = new ManualClock();
  const traces = store(clock);
  const ids: string[] = [];
  for (let i = 0; i < 7; i++) {
    clock.advance(1000);
    const trace = begin(traces, clock, 'a');
    ids.push(trace.runId);
    trace.finish('finished');
  }
  t.same(
    traces.list('script', 'a').map((item) => item.run_id),
    ids.slice(2),
    'the newest five, oldest first',
  );
  t.equal(traces.get('script', 'a', ids[0] as string), undefined, 'the oldest is gone');
  const other = begin(traces, clock, 'b', 0);
  other.finish('finished');
  t.same(traces.list('script', 'b'), [], 'stored_traces: 0');
  const running = begin(traces, clock, 'c');
  t.match(traces.list('script', 'c')[0], {
    state: 'running',
    script_execution: null,
    timestamp: { start: isoFromMicros(clock.now()), finish: null },
  });
  t.equal(traces.list().length, 6);
  t.equal(traces.list('automation').length, 0);
  t.same(Object.keys(traces.contexts('script', 'c')), [running.context.id]);
});

t.test('plain() turns run values into JSON: cycles, depth, non-finite numbers, maps and toJSON', async (t) => {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  t.same(plain(cyclic, undefined), { a: 1, self: '(nested too deep)' });
  t.same(plain({ n: Number.NaN, i: Number.POSITIVE_INFINITY, b: 10n, u: undefined }, undefined), { n: null, i: null, b: '10' });
  t.same(plain(new Map([['k', new Set([1, 2])]]), undefined), { k: [1, 2] });
  t.same(plain({ toJSON: () => ({ x: 1 }) }, undefined), { x: 1 });
  t.same(plain({ d: new Date(0) }, undefined), { d: '1970-01-01T00:00:00.000Z' });
  let deep: unknown = 'bottom';
  for (let i = 0; i < 100; i++) deep = [deep];
  t.ok(JSON.stringify(plain(deep, undefined)).includes('(nested too deep)'));
  const hook = (v: object) => (v instanceof Date ? 'a date' : undefined);
  t.same(plain([new Date(0)], hook), ['a date'], 'the hook comes first');
});
