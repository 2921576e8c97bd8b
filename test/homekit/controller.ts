// A real HomeKit controller (hap-controller) for the bridge's tests: its client type, pairing with a test hub's
// bridge, and finding a characteristic by entity and HAP type.
import { createRequire } from 'node:module';
import type { TestHub } from '../helpers/hub.js';

export interface Characteristic {
  readonly iid: number;
  readonly type: string;
  readonly value?: unknown;
}
export interface Accessory {
  readonly aid: number;
  readonly services: { readonly type: string; readonly characteristics: Characteristic[] }[];
}
export interface HttpClient {
  pairSetup(pin: string): Promise<void>;
  getLongTermData(): unknown;
  getAccessories(): Promise<{ accessories: Accessory[] }>;
  getCharacteristics(ids: string[]): Promise<{ characteristics: { aid: number; iid: number; value: unknown }[] }>;
  setCharacteristics(values: Record<string, unknown>): Promise<unknown>;
  subscribeCharacteristics(ids: string[]): Promise<unknown>;
  on(event: 'event', fn: (e: { characteristics: { aid: number; iid: number; value: unknown }[] }) => void): void;
  close(): Promise<void>;
}
export const { HttpClient } = createRequire(import.meta.url)('hap-controller') as {
  HttpClient: new (id: string, address: string, port: number, pairing?: unknown) => HttpClient;
};

// HAP's short UUIDs (services and characteristics), as the controller reports them.
export const ON = '25';
export const LOCK_CURRENT = '1D';
export const LOCK_TARGET = '1E';
export const MOTION = '22';
export const TEMPERATURE = '11';
export const LIGHTBULB = '43';

export function short(type: string): string {
  return type
    .replace(/^0+/, '')
    .replace(/-0000-1000-8000-0026BB765291$/, '')
    .toUpperCase();
}

/** aid.iid of the first characteristic of `type` in the accessory whose serial names `entityId`. */
export function idOf(accessories: Accessory[], entityId: string, type: string): string {
  for (const a of accessories) {
    const serial = a.services.flatMap((s) => s.characteristics).find((c) => short(c.type) === '30')?.value;
    if (serial !== entityId) continue;
    for (const s of a.services) for (const c of s.characteristics) if (short(c.type) === type) return `${a.aid}.${c.iid}`;
  }
  throw new Error(`no characteristic ${type} for ${entityId}`);
}

export async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

export async function pairedClient(hub: TestHub): Promise<{ client: HttpClient; pairing: unknown; port: number }> {
  const bridge = hub.hub.homekit;
  if (bridge?.setup === undefined || bridge.port === undefined) throw new Error('no HomeKit bridge');
  const client = new HttpClient('hearth-test', '127.0.0.1', bridge.port);
  await client.pairSetup(bridge.setup.pincode);
  return { client, pairing: client.getLongTermData(), port: bridge.port };
}
