import type { Hub } from '../../../src/hub.js';
import { startTestHub, type Teardown, type TestHub } from '../../helpers/hub.js';
import { REGISTRY_HOME_YAML } from '../../registry/helpers.js';
import { WsClient, type WsMessage } from './client.js';

/** The registry commands' tests' shared setup: test/registry's home (REGISTRY_HOME_YAML) with a WebSocket client. */

/** A test hub on `yaml` with an authenticated WebSocket client. */
export async function setup(t: Teardown, yaml = REGISTRY_HOME_YAML): Promise<{ th: TestHub; client: WsClient }> {
  const th = await startTestHub(t, { yaml });
  const client = await WsClient.authenticated(th.wsUrl, th.token);
  t.teardown(() => client.close());
  return { th, client };
}

/** The result of a command that must succeed. */
export function result<T = unknown>(m: WsMessage): T {
  if (m.success !== true) throw new Error(`command failed: ${JSON.stringify(m)}`);
  return m.result as T;
}

/** The error of a command that must fail. */
export function error(m: WsMessage): { code: string; message: string } {
  if (m.success !== false) throw new Error(`command succeeded: ${JSON.stringify(m)}`);
  return m.error as { code: string; message: string };
}

/** The id of the device named `name`. */
export function deviceIdOf(hub: Hub, name: string): string {
  const device = [...hub.core.devices.all()].find((d) => d.name === name);
  if (device === undefined) throw new Error(`no device ${name}`);
  return device.id;
}

/** A registry entry as the commands answer it. */
export type Entry = Record<string, unknown>;
