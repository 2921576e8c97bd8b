/**
 * Child of built-bridge.test.ts: a Matter controller in a process of its own, so that the test can take it away
 * without a word (SIGKILL), as a phone leaves the network. matter.js's controller (from node_modules) commissions
 * the bridge whose passcode and discriminator are its first arguments (its storage in the folder of the third) and
 * prints a JSON line; another once its subscription reports `switch.kettle` on; then it waits to be killed.
 */
import { endpointOf, startController } from './controller.js';

const [passcode, discriminator, dir] = process.argv.slice(2);
const controller = await startController(dir as string, 5551);
const node = await controller.peers.commission({ passcode: Number(passcode), discriminator: Number(discriminator), timeout: 60_000 });
const kettle = endpointOf(node, 'switch.kettle');
process.stdout.write(`${JSON.stringify({ commissioned: true })}\n`);
// Then the subscription's report of the test's change: the subscription is up and its first reports are done.
const timer = setInterval(() => {
  if (kettle.maybeStateOf('onOff')?.onOff !== true) return;
  clearInterval(timer);
  process.stdout.write(`${JSON.stringify({ kettle: 'on' })}\n`);
  setInterval(() => {}, 60_000);
}, 20);
