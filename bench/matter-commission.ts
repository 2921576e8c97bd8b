/**
 * bench/matter.ts's Matter controller, wherever it runs (in the bench's process or in bench/matter-controller.ts):
 * matter.js's CommissioningController (a ServerNode that commissions) commissions the bridge and subscribes; the
 * bridged endpoint of one entity is found by its serial number (the entity id).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { silentLogger } from '../src/core/log.js';
import { loadMatter } from '../src/matter/lib.js';

export interface ClientEndpoint {
  maybeStateOf(id: string): Record<string, unknown> | undefined;
  readonly events: Record<string, Record<string, { on(fn: (value: unknown) => void): void }> | undefined>;
}
interface Controller {
  start(): Promise<void>;
  close(): Promise<void>;
  readonly peers: { commission(options: Record<string, unknown>): Promise<{ readonly endpoints: Iterable<ClientEndpoint> }> };
}

export interface Commissioned {
  /** The endpoint that bridges the entity. */
  readonly endpoint: ClientEndpoint;
  /** Closes the controller and its mDNS, and removes its storage. */
  close(): Promise<void>;
}

/** Commissions the bridge with a controller whose storage is a new folder under `parent`. */
export async function commissionBridge(
  parent: string,
  setup: { readonly passcode: number; readonly discriminator: number },
  entityId: string,
): Promise<Commissioned> {
  const lib = await loadMatter(silentLogger);
  const dir = mkdtempSync(join(parent, 'hearth-bench-controller-'));
  const controller = (await lib.ServerNode.create({
    id: 'controller',
    environment: lib.environment('bench-controller', dir),
    network: { port: 5550 },
  })) as unknown as Controller;
  await controller.start();
  const node = await controller.peers.commission({ passcode: setup.passcode, discriminator: setup.discriminator, timeout: 60_000 });
  const endpoint = [...node.endpoints].find((ep) => ep.maybeStateOf('bridgedDeviceBasicInformation')?.serialNumber === entityId);
  if (endpoint === undefined) throw new Error(`${entityId} is not bridged`);
  return {
    endpoint,
    close: async () => {
      await controller.close();
      await lib.closeMdns();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
