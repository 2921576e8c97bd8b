import t from 'tap';
import { ChangeCollectors } from '../../src/core/change-collectors.js';
import type { State } from '../../src/core/state.js';

const state = (n: number): State => ({ entity_id: `light.l${n}` }) as unknown as State;

t.test('each call gets the states changed under its context id, however many are in flight', async (t) => {
  const c = new ChangeCollectors();
  const lists = Array.from({ length: 40 }, () => [] as State[]);
  for (const [i, list] of lists.entries()) t.ok(c.add(`ctx${i}`, list));
  t.equal(c.size, 40, 'more than the first 16 slots');
  for (let i = 0; i < 40; i++) c.collect(`ctx${i}`, state(i));
  c.collect('nobody', state(99));
  t.same(
    lists.map((l) => l.map((s) => s.entity_id)),
    lists.map((_, i) => [`light.l${i}`]),
  );

  // Removing from the middle keeps every other call collecting.
  for (let i = 0; i < 40; i += 3) c.remove(`ctx${i}`, lists[i] as State[]);
  for (let i = 0; i < 40; i++) c.collect(`ctx${i}`, state(100 + i));
  for (const [i, l] of lists.entries()) t.equal(l.length, i % 3 === 0 ? 1 : 2, `ctx${i}`);
  t.equal(c.size, 40 - 14);
});

t.test('a second call under the same id is refused (it listens on its own); only the owner removes the entry', async (t) => {
  const c = new ChangeCollectors();
  const first: State[] = [];
  const second: State[] = [];
  t.ok(c.add('ctx', first));
  t.notOk(c.add('ctx', second));
  c.remove('ctx', second);
  c.collect('ctx', state(1));
  t.equal(first.length, 1, 'still collecting for the first');
  c.remove('ctx', first);
  t.equal(c.size, 0);
  c.collect('ctx', state(2));
  t.equal(first.length, 1);
  t.ok(c.add('ctx', second), 'the id is free again');
});
