/**
 * bench/matter.ts's Matter controller in a process of its own, as Apple Home's or Google Home's is on a device of its
 * own: matter.js's CommissioningController (a ServerNode that commissions) commissions the bridge, subscribes, and
 * sends the time (monoMs, comparable across processes) of each onOff$Changed of the entity named on its command line
 * to the parent. In the bench's own process it shared one event loop with the REST and WebSocket clients, so the
 * report waited behind the HTTP response and the WebSocket event the same change brings, and the next change's
 * request behind the controller's status response (docs/performance.md, "Matter state-change latency").
 *
 * Its storage is on tmpfs (/dev/shm) where there is one: matter.js's controller keeps what it learns of its peer in a
 * file per attribute, and wrote the light's onOff and its cluster's version to the disk (a temporary file, flushed,
 * renamed) at every change it was sent. What a controller stores is its own business, not the hub's.
 *
 * Usage (forked with an IPC channel, inside the bench's network namespace): matter-controller.ts <passcode>
 * <discriminator> <entity id>. Messages: `{ready: true}` once subscribed, then `{at}` for each change; it closes
 * on the message `close`.
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { commissionBridge } from './matter-commission.js';
import { monoMs } from './procs.js';

export type FromController = { readonly ready: true } | { readonly at: number } | { readonly error: string };

const send = (m: FromController): void => {
  process.send?.(m);
};

async function main(): Promise<void> {
  const [passcode, discriminator, entityId] = process.argv.slice(2);
  const shm = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
  const bridge = await commissionBridge(shm, { passcode: Number(passcode), discriminator: Number(discriminator) }, entityId ?? '');
  const changed = bridge.endpoint.events.onOff?.onOff$Changed;
  if (changed === undefined) throw new Error(`${entityId} is not bridged as an on/off device`);
  changed.on(() => send({ at: monoMs() }));
  process.on('message', (m) => {
    if (m !== 'close') return;
    void bridge.close().finally(() => process.exit(0));
  });
  send({ ready: true });
}

main().catch((err: unknown) => {
  send({ error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  process.exit(1);
});
