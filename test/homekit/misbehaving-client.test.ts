// A HomeKit client that misbehaves (garbage bytes, a request left half sent, a body without end) is disconnected or
// left to itself, and a paired controller (hap-controller over 127.0.0.1) keeps reading, writing and hearing events.
import { connect, type Socket } from 'node:net';
import t from 'tap';
import { startTestHub } from '../helpers/hub.js';
import { idOf, ON, pairedClient, until } from './controller.js';

const YAML = `
hub:
  name: Test Home
  latitude: 52.37
  longitude: 4.89
  time_zone: Europe/Amsterdam
virtual:
  - {platform: switch, id: hall, name: Hall}
homekit:
  name: Test Bridge
  port: 0
  bind: [127.0.0.1]
`;

function open(port: number): Promise<{ socket: Socket; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('error', () => {}); // a reset from the bridge is what some of these expect
    socket.resume(); // read what comes (a 400), so the end of the stream is seen
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

/** Resolves true once `closed` settles, false if it has not within `ms`. */
function closedWithin(closed: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void closed.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

t.test('garbage, a half request and an endless body do not disturb a paired controller', async (t) => {
  const hub = await startTestHub(t, { yaml: YAML });
  const { client, port } = await pairedClient(hub);
  t.teardown(() => client.close());
  const { accessories } = await client.getAccessories();
  const hall = idOf(accessories, 'switch.hall', ON);
  const heard: unknown[] = [];
  client.on('event', (e) => {
    for (const c of e.characteristics) if (`${c.aid}.${c.iid}` === hall) heard.push(c.value);
  });
  await client.subscribeCharacteristics([hall]);

  // Bytes that are not HTTP: the client is disconnected.
  const garbage = await open(port);
  garbage.socket.write(Buffer.from([0x16, 0x03, 0x01, 0x00, 0xff, 0x00, 0x0d, 0x0a, 0x0d, 0x0a]));
  t.ok(await closedWithin(garbage.closed, 5000), 'a client sending garbage is disconnected');

  // A request that never ends its headers: it holds only its own connection.
  const half = await open(port);
  t.teardown(() => half.socket.destroy());
  half.socket.write('POST /pair-setup HTTP/1.1\r\nHost: hearth\r\nContent-Type: application/pairing+tlv8\r\nContent-Le');

  // A body announced as 1 GB and sent without end: disconnected long before the bridge holds it all.
  const flood = await open(port);
  flood.socket.write(
    'POST /pair-setup HTTP/1.1\r\nHost: hearth\r\nContent-Type: application/pairing+tlv8\r\nContent-Length: 1000000000\r\n\r\n',
  );
  const chunk = Buffer.alloc(64 * 1024, 0x41);
  let sent = 0;
  let stopped = false;
  void flood.closed.then(() => {
    stopped = true;
  });
  while (!stopped && sent < 64 * 1024 * 1024) {
    sent += chunk.length;
    if (!flood.socket.write(chunk)) await new Promise<void>((r) => setImmediate(r));
    await new Promise<void>((r) => setImmediate(r));
  }
  t.ok(
    await closedWithin(flood.closed, 5000),
    `a client sending an endless body is disconnected (after ${Math.round(sent / 1024)} kB sent)`,
  );
  t.ok(sent < 8 * 1024 * 1024, 'well before 8 MB');

  // The paired controller still works both ways, the half request still hanging.
  await client.setCharacteristics({ [hall]: true });
  await until(() => hub.hub.core.states.get('switch.hall')?.state === 'on', 'the switch to turn on');
  t.equal((await client.getCharacteristics([hall])).characteristics[0]?.value, 1, 'reads work');
  hub.hub.core.states.set('switch.hall', 'off');
  await until(() => heard.includes(0) || heard.includes(false), 'the event for the change in the hub');
  t.pass('events still arrive');
  t.equal(half.socket.destroyed, false, 'the half request only holds its own connection');
});
