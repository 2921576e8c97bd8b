/**
 * The simulated Zigbee network the Zigbee benchmark runs on, shared by the hub's preload and the reference process
 * so both see the same radio traffic: DEVICES clones over the test catalogue, joined one by one once pairing is open,
 * then each reporting now and then (one report every REPORT_EVERY_MS across the network).
 */
import { CATALOGUE, cloneDevice, type SimDevice } from '../test/fixtures/zigbee/catalogue.js';
import { FakeStick } from '../test/fixtures/zigbee/fake-stick.js';
import { EXTRA_KINDS } from './zigbee-sim-kinds.js';

export const DEVICES = 50;
/** One report somewhere in the network this often: each of 50 devices about every 10 s. */
export const REPORT_EVERY_MS = 200;

/** The clones: cloneDevice round-robin over twelve kinds (the catalogue's six and six more), each with its own IEEE address. */
export function benchDevices(count = DEVICES): SimDevice[] {
  const kinds: SimDevice[] = [...Object.values(CATALOGUE), ...EXTRA_KINDS];
  return Array.from({ length: count }, (_, i) => cloneDevice(kinds[i % kinds.length] as SimDevice, i + 1));
}

/** A report that carries a new value for the device's kind (its converters make a state of it): endpoint, cluster, values. */
const REPORTS: Record<string, (wave: number, n: number) => [number, string, Record<string, number>]> = {
  bulb: (wave) => [1, 'genLevelCtrl', { currentLevel: 50 + wave }],
  weather: (wave) => [1, 'msTemperatureMeasurement', { measuredValue: 2000 + wave }],
  contact: (_, n) => [1, 'genOnOff', { onOff: n % 2 }],
  plug: (wave) => [1, 'haElectricalMeasurement', { activePower: 20 + wave }],
  dimmer: (wave) => [2, 'genPowerCfg', { batteryPercentageRemaining: 100 + wave }],
  trv: (wave) => [1, 'hvacThermostat', { localTemp: 1900 + wave }],
  colour: (wave) => [11, 'genLevelCtrl', { currentLevel: 50 + wave }],
  motion: (_, n) => [2, 'msOccupancySensing', { occupancy: n % 2 }],
  lumiplug: (_, n) => [1, 'genOnOff', { onOff: n % 2 }],
};

export function reportFrom(stick: FakeStick, device: SimDevice, n: number): void {
  const report = REPORTS[device.key.replace(/-\d+$/, '')];
  if (report === undefined) return;
  const [endpoint, cluster, values] = report(n % 100, n);
  stick.report(device.ieee, endpoint, cluster, values);
}

/** Resolves once `check` holds, polled every 20 ms, or rejects after `ms`. */
export async function pollUntil(check: () => boolean, what: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`zigbee bench: timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Once the controller has opened pairing on the stick, joins every device (one each JOIN_GAP_MS, as if reset one
 * after another) and then keeps reporting. The timers are unref'd so they never keep a process alive.
 */
export async function runNetwork(stick: FakeStick, devices: readonly SimDevice[], joinGapMs = 50): Promise<void> {
  await pollUntil(() => stick.connected && stick.permitJoinCalls.some((c) => c.seconds > 0), 'permit join', 120_000);
  for (const device of devices) {
    stick.join(device);
    await new Promise((resolve) => setTimeout(resolve, joinGapMs));
  }
  let n = 0;
  const timer = setInterval(() => {
    const device = devices[n % devices.length] as SimDevice;
    n += 1;
    if (stick.connected) reportFrom(stick, device, n);
  }, REPORT_EVERY_MS);
  timer.unref();
}

export { FakeStick };
