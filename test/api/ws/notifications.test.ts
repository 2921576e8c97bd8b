import t from 'tap';
import { startTestHub } from '../../helpers/hub.js';
import { WsClient, type WsMessage } from './client.js';

interface NotificationEvent {
  readonly type: string;
  readonly notifications: Record<string, { notification_id: string; title: string | null; message: string; created_at: string }>;
}

function eventOf(m: WsMessage): NotificationEvent {
  return m.event as NotificationEvent;
}

t.test(
  'persistent_notification/subscribe and /get, and the create, dismiss and dismiss_all services, as Home Assistant has them',
  async (t) => {
    const th = await startTestHub(t);
    const ws = await WsClient.authenticated(th.wsUrl, th.token);
    t.teardown(() => ws.close());

    const id = ws.takeId();
    ws.send({ id, type: 'persistent_notification/subscribe' });
    const result = await ws.next();
    t.same([result.id, result.type, result.success], [id, 'result', true], 'the result first');
    const current = await ws.next();
    t.same([current.id, current.type, eventOf(current)], [id, 'event', { type: 'current', notifications: {} }], 'then everything now');

    const created = await ws.command('call_service', {
      domain: 'persistent_notification',
      service: 'create',
      service_data: { message: 'The washer is done', title: 'Laundry', notification_id: 'washer' },
    });
    t.equal(created.success, true);
    const added = eventOf(await ws.waitFor((m) => m.id === id && m.type === 'event'));
    t.equal(added.type, 'added');
    t.same(Object.keys(added.notifications), ['washer']);
    t.match(added.notifications.washer, {
      notification_id: 'washer',
      title: 'Laundry',
      message: 'The washer is done',
      created_at: /^\d{4}-/,
    });

    const got = await ws.command('persistent_notification/get');
    t.same(
      (got.result as { notification_id: string }[]).map((n) => n.notification_id),
      ['washer'],
      '/get lists them',
    );

    await ws.command('call_service', {
      domain: 'persistent_notification',
      service: 'dismiss',
      service_data: { notification_id: 'washer' },
    });
    const removed = eventOf(await ws.waitFor((m) => m.id === id && m.type === 'event'));
    t.same([removed.type, Object.keys(removed.notifications)], ['removed', ['washer']]);

    await ws.command('call_service', { domain: 'persistent_notification', service: 'create', service_data: { message: 'one' } });
    await ws.command('call_service', { domain: 'persistent_notification', service: 'create', service_data: { message: 'two' } });
    await ws.command('call_service', { domain: 'persistent_notification', service: 'dismiss_all', service_data: {} });
    const all = await ws.waitForCount((m) => m.id === id && m.type === 'event' && eventOf(m).type === 'removed', 2);
    t.equal(Object.keys(eventOf(all[1] as WsMessage).notifications).length, 2, 'dismiss_all removes both in one event');

    const missing = await ws.command('call_service', { domain: 'persistent_notification', service: 'create', service_data: {} });
    t.equal(missing.success, false, 'a message is required');
    t.match((missing.error as { message: string }).message, /message/);

    const unsubscribed = await ws.command('unsubscribe_events', { subscription: id });
    t.equal(unsubscribed.success, true, 'unsubscribe_events ends it');
  },
);
