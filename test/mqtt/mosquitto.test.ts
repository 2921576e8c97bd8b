import mqtt from 'mqtt';
import t from 'tap';
import { startBroker } from '../helpers/mosquitto.js';

t.test('the test broker authenticates, applies its ACL and restarts on the same port', async (t) => {
  const broker = await startBroker(t, { users: [{ username: 'guest', password: 'pw', acl: ['topic read guest/#'] }] });
  const client = await mqtt.connectAsync(broker.url, { username: broker.username, password: broker.password, reconnectPeriod: 0 });
  const got = new Promise<string>((resolve) => client.on('message', (_topic, payload) => resolve(payload.toString())));
  await client.subscribeAsync('x/y');
  await client.publishAsync('x/y', 'hello');
  t.equal(await got, 'hello', 'a round trip through the broker');
  await client.endAsync();

  await t.rejects(
    mqtt.connectAsync(broker.url, { username: 'hearth', password: 'wrong', reconnectPeriod: 0 }),
    'a wrong password is refused',
  );
  await broker.stop();
  await broker.start();
  const again = await mqtt.connectAsync(broker.url, { username: broker.username, password: broker.password, reconnectPeriod: 0 });
  t.ok(again.connected, 'the broker is back on the same port');
  await again.endAsync();
});
