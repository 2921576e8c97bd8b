/**
 * The Matter bridge: (1) the memory it adds with 100 bridged entities: the built hub with and without a `matter:`
 * section over the same 100 virtual entities, each settled (from the moment the bridge's last endpoint is stored),
 * same flags and environment as the unit, alternated; (2) a state change to a commissioning controller (matter.js's,
 * in this process, subscribed as Apple Home and Google Home are): from the REST call that changes a light to the
 * controller's attribute report, p50, p90, p99 and max over 300 changes (MATTER_BENCH_CHANGES), next to the same
 * changes' state_changed events at a WebSocket client of the same hub: the baseline that shows what of the tail is the
 * machine's load. matter.js needs mDNS, so the bench runs in a network namespace of its own (a veth pair, as
 * test/matter/bridge.test.ts does): nothing reaches a real network.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../src/core/log.js';
import { loadMatter } from '../src/matter/lib.js';
import { rerunInNetns } from '../test/helpers/netns.js';
import { BENCH, fmt, type Hub, makeDataDir, median, PI_NODE_ARGS, percentile, ROOT, sleep, startHub } from './procs.js';
import { settle } from './settle.js';
import { type ToggleLatencies, toggleLatencies } from './state-socket.js';

const ROUNDS = Number(process.env.MATTER_BENCH_ROUNDS ?? 2);
const CHANGES = Number(process.env.MATTER_BENCH_CHANGES ?? 300);

rerunInNetns('bench/matter.ts', ROOT);

function config(withMatter: boolean): string {
  const lines = ['hub:', '  name: Bench', '  latitude: 52.37', '  longitude: 4.89', '  time_zone: UTC', 'virtual:'];
  for (let i = 0; i < 50; i++) lines.push(`  - {platform: light, id: l${i}, name: Light ${i}, color_modes: [brightness]}`);
  for (let i = 0; i < 50; i++) lines.push(`  - {platform: switch, id: s${i}, name: Switch ${i}}`);
  if (withMatter) lines.push('matter:', '  name: Bench Bridge');
  return `${lines.join('\n')}\n`;
}

/** Waits until the bridge has stored its last endpoint's number: it is up with all 100. */
async function bridgeUp(dataDir: string): Promise<number> {
  const last = join(dataDir, 'matter', 'bridge', 'root.parts.aggregator.parts.switch-s49.__number__');
  const deadline = performance.now() + 120_000;
  while (!existsSync(last)) {
    if (performance.now() > deadline) throw new Error('the Matter bridge did not come up within 120 s');
    await sleep(50);
  }
  return performance.now();
}

async function run(withMatter: boolean): Promise<{ rssMb: number; hub: Hub; stop(): Promise<void> }> {
  const data = await makeDataDir();
  const file = join(data.dir, 'configuration.yaml');
  writeFileSync(file, config(withMatter));
  const hub = await startHub({ config: file, data, nodeArgs: PI_NODE_ARGS });
  const readyAt = withMatter ? await bridgeUp(data.dir) : performance.now();
  const reading = await settle(hub.child.pid ?? 0, readyAt, hub.readyMs, true);
  return {
    rssMb: reading.rssMb,
    hub,
    stop: async () => {
      await hub.stop();
      await data.remove();
    },
  };
}

interface ClientEndpoint {
  readonly number: number;
  maybeStateOf(id: string): Record<string, unknown> | undefined;
  readonly events: Record<string, Record<string, { on(fn: (value: unknown) => void): void }>>;
}
interface Controller {
  start(): Promise<void>;
  close(): Promise<void>;
  readonly peers: { commission(options: Record<string, unknown>): Promise<{ readonly endpoints: Iterable<ClientEndpoint> }> };
}

async function reportLatencies(hub: Hub): Promise<ToggleLatencies> {
  const setup = JSON.parse(readFileSync(join(hub.dataDir, 'matter', 'setup.json'), 'utf8')) as { passcode: number; discriminator: number };
  const lib = await loadMatter(silentLogger);
  const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-controller-'));
  const controller = (await lib.ServerNode.create({
    id: 'controller',
    environment: lib.environment('bench-controller', dir),
    network: { port: 5550 },
  })) as unknown as Controller;
  await controller.start();
  const node = await controller.peers.commission({ passcode: setup.passcode, discriminator: setup.discriminator, timeout: 60_000 });
  const light = [...node.endpoints].find((ep) => ep.maybeStateOf('bridgedDeviceBasicInformation')?.serialNumber === 'light.l0');
  if (light === undefined) throw new Error('light.l0 not bridged');
  let waiting: ((t: number) => void) | undefined;
  light.events.onOff?.onOff$Changed?.on(() => waiting?.(performance.now()));
  const latencies = await toggleLatencies(
    hub,
    CHANGES,
    () =>
      new Promise<number>((resolve) => {
        waiting = resolve;
      }),
  );
  await controller.close();
  await lib.closeMdns();
  rmSync(dir, { recursive: true, force: true });
  return latencies;
}

const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const loadBefore = loadAverage();
const without: number[] = [];
const withBridge: number[] = [];
let latencies: number[] = [];
let baseline: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const a = await run(false);
  without.push(a.rssMb);
  await a.stop();
  const b = await run(true);
  withBridge.push(b.rssMb);
  if (round === ROUNDS - 1) ({ bridge: latencies, websocket: baseline } = await reportLatencies(b.hub));
  await b.stop();
}

const added = median(withBridge) - median(without);
const p50 = percentile(latencies, 0.5);
const p99 = percentile(latencies, 0.99);
const targets = [
  { target: 'Matter bridge with 100 entities adds ≤ 20 MB RSS', text: `${fmt(added, 1)} MB`, met: added <= 20 },
  {
    target: 'state change to a subscribed Matter controller, p99 ≤ 20 ms',
    text: `p50 ${fmt(p50, 1)} ms, p99 ${fmt(p99, 1)} ms`,
    met: p99 <= 20,
  },
];
mkdirSync(join(BENCH, 'out'), { recursive: true });
writeFileSync(
  join(BENCH, 'out', 'matter.json'),
  `${JSON.stringify({ without, withBridge, latencies, baseline, targets, load: { before: loadBefore, after: loadAverage() } }, null, 1)}\n`,
);
console.log('| hub (100 virtual entities) | settled RSS, median of rounds |');
console.log('|---|---|');
console.log(`| without matter: | ${fmt(median(without), 1)} MB (${without.map((x) => fmt(x, 1)).join(', ')}) |`);
console.log(`| with matter: (100 bridged) | ${fmt(median(withBridge), 1)} MB (${withBridge.map((x) => fmt(x, 1)).join(', ')}) |`);
console.log(`| added by the bridge | ${fmt(added, 1)} MB |`);
console.log('');
console.log(`Load average ${loadBefore} before, ${loadAverage()} after (the machine is shared).`);
console.log('');
const spread = (l: readonly number[]) =>
  `p50 ${fmt(percentile(l, 0.5), 1)} ms, p90 ${fmt(percentile(l, 0.9), 1)} ms, p99 ${fmt(percentile(l, 0.99), 1)} ms, max ${fmt(l.at(-1) ?? Number.NaN, 1)} ms`;
console.log(`REST call to the state change at a client, ${CHANGES} changes, the same changes to both clients:`);
console.log(`- the attribute report at a subscribed Matter controller: ${spread(latencies)}`);
console.log(`- the state_changed event at a WebSocket client (the hub's own API, the baseline): ${spread(baseline)}`);
process.exit(0);
