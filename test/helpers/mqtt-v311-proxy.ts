import { createServer, connect as netConnect, type Socket } from 'node:net';
import type { Teardown } from './hub.js';

/** A broker front that speaks MQTT 3.1.1 only, as mosquitto 1.x and many embedded brokers do. */
export interface V311Proxy {
  readonly port: number;
  /** CONNECTs refused for asking for protocol 5, and CONNECTs passed through at 3.1.1. */
  readonly refused: number;
  readonly passed: number;
}

/** The protocol level of a complete CONNECT at the start of `buf`, or undefined while it is incomplete. */
function connectLevel(buf: Buffer): number | undefined {
  if (buf.length < 2) return undefined;
  let i = 1;
  let multiplier = 1;
  let length = 0;
  for (;;) {
    const byte = buf[i];
    if (byte === undefined) return undefined;
    length += (byte & 0x7f) * multiplier;
    multiplier *= 128;
    i++;
    if ((byte & 0x80) === 0 || i > 4) break;
  }
  // Variable header: the protocol name ("MQTT", two length bytes first), then the level byte.
  const nameLength = buf.readUInt16BE(i);
  return buf.length >= i + length ? (buf[i + 2 + nameLength] as number) : undefined;
}

/**
 * Listens on 127.0.0.1 in front of a real broker: a CONNECT at protocol 5 gets 3.1.1's "unacceptable protocol
 * version" CONNACK (return code 1) and the connection closes; one at 3.1.1 is piped to the broker unchanged.
 * mosquitto 2 accepts both versions and has no setting to refuse 5, so this is how the fallback is tested.
 */
export async function startV311Proxy(t: Teardown, brokerPort: number): Promise<V311Proxy> {
  const state = { port: 0, refused: 0, passed: 0 };
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      if (head.length > 64 * 1024) return client.destroy();
      const level = connectLevel(head);
      if (level === undefined) return;
      client.off('data', onData);
      if (level !== 4) {
        state.refused++;
        client.end(Buffer.from([0x20, 0x02, 0x00, 0x01]));
        return;
      }
      state.passed++;
      const upstream = netConnect(brokerPort, '127.0.0.1');
      sockets.add(upstream);
      upstream.on('close', () => {
        sockets.delete(upstream);
        client.destroy();
      });
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      upstream.write(head);
      client.pipe(upstream);
      upstream.pipe(client);
    };
    client.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  state.port = typeof address === 'object' && address !== null ? address.port : 0;
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  );
  return state;
}
