import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import { MAX_NOTIFICATIONS, type Notification, type NotificationUpdate, PersistentNotifications } from '../../src/core/notifications.js';

function store(): PersistentNotifications {
  return new PersistentNotifications(new ManualClock(Date.UTC(2026, 0, 5, 8, 0) * 1000), (err) => {
    throw err;
  });
}

t.test('create, replace under the same id, dismiss, dismiss_all: each told to subscribers as Home Assistant tells them', async (t) => {
  const notes = store();
  const seen: [NotificationUpdate, Record<string, Notification>][] = [];
  const off = notes.subscribe((type, changed) => seen.push([type, { ...changed }]));
  t.same(seen, [['current', {}]], 'the current ones at once');

  const made = notes.create('Hello', '2 beers', 'beer');
  t.same(made, { notification_id: 'beer', title: '2 beers', message: 'Hello', created_at: '2026-01-05T08:00:00+00:00' });
  notes.create('Hello again', null, 'beer');
  t.same(
    notes.all().map((n) => [n.notification_id, n.message, n.title]),
    [['beer', 'Hello again', null]],
    'the same id replaces',
  );
  const anonymous = notes.create('No id');
  t.match(anonymous.notification_id, /^[0-9a-f]{32}$/, 'a random id');
  t.equal(notes.dismiss('beer'), true);
  t.equal(notes.dismiss('beer'), false, 'a second dismiss does nothing');
  notes.dismissAll();
  t.same(notes.all(), []);
  t.same(
    seen.map(([type, changed]) => [type, Object.keys(changed)]),
    [
      ['current', []],
      ['added', ['beer']],
      ['added', ['beer']],
      ['added', [anonymous.notification_id]],
      ['removed', ['beer']],
      ['removed', [anonymous.notification_id]],
    ],
  );
  off();
  notes.create('unheard');
  t.equal(seen.length, 6, 'unsubscribed');
});

t.test('bounded: the oldest goes beyond the limit, and long text is cut', async (t) => {
  const notes = store();
  for (let i = 0; i <= MAX_NOTIFICATIONS; i++) notes.create(`n${i}`, null, `id${i}`);
  t.equal(notes.all().length, MAX_NOTIFICATIONS);
  t.equal(notes.get('id0'), undefined, 'the oldest went');
  t.ok(notes.get(`id${MAX_NOTIFICATIONS}`));
  t.equal(notes.create('x'.repeat(100_000)).message.length, 65_536);
});

t.test('a listener that throws is reported; the others are still told', async (t) => {
  const errors: unknown[] = [];
  const notes = new PersistentNotifications(new ManualClock(), (err) => errors.push(err));
  const told: string[] = [];
  notes.subscribe((type) => {
    if (type !== 'current') throw new Error('broken listener');
  });
  notes.subscribe((type) => told.push(type));
  notes.create('hi');
  t.same(told, ['current', 'added']);
  t.equal(errors.length, 1);
});
