/**
 * Child of built-bridge.test.ts: a Matter controller in a process of its own, so that the test can take it away
 * without a word (SIGKILL), as a phone leaves the network. matter.js's controller (from node_modules) commissions
 * the bridge whose passcode and discriminator are its first arguments (its storage in the folder of the third) and
 * prints a JSON line; another once its subscription reports `switch.kettle` on; then it waits to be killed.
 */
import { silentLogger } from '../../src/core/log.js';
import { loadMatter } from '../../src/matter/lib.js';

interface ClientEndpoint {
  maybeStateOf(id: string): Record<string, unknown> | undefined;
}
interface Controller {
  start(): Promise<void>;
  readonly peers: { commission(options: Record<string, unknown>): Promise<{ readonly endpoints: Iterable<ClientEndpoint> }> };
}

const [passcode, discriminator, dir] = process.argv.slice(2);
const lib = await loadMatter(silentLogger);
const controller = (await lib.ServerNode.create({
  id: 'controller',
  environment: lib.environment('test-controller', dir as string),
  network: { port: 5551 },
})) as unknown as Controller;
await controller.start();
const node = await controller.peers.commission({ passcode: Number(passcode), discriminator: Number(discriminator), timeout: 60_000 });
const kettle = [...node.endpoints].find((e) => e.maybeStateOf('bridgedDeviceBasicInformation')?.serialNumber === 'switch.kettle');
process.stdout.write(`${JSON.stringify({ commissioned: kettle !== undefined })}\n`);
// Then the subscription's report of the test's change: the subscription is up and its first reports are done.
const timer = setInterval(() => {
  if (kettle?.maybeStateOf('onOff')?.onOff !== true) return;
  clearInterval(timer);
  process.stdout.write(`${JSON.stringify({ kettle: 'on' })}\n`);
  setInterval(() => {}, 60_000);
}, 20);
