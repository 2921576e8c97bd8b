import {
  type Connection,
  callService,
  createConnection,
  createLongLivedTokenAuth,
  ERR_INVALID_AUTH,
  getConfig,
  getServices,
  getUser,
  type HassEntities,
  subscribeEntities,
} from 'home-assistant-js-websocket';
import t from 'tap';
import WebSocket from 'ws';
import { HA_VERSION } from '../../../src/version.js';
import { startTestHub } from '../../helpers/hub.js';
import { withDeadline } from './client.js';

// Node 20 has no global WebSocket; the official client uses whatever is there.
(globalThis as { WebSocket?: unknown }).WebSocket = WebSocket;

/**
 * Resolves with the first entities snapshot that satisfies `ready`. The subscription stays until the
 * connection closes (unsubscribing would start the library's 5 s collection teardown timer).
 */
function entitiesWhere(conn: Connection, ready: (e: HassEntities) => boolean): { done: Promise<HassEntities> } {
  const done = new Promise<HassEntities>((resolve) => {
    subscribeEntities(conn, (entities) => {
      if (ready(entities)) resolve(entities);
    });
  });
  return { done };
}

t.test('the official client connects, subscribes to entities and sees a service call', async (t) => {
  const { hub, url, token } = await startTestHub(t);
  const conn = await withDeadline(createConnection({ auth: createLongLivedTokenAuth(url, token) }), 5000, 'createConnection');
  t.teardown(() => conn.close());
  t.equal(conn.haVersion, HA_VERSION, 'read from auth_ok');

  const all = entitiesWhere(conn, (e) => Object.keys(e).length === hub.core.states.size);
  const entities = await withDeadline(all.done, 3000, 'every entity');
  t.same(Object.keys(entities).sort(), ['light.hallway', 'light.kitchen', 'switch.coffee_maker']);
  t.equal(entities['switch.coffee_maker']?.state, 'off');
  t.equal(entities['light.kitchen']?.attributes.friendly_name, 'Kitchen');

  const on = entitiesWhere(conn, (e) => e['switch.coffee_maker']?.state === 'on');
  await callService(conn, 'switch', 'turn_on', undefined, { entity_id: 'switch.coffee_maker' });
  const after = await withDeadline(on.done, 3000, 'the switch to be on in the subscription');
  const table = hub.core.states.get('switch.coffee_maker');
  t.equal(after['switch.coffee_maker']?.context.id, table?.context.id, 'with the call context');

  const config = await getConfig(conn);
  t.equal(config.location_name, 'Test Home');
  t.ok(Array.isArray(config.components));
  const services = await getServices(conn);
  t.ok(services.light?.turn_on, 'light.turn_on in the catalogue');
  const user = await getUser(conn);
  t.match(user, { name: 'Test Owner', is_owner: true, is_admin: true });
  t.equal(await conn.ping().then(() => 'pong'), 'pong');
});

t.test('the official client rejects a wrong token with ERR_INVALID_AUTH', async (t) => {
  const { url } = await startTestHub(t);
  const result = await withDeadline(
    createConnection({ auth: createLongLivedTokenAuth(url, 'not.valid') }).then(
      (conn) => {
        conn.close();
        return 'connected';
      },
      (err: unknown) => err,
    ),
    5000,
    'createConnection to fail',
  );
  t.equal(result, ERR_INVALID_AUTH);
});
