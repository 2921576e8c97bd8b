/**
 * The HomeKit bridge: (1) the memory it adds with 100 bridged entities: the built hub with and without a `homekit:`
 * section over the same 100 virtual entities, each settled, same flags and environment as the unit; rounds of one of
 * each, the order alternating, HOMEKIT_BENCH_ROUNDS of them (5): the number is the median of the rounds' differences,
 * each round's shown with the load average when it was read (the machine may be shared: a round read under load can
 * differ by megabytes);
 * (2) a state change to a paired HomeKit controller (hap-controller, over 127.0.0.1): from the REST call that
 * changes a light to the controller's event, p50, p90, p99 and max over 1000 changes (HOMEKIT_BENCH_CHANGES), next to the
 * same changes' state_changed events at a WebSocket client of the same hub: the baseline that shows what of the tail is
 * the machine's load rather than the bridge.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { BENCH, fmt, freePort, type Hub, makeDataDir, median, PI_NODE_ARGS, percentile, startHub } from './procs.js';
import { settle } from './settle.js';
import { type ToggleLatencies, toggleLatencies } from './state-socket.js';

const ROUNDS = Number(process.env.HOMEKIT_BENCH_ROUNDS ?? 5);
const CHANGES = Number(process.env.HOMEKIT_BENCH_CHANGES ?? 1000);

interface Client {
  pairSetup(pin: string): Promise<void>;
  getAccessories(): Promise<{
    accessories: { aid: number; services: { characteristics: { iid: number; type: string; value?: unknown }[] }[] }[];
  }>;
  subscribeCharacteristics(ids: string[]): Promise<unknown>;
  on(event: 'event', fn: (e: { characteristics: { aid: number; iid: number; value: unknown }[] }) => void): void;
  close(): Promise<void>;
}
const { HttpClient } = createRequire(import.meta.url)('hap-controller') as { HttpClient: new (id: string, a: string, p: number) => Client };

function config(homekitPort: number | undefined): string {
  const lines = ['hub:', '  name: Bench', '  latitude: 52.37', '  longitude: 4.89', '  time_zone: UTC', 'virtual:'];
  for (let i = 0; i < 50; i++) lines.push(`  - {platform: light, id: l${i}, name: Light ${i}, color_modes: [brightness]}`);
  for (let i = 0; i < 50; i++) lines.push(`  - {platform: switch, id: s${i}, name: Switch ${i}}`);
  if (homekitPort !== undefined) lines.push('homekit:', '  name: Bench Bridge', `  port: ${homekitPort}`, '  bind: [127.0.0.1]');
  return `${lines.join('\n')}\n`;
}

interface Reading {
  readonly rssMb: number;
  /** Private memory (RssAnon). */
  readonly anonMb: number;
  /** Pages of files, mostly node's own binary (RssFile). */
  readonly fileMb: number;
  /** /proc/loadavg's 1-minute figure when the reading was taken. */
  readonly load: number;
}

function loadAverage(): number {
  return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
}

async function run(withHomekit: boolean): Promise<Reading & { hub: Hub; homekitPort?: number; stop(): Promise<void> }> {
  const data = await makeDataDir();
  const homekitPort = withHomekit ? await freePort() : undefined;
  const file = join(data.dir, 'configuration.yaml');
  writeFileSync(file, config(homekitPort));
  const hub = await startHub({ config: file, data, nodeArgs: PI_NODE_ARGS });
  const reading = await settle(hub.child.pid ?? 0, performance.now(), hub.readyMs, true);
  return {
    rssMb: reading.rssMb,
    anonMb: reading.anonMb,
    fileMb: reading.fileMb,
    load: loadAverage(),
    hub,
    homekitPort,
    stop: async () => {
      await hub.stop();
      await data.remove();
    },
  };
}

// RSS is private (anonymous) pages plus pages of files: node's own binary, of which a hub brings in more (V8's
// optimising compiler's code, some 3 to 4 MB) the first time it optimises a function, whenever that happens to be.
interface Round {
  readonly withFirst: boolean;
  readonly without: Reading;
  readonly withBridge: Reading;
}
const rounds: Round[] = [];
let latencies: number[] = [];
let baseline: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  // Alternating which hub starts first, so neither always follows the other's exit.
  const withFirst = round % 2 === 1;
  let without: Reading | undefined;
  let withBridge: Reading | undefined;
  for (const withHomekit of withFirst ? [true, false] : [false, true]) {
    const r = await run(withHomekit);
    const { rssMb, anonMb, fileMb, load } = r;
    if (withHomekit) withBridge = { rssMb, anonMb, fileMb, load };
    else without = { rssMb, anonMb, fileMb, load };
    if (withHomekit && round === ROUNDS - 1 && r.homekitPort !== undefined)
      ({ bridge: latencies, websocket: baseline } = await eventLatencies(r.hub, r.homekitPort));
    await r.stop();
  }
  if (without === undefined || withBridge === undefined) throw new Error('a round without both readings');
  rounds.push({ withFirst, without, withBridge });
  const d = withBridge.rssMb - without.rssMb;
  console.error(`round ${round + 1}/${ROUNDS}: ${fmt(d, 1)} MB added (load ${without.load} / ${withBridge.load})`);
}

async function eventLatencies(hub: Hub, port: number): Promise<ToggleLatencies> {
  const setup = JSON.parse(readFileSync(join(hub.dataDir, 'homekit', 'setup.json'), 'utf8')) as { pincode: string };
  const client = new HttpClient('bench', '127.0.0.1', port);
  await client.pairSetup(setup.pincode);
  const { accessories } = await client.getAccessories();
  // The first light's On characteristic (type 25).
  const light = accessories.find((a) => a.services.some((s) => s.characteristics.some((c) => c.value === 'light.l0')));
  const on = light?.services.flatMap((s) => s.characteristics).find((c) => /^0*25-/.test(c.type));
  if (light === undefined || on === undefined) throw new Error('light.l0 not bridged');
  const id = `${light.aid}.${on.iid}`;
  let atController: ((t: number) => void) | undefined;
  client.on('event', (e) => {
    if (e.characteristics.some((c) => `${c.aid}.${c.iid}` === id)) atController?.(performance.now());
  });
  await client.subscribeCharacteristics([id]);
  const latencies = await toggleLatencies(
    hub,
    CHANGES,
    () =>
      new Promise<number>((resolve) => {
        atController = resolve;
      }),
  );
  await client.close();
  return latencies;
}

const diff = (k: keyof Omit<Reading, 'load'>) => rounds.map((r) => r.withBridge[k] - r.without[k]);
const added = median(diff('rssMb'));
// percentile() takes a fraction (0.99), not a percentage.
const p50 = percentile(latencies, 0.5);
const p99 = percentile(latencies, 0.99);
const targets = [
  { target: 'HomeKit bridge with 100 entities adds ≤ 8 MB RSS', text: `${fmt(added, 1)} MB`, met: added <= 8 },
  {
    target: 'state change to a paired HomeKit controller, p99 ≤ 20 ms',
    text: `p50 ${fmt(p50, 1)} ms, p99 ${fmt(p99, 1)} ms`,
    met: p99 <= 20,
  },
];
mkdirSync(join(BENCH, 'out'), { recursive: true });
writeFileSync(join(BENCH, 'out', 'homekit.json'), `${JSON.stringify({ rounds, latencies, baseline, targets }, null, 1)}\n`);
const mb = (r: Reading) => `${fmt(r.rssMb, 1)} (${fmt(r.anonMb, 1)} + ${fmt(r.fileMb, 1)})`;
console.log('Settled RSS of the hub with 100 virtual entities, MB (private + files), without and with `homekit:` (100 bridged):');
console.log('');
console.log('| round | without | with | added (private / files) | load average (1 min) at the readings |');
console.log('|---|---|---|---|---|');
rounds.forEach((r, i) => {
  const d = (k: keyof Omit<Reading, 'load'>) => fmt(r.withBridge[k] - r.without[k], 1);
  console.log(
    `| ${i + 1}${r.withFirst ? ' (with first)' : ''} | ${mb(r.without)} | ${mb(r.withBridge)} | ${d('rssMb')} (${d('anonMb')} / ${d('fileMb')}) | ${r.without.load} / ${r.withBridge.load} |`,
  );
});
console.log(
  `| **median of the rounds** | ${fmt(median(rounds.map((r) => r.without.rssMb)), 1)} | ${fmt(median(rounds.map((r) => r.withBridge.rssMb)), 1)} | **${fmt(added, 1)}** (${fmt(median(diff('anonMb')), 1)} / ${fmt(median(diff('fileMb')), 1)}) | |`,
);
console.log('');
const spread = (l: readonly number[]) =>
  `p50 ${fmt(percentile(l, 0.5), 1)} ms, p90 ${fmt(percentile(l, 0.9), 1)} ms, p99 ${fmt(percentile(l, 0.99), 1)} ms, max ${fmt(l.at(-1) ?? Number.NaN, 1)} ms`;
console.log(`REST call to the state change at a client, ${CHANGES} changes, the same changes to both clients:`);
console.log(`- the HomeKit event at a paired controller: ${spread(latencies)}`);
console.log(`- the state_changed event at a WebSocket client (the hub's own API, the baseline): ${spread(baseline)}`);
