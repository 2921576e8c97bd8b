/**
 * The Zigbee memory benchmark's reference: only herdsman and the converters, a Controller on the same fake stick
 * with the same 50 devices (joined, interviewed, reporting) and findByDevice for each: what any Node program that
 * runs this Zigbee network needs. Compiled by esbuild at bench time; prints `ready <devices>` once every device
 * has its definition. Its data directory is argv[2].
 */
import { join } from 'node:path';
import { Controller, setLogger } from 'zigbee-herdsman';
import { findByDevice, setLogger as setConvertersLogger } from 'zigbee-herdsman-converters';
import { benchDevices, FakeStick, pollUntil, runNetwork } from './zigbee-sim.js';

const quiet = { debug: () => {}, info: () => {}, warning: () => {}, error: () => {} };
setLogger(quiet);
setConvertersLogger(quiet);

const dir = process.argv[2] ?? '.';
const devices = benchDevices();
const stick = new FakeStick();
stick.install();
const definitions = new Map<string, unknown>();
const controller = new Controller({
  network: {
    panID: 0x1a62,
    extendedPanID: [0xdd, 0xdd, 0xdd, 0xdd, 0xdd, 0xdd, 0xdd, 0xdd],
    networkKey: [1, 3, 5, 7, 9, 11, 13, 15, 0, 2, 4, 6, 8, 10, 12, 13],
    channelList: [11],
  },
  serialPort: { path: '/dev/null', adapter: 'zstack' },
  databasePath: join(dir, 'database.db'),
  databaseBackupPath: join(dir, 'database.db.backup'),
  backupPath: join(dir, 'coordinator_backup.json'),
  adapter: { disableLED: false },
  acceptJoiningDeviceHandler: async () => true,
});
controller.on('deviceInterview', (event) => {
  if (event.status !== 'successful') return;
  void findByDevice(event.device).then((definition) => definitions.set(event.device.ieeeAddr, definition));
});
await controller.start();
void runNetwork(stick, devices);
await controller.permitJoin(254);
await pollUntil(() => definitions.size >= devices.length, `${devices.length} definitions`, 120_000);
console.log(`ready ${definitions.size}`);
process.on('SIGTERM', () => {
  void controller.stop().finally(() => process.exit(0));
});
