/**
 * The Matter bridge: (1) the memory it adds with 100 bridged entities: the built hub with and without a `matter:`
 * section over the same 100 virtual entities, same flags and environment as the unit, alternated, each read twice:
 * settled after its start (from the moment the bridge's last endpoint is stored), and settled in use, after the same
 * changes through REST to a WebSocket client (and, with the bridge, to the commissioned controller, still subscribed).
 * The second is the one the target is read on: a hub that has done any work has V8's optimising compiler's code
 * resident (some 4 MB of node's own binary, clean pages), which a hub that has only started may not have yet; (2) a state change to a commissioning controller (matter.js's,
 * in a process of its own, subscribed as Apple Home and Google Home are): from the REST call that changes a light to the
 * controller's attribute report, p50, p90, p99 and max over 300 changes (MATTER_BENCH_CHANGES), next to the same
 * changes' state_changed events at a WebSocket client of the same hub: the baseline that shows what of the tail is the
 * machine's load. matter.js needs mDNS, so the bench runs in a network namespace of its own (a veth pair, as
 * test/matter/bridge.test.ts does): nothing reaches a real network.
 *
 * The controller runs in a process of its own (bench/matter-controller.ts), as a real one does on a device of its
 * own; MATTER_BENCH_CONTROLLER=inline runs it in this process, next to the REST and WebSocket clients, as the bench
 * did before. MATTER_BENCH_GAP_MS puts a pause between changes (default 0: each change right after the previous one
 * reached both clients). MATTER_BENCH_CLI runs another build's cli.js (an A/B against a copy of an older dist/);
 * MATTER_BENCH_MEMORY=0 leaves out the memory rounds (one hub with the bridge, for the latency alone). The CPU
 * time per change of the hub, the clients and the controller (their /proc stat over the changes) is printed with the
 * latencies: less sensitive to the machine's load than a latency, it shows what a change costs each.
 * MATTER_BENCH_HUB_ARGS adds node flags to the hub's (a preload that instruments it); with MATTER_BENCH_MARK=1 the hub
 * gets SIGUSR2 right before the changes and right after, for such a preload to start and stop on.
 */
import { fork } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rerunInNetns } from '../test/helpers/netns.js';
import { commissionBridge } from './matter-commission.js';
import type { FromController } from './matter-controller.js';
import { BENCH, CLI, fmt, type Hub, makeDataDir, median, monoMs, PI_NODE_ARGS, percentile, ROOT, sleep, startHub, TSX } from './procs.js';
import { settle } from './settle.js';
import { type ToggleLatencies, toggleLatencies } from './state-socket.js';

const ROUNDS = Number(process.env.MATTER_BENCH_ROUNDS ?? 2);
const CHANGES = Number(process.env.MATTER_BENCH_CHANGES ?? 300);
const INLINE = process.env.MATTER_BENCH_CONTROLLER === 'inline';
const GAP_MS = Number(process.env.MATTER_BENCH_GAP_MS ?? 0);
const HUB_CLI = process.env.MATTER_BENCH_CLI ?? CLI;
const MEMORY = process.env.MATTER_BENCH_MEMORY !== '0';
/** Node flags for the hub on top of the unit's (a preload that instruments it, --trace-gc...). */
const HUB_ARGS = (process.env.MATTER_BENCH_HUB_ARGS ?? '').split(' ').filter(Boolean);
/** MATTER_BENCH_MARK=1: the hub gets SIGUSR2 right before the changes and right after (for such a preload). */
const MARK = process.env.MATTER_BENCH_MARK === '1';

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

/**
 * The hub's RSS settled from `from` (with `awaitDrop`, once V8 gave start-up's garbage back), or NaN without the memory
 * rounds: after its start, and in use after the changes (the controller still subscribed).
 */
async function settledRss(hub: Hub, from: number, awaitDrop = false): Promise<number> {
  return MEMORY ? (await settle(hub.child.pid ?? 0, from, hub.readyMs, awaitDrop)).rssMb : Number.NaN;
}

async function run(withMatter: boolean): Promise<{ rssMb: number; hub: Hub; stop(): Promise<void> }> {
  const data = await makeDataDir();
  const file = join(data.dir, 'configuration.yaml');
  writeFileSync(file, config(withMatter));
  const hub = await startHub({ config: file, data, nodeArgs: [...PI_NODE_ARGS, ...HUB_ARGS], cli: HUB_CLI });
  const readyAt = withMatter ? await bridgeUp(data.dir) : performance.now();
  const rssMb = await settledRss(hub, readyAt, true);
  return {
    rssMb,
    hub,
    stop: async () => {
      await hub.stop();
      await data.remove();
    },
  };
}

interface Setup {
  readonly passcode: number;
  readonly discriminator: number;
}

/** Runs the changes, given a promise of the time the controller sees the next one (and its process, if its own). */
type Toggles = (nextAtBridge: () => Promise<number>, controllerPid?: number) => Promise<ToggleLatencies>;

/** The controller in this process, next to the REST and WebSocket clients (MATTER_BENCH_CONTROLLER=inline). */
async function inlineLatencies(setup: Setup, toggles: Toggles): Promise<ToggleLatencies> {
  const { endpoint: light, close } = await commissionBridge(tmpdir(), setup, 'light.l0');
  let waiting: ((t: number) => void) | undefined;
  light.events.onOff?.onOff$Changed?.on(() => waiting?.(performance.now()));
  const latencies = await toggles(
    () =>
      new Promise<number>((resolve) => {
        waiting = resolve;
      }),
  );
  await close();
  return latencies;
}

/** The controller in a process of its own (bench/matter-controller.ts); its times are monoMs, this process's performance.now() here. */
async function processLatencies(setup: Setup, toggles: Toggles): Promise<ToggleLatencies> {
  const child = fork(join(BENCH, 'matter-controller.ts'), [String(setup.passcode), String(setup.discriminator), 'light.l0'], {
    execArgv: TSX,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const offset = monoMs() - performance.now();
  let waiting: ((t: number) => void) | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    child.on('message', (m: FromController) => {
      if ('at' in m) waiting?.(m.at - offset);
      else if ('ready' in m) resolve();
      else reject(new Error(`the controller failed: ${m.error}`));
    });
    child.once('exit', (code) => reject(new Error(`the controller exited (${code})`)));
  });
  await ready;
  const latencies = await toggles(
    () =>
      new Promise<number>((resolve) => {
        waiting = resolve;
      }),
    child.pid,
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.send('close');
  await exited;
  return latencies;
}

/** A process's CPU time (user and system) in ms, from /proc (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** CPU time per change, in ms: the hub's, this process's (the clients', and the controller's when inline), the controller's process's. */
interface CpuPerChange {
  readonly hub: number;
  readonly bench: number;
  readonly controller: number;
}

async function reportLatencies(hub: Hub): Promise<ToggleLatencies & { cpu: CpuPerChange; rssMb: number }> {
  const setup = JSON.parse(readFileSync(join(hub.dataDir, 'matter', 'setup.json'), 'utf8')) as Setup;
  const pid = hub.child.pid ?? 0;
  let cpu: CpuPerChange = { hub: Number.NaN, bench: Number.NaN, controller: Number.NaN };
  const toggles: Toggles = async (nextAtBridge, controllerPid) => {
    // What commissioning started (reading every endpoint, the subscription's first report) is over before the changes.
    await sleep(1000);
    const before = {
      hub: cpuMs(pid),
      bench: cpuMs(process.pid),
      controller: controllerPid === undefined ? Number.NaN : cpuMs(controllerPid),
    };
    if (MARK) process.kill(pid, 'SIGUSR2');
    const latencies = await toggleLatencies(hub, CHANGES, nextAtBridge, GAP_MS);
    if (MARK) process.kill(pid, 'SIGUSR2');
    cpu = {
      hub: (cpuMs(pid) - before.hub) / CHANGES,
      bench: (cpuMs(process.pid) - before.bench) / CHANGES,
      controller: controllerPid === undefined ? Number.NaN : (cpuMs(controllerPid) - before.controller) / CHANGES,
    };
    rssMb = await settledRss(hub, performance.now());
    return latencies;
  };
  let rssMb = Number.NaN;
  const latencies = await (INLINE ? inlineLatencies : processLatencies)(setup, toggles);
  return { ...latencies, cpu, rssMb };
}

const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const loadBefore = loadAverage();
const without: number[] = [];
const withBridge: number[] = [];
const withoutInUse: number[] = [];
const withBridgeInUse: number[] = [];
let latencies: number[] = [];
let baseline: number[] = [];
let cpu: CpuPerChange = { hub: Number.NaN, bench: Number.NaN, controller: Number.NaN };
for (let round = MEMORY ? 0 : ROUNDS - 1; round < ROUNDS; round++) {
  if (MEMORY) {
    const a = await run(false);
    without.push(a.rssMb);
    // The same changes and WebSocket client as the bridge's hub gets below, with no controller to wait for.
    await toggleLatencies(a.hub, CHANGES, async () => performance.now(), GAP_MS);
    withoutInUse.push(await settledRss(a.hub, performance.now()));
    await a.stop();
  }
  const b = await run(true);
  if (MEMORY) withBridge.push(b.rssMb);
  if (MEMORY || round === ROUNDS - 1) {
    const report = await reportLatencies(b.hub);
    ({ bridge: latencies, websocket: baseline, cpu } = report);
    withBridgeInUse.push(report.rssMb);
  }
  await b.stop();
}

const addedAtStart = median(withBridge) - median(without);
const added = median(withBridgeInUse) - median(withoutInUse);
const p50 = percentile(latencies, 0.5);
const p99 = percentile(latencies, 0.99);
const targets = [
  {
    target: 'Matter bridge with 100 entities adds ≤ 20 MB RSS (in use)',
    text: `${fmt(added, 1)} MB in use, ${fmt(addedAtStart, 1)} MB settled after the start`,
    met: added <= 20,
  },
  {
    target: 'state change to a subscribed Matter controller, p99 ≤ 20 ms',
    text: `p50 ${fmt(p50, 1)} ms, p99 ${fmt(p99, 1)} ms`,
    met: p99 <= 20,
  },
];
mkdirSync(join(BENCH, 'out'), { recursive: true });
writeFileSync(
  join(BENCH, 'out', 'matter.json'),
  `${JSON.stringify(
    {
      without,
      withBridge,
      withoutInUse,
      withBridgeInUse,
      latencies,
      baseline,
      cpuMsPerChange: cpu,
      controller: INLINE ? 'inline' : 'process',
      gapMs: GAP_MS,
      targets,
      load: { before: loadBefore, after: loadAverage() },
    },
    null,
    1,
  )}\n`,
);
const rounds = (l: readonly number[]) => `${fmt(median(l), 1)} MB (${l.map((x) => fmt(x, 1)).join(', ')})`;
console.log(`| hub (100 virtual entities) | settled RSS after the start | settled RSS in use (after ${CHANGES} changes) |`);
console.log('|---|---|---|');
console.log(`| without matter: | ${rounds(without)} | ${rounds(withoutInUse)} |`);
console.log(`| with matter: (100 bridged) | ${rounds(withBridge)} | ${rounds(withBridgeInUse)} |`);
console.log(`| added by the bridge | ${fmt(addedAtStart, 1)} MB | **${fmt(added, 1)} MB** |`);
console.log('');
console.log(`Load average ${loadBefore} before, ${loadAverage()} after (the machine is shared).`);
console.log('');
const spread = (l: readonly number[]) =>
  `p50 ${fmt(percentile(l, 0.5), 1)} ms, p90 ${fmt(percentile(l, 0.9), 1)} ms, p99 ${fmt(percentile(l, 0.99), 1)} ms, max ${fmt(l.at(-1) ?? Number.NaN, 1)} ms`;
console.log(
  `REST call to the state change at a client, ${CHANGES} changes${GAP_MS > 0 ? ` ${GAP_MS} ms apart` : ''}, the same changes to both clients` +
    ` (the controller ${INLINE ? 'in the bench process, beside the clients' : 'in a process of its own'}):`,
);
console.log(`- the attribute report at a subscribed Matter controller: ${spread(latencies)}`);
console.log(`- the state_changed event at a WebSocket client (the hub's own API, the baseline): ${spread(baseline)}`);
console.log(
  `- CPU time per change: the hub ${fmt(cpu.hub, 2)} ms (all it did meanwhile: REST, WebSocket, Matter, GC), the bench's clients` +
    ` ${fmt(cpu.bench, 2)} ms${INLINE ? ' (with the controller)' : `, the controller ${fmt(cpu.controller, 2)} ms`}`,
);
process.exit(0);
