/**
 * Preloaded into the built hub by the Zigbee memory benchmark (`node --import bench/out/zigbee-preload.mjs
 * dist/hearth/cli.js serve`, compiled by esbuild at bench time so the hub runs no tsx): herdsman is external to the
 * bundle, so patching its Adapter.create here puts the fake stick under the hub's own Controller. Once the hub opens
 * pairing the 50 devices join and then report now and then.
 */
import { benchDevices, FakeStick, runNetwork } from './zigbee-sim.js';

const stick = new FakeStick();
stick.install();
runNetwork(stick, benchDevices()).catch((err: unknown) => {
  process.stderr.write(`zigbee preload: ${String(err)}\n`);
});
