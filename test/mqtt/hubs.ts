import type { Core } from '../../src/core/core.js';
import type { State } from '../../src/core/state.js';
import { startTestHub, type Teardown, type TestHub } from '../helpers/hub.js';
import type { LogEntry } from '../helpers/logger.js';
import { memoryLogger } from '../helpers/logger.js';
import type { TestBroker } from '../helpers/mosquitto.js';
import { waitForState } from '../helpers/wait.js';

/** waitForState with a deadline that allows for a loaded CI machine (messages cross a real broker). */
export function waitState(core: Core, entityId: string, pred: (s: State) => boolean, ms = 10_000): Promise<State> {
  return waitForState(core, entityId, pred, ms);
}

/** The hub header and an `mqtt:` section pointing at the test broker; `extra` is appended (devices, areas). */
export function mqttYaml(broker: TestBroker, name: string, extra: string, mqttExtra = ''): string {
  return `
hub:
  name: ${name}
  latitude: 52.37
  longitude: 4.89
  elevation: 3
  time_zone: Europe/Amsterdam
mqtt:
  broker: ${broker.url}
  username: ${broker.username}
  password: ${broker.password}
  keepalive: 5
${mqttExtra}
${extra}
`;
}

export async function startMqttHub(
  t: Teardown,
  broker: TestBroker,
  name: string,
  extra: string,
  mqttExtra = '',
  mqttMinReconnectMs?: number,
): Promise<TestHub & { logs: LogEntry[] }> {
  const logs: LogEntry[] = [];
  const hub = await startTestHub(t, { yaml: mqttYaml(broker, name, extra, mqttExtra), log: memoryLogger(logs), mqttMinReconnectMs });
  return { ...hub, logs };
}
