import type { Hub } from '../../../src/hub.js';
import { startTestHub, type Teardown, type TestHub } from '../../helpers/hub.js';
import { WsClient, type WsMessage } from './client.js';

/** The registry commands' tests' shared setup: a home with floors, areas, labels, devices and customized entities. */

export const YAML = `
hub:
  name: Test Home
  latitude: 52.37
  longitude: 4.89
  elevation: 3
  time_zone: Europe/Amsterdam
floors:
  - name: Ground Floor
    level: 0
  - name: Upstairs
    level: 1
labels:
  - name: Christmas
    color: red
areas:
  - name: Kitchen
    floor: ground_floor
  - name: Living Room
    floor: Ground Floor
    labels: [christmas]
  - name: Bedroom
    floor: upstairs
virtual:
  - platform: light
    id: kitchen_ceiling
    name: Kitchen Ceiling
    device: {name: Kitchen Lights, manufacturer: IKEA, model: TRADFRI, area: kitchen}
  - platform: light
    id: kitchen_counter
    name: Kitchen Counter
    device: {name: Kitchen Lights}
  - platform: light
    id: sofa
    name: Sofa Lamp
  - platform: light
    id: bedside
    name: Bedside
  - platform: switch
    id: tree
    name: Tree
customize:
  light.kitchen_counter: {area: living_room}
  light.sofa: {area: living_room}
  light.bedside: {area: Bedroom, labels: [Christmas]}
  switch.tree: {area: living_room, icon: "mdi:pine-tree"}
`;

/** A test hub on `yaml` with an authenticated WebSocket client. */
export async function setup(t: Teardown, yaml = YAML): Promise<{ th: TestHub; client: WsClient }> {
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
