/**
 * The MQTT benchmarks' broker: mosquitto on a free port on 127.0.0.1, started by the test suite's helper
 * (test/helpers/mosquitto.ts: password file, ACL, persistence off), and the `mqtt:` section that points a hub at it.
 */
import { startBroker, type TestBroker } from '../test/helpers/mosquitto.js';

export interface BenchBroker extends TestBroker {
  /** Stops the broker and removes its files. */
  close(): Promise<void>;
}

export async function startBenchBroker(): Promise<BenchBroker> {
  const teardowns: (() => unknown)[] = [];
  const broker = await startBroker({ teardown: (fn) => teardowns.push(fn) });
  return {
    ...broker,
    close: async () => {
      for (const fn of teardowns.splice(0).reverse()) await fn();
    },
  };
}

/** An `mqtt:` section for a hub of this broker (its node id and topics come from the hub's name). */
export function mqttSection(broker: TestBroker): string {
  return ['mqtt:', `  broker: ${broker.url}`, `  username: ${broker.username}`, `  password: ${broker.password}`, ''].join('\n');
}
