// matter.js's own controller (a ServerNode from node_modules that commissions: what its CommissioningController wraps),
// as the Matter tests drive a bridge with it, and what they read of the node it commissions. Typed here by what the
// tests use: matter.js's declarations need the DOM's types.
import { silentLogger } from '../../src/core/log.js';
import { loadMatter } from '../../src/matter/lib.js';

export interface ClientEndpoint {
  readonly number: number;
  stateOf(id: string): Record<string, unknown>;
  maybeStateOf(id: string): Record<string, unknown> | undefined;
  commandsOf(id: string): Record<string, (args?: unknown) => Promise<unknown>>;
}
export interface ClientNode {
  readonly endpoints: Iterable<ClientEndpoint>;
  start(): Promise<void>;
  readonly interaction: { subscribe(request: Record<string, unknown>): Promise<{ close(): void }> };
}
export interface Controller {
  start(): Promise<void>;
  close(): Promise<void>;
  readonly peers: { commission(options: Record<string, unknown>): Promise<ClientNode>; get(id: string): ClientNode | undefined };
}

/** A started controller with its storage in `dir`, on UDP `port`. */
export async function startController(dir: string, port: number): Promise<Controller> {
  const lib = await loadMatter(silentLogger);
  const controller = (await lib.ServerNode.create({
    id: 'controller',
    environment: lib.environment('test-controller', dir),
    network: { port },
  })) as unknown as Controller;
  await controller.start();
  return controller;
}

/** The controller's endpoint for a bridged entity (its serial number is the entity id). */
export function endpointOf(node: ClientNode, entityId: string): ClientEndpoint {
  for (const ep of node.endpoints) if (ep.maybeStateOf('bridgedDeviceBasicInformation')?.serialNumber === entityId) return ep;
  throw new Error(`no endpoint for ${entityId}`);
}
