/**
 * Startup: from spawning `node dist/hearth/cli.js serve` (the bundled build) to the first 200 from
 * GET /api/ (polled on fresh connections every millisecond), with the demo configuration that ships in
 * config/, 1,000 and 10,000 virtual entities.
 * References in the same run, measured the same way: Node alone answering with node:http, and Node with
 * uWS. Runs interleave the cases, each case keeps its data directory (the first, untimed run writes its
 * files), and the table shows the median of the runs.
 *
 * STARTUP_BENCH_RUNS (9) sets the runs; STARTUP_BENCH_LARGE=0 leaves out the 10,000 entities.
 * A reference row runs tsc's unbundled output (dist/src/), to show what Node's per-file module loading
 * costs. Then one more demo start under --cpu-prof says where the time goes (bench/out/startup.cpuprofile).
 * Prints markdown; writes bench/out/startup.json.
 */
import type { ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeEntitiesConfig } from './configs.js';
import { type ProfileShare, profileShares } from './cpu-profile.js';
import {
  BENCH,
  type DataDir,
  type Floor,
  fmt,
  freePort,
  HUB_NODE_ARGS,
  makeDataDir,
  median,
  monoMs,
  spawnFloor,
  startHub,
  stopProcess,
  UNBUNDLED_CLI,
  waitFor200,
} from './procs.js';

const RUNS = Number(process.env.STARTUP_BENCH_RUNS ?? 9);
const TARGET_MS = 300;

interface HubCase {
  readonly kind: 'hub';
  readonly name: string;
  readonly entities: number | null;
  readonly cli?: string;
}
interface FloorCase {
  readonly kind: 'floor';
  readonly name: string;
  readonly floor: Floor;
}
type Case = HubCase | FloorCase;

const work = mkdtempSync(join(tmpdir(), 'hearth-startup-'));

/** Spawn to first 200 for a floor server on a port chosen beforehand. */
async function startFloor(floor: Floor): Promise<{ ms: number; child: ChildProcess }> {
  const port = await freePort();
  const t0 = monoMs();
  const child = spawnFloor(floor, port);
  child.stdout?.resume();
  const at = await waitFor200(child, port, '/api/', undefined);
  return { ms: at - t0, child };
}

async function startOnce(c: Case, data: DataDir | undefined, nodeArgs: readonly string[] = HUB_NODE_ARGS): Promise<number> {
  if (c.kind === 'floor') {
    const { ms, child } = await startFloor(c.floor);
    await stopProcess(child);
    return ms;
  }
  const config = c.entities === null ? null : writeEntitiesConfig(work, c.entities);
  const hub = await startHub({ config, data: data as DataDir, nodeArgs, cli: c.cli }).catch((err: unknown) => {
    throw new Error(`${c.name}: ${err instanceof Error ? err.message : String(err)}`);
  });
  await hub.stop();
  return hub.readyMs;
}

/** One demo start under --cpu-prof: where the time to the first 200 goes. */
async function profileDemo(data: DataDir): Promise<{ shares: ProfileShare[]; readyMs: number; file: string }> {
  const dir = join(work, 'profile');
  mkdirSync(dir);
  const hub = await startHub({ config: null, data, nodeArgs: [...HUB_NODE_ARGS, '--cpu-prof', `--cpu-prof-dir=${dir}`] });
  await hub.stop();
  const name = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (name === undefined) throw new Error('no CPU profile written');
  const file = join(BENCH, 'out/startup.cpuprofile');
  mkdirSync(join(BENCH, 'out'), { recursive: true });
  copyFileSync(join(dir, name), file);
  return { shares: profileShares(file, hub.readyMs), readyMs: hub.readyMs, file };
}

const cases: Case[] = [
  { kind: 'floor', name: 'floor: Node + node:http', floor: 'node' },
  { kind: 'floor', name: 'floor: Node + uWS', floor: 'uws' },
  { kind: 'hub', name: 'hearth, demo config', entities: null },
  { kind: 'hub', name: 'hearth, 1,000 entities', entities: 1000 },
  { kind: 'hub', name: 'hearth, 10,000 entities', entities: 10_000 },
];
// STARTUP_BENCH_LARGE=0 leaves out the 10,000 entities (seconds a start on a busy machine).
if (process.env.STARTUP_BENCH_LARGE === '0') cases.splice(4, 1);
// What the bundling in the build buys: tsc's output, one module file at a time, as it ran before.
cases.push({ kind: 'hub', name: 'reference: demo config, unbundled (dist/src/, tsc output)', entities: null, cli: UNBUNDLED_CLI });

const dataDirs = new Map<Case, DataDir>();
for (const c of cases) if (c.kind === 'hub') dataDirs.set(c, await makeDataDir());
try {
  // The first start of a data directory writes its registries and auth files: untimed.
  for (const c of cases) await startOnce(c, dataDirs.get(c));
  const times = new Map<Case, number[]>(cases.map((c) => [c, []]));
  for (let run = 0; run < RUNS; run++) {
    for (const c of cases) times.get(c)?.push(await startOnce(c, dataDirs.get(c)));
    process.stderr.write(`startup: run ${run + 1}/${RUNS}\n`);
  }
  const demoData = dataDirs.get(cases[2] as Case) as DataDir;
  const profile = await profileDemo(demoData);

  const floorMedian = median(times.get(cases[0] as Case) ?? []);
  const rows = cases.map((c) => {
    const t = times.get(c) ?? [];
    return { name: c.name, medianMs: median(t), minMs: Math.min(...t), maxMs: Math.max(...t), runs: t };
  });
  const demo = rows[2];
  const lines = [
    `Spawn to the first 200 from GET /api/ (ms), ${RUNS} runs per case, interleaved; hearth runs \`node ${HUB_NODE_ARGS.join(' ')} dist/hearth/cli.js serve\`.`,
    '',
    '| process | median | min | max | median vs Node alone |',
    '|---|---:|---:|---:|---:|',
    ...rows.map(
      (r) => `| ${r.name} | ${fmt(r.medianMs)} | ${fmt(r.minMs)} | ${fmt(r.maxMs)} | ${(r.medianMs / floorMedian).toFixed(2)}x |`,
    ),
    '',
    `Where a demo start's ${fmt(profile.readyMs)} ms go (one run under --cpu-prof, which slows it; profile: bench/out/startup.cpuprofile):`,
    '',
    '| on top of the stack | ms | share |',
    '|---|---:|---:|',
  ];
  const total = profile.shares.reduce((s, x) => s + x.ms, 0);
  for (const s of profile.shares.filter((x) => x.ms >= 1)) lines.push(`| ${s.category} | ${fmt(s.ms)} | ${fmt((s.ms / total) * 100)} % |`);
  const met = (demo?.medianMs ?? Number.POSITIVE_INFINITY) <= TARGET_MS;
  const targets = [
    { target: `ready in <= ${TARGET_MS} ms with the demo config`, text: `${fmt(demo?.medianMs ?? Number.NaN)} ms (median)`, met },
  ];
  lines.push('');
  for (const t of targets) lines.push(`- ${t.target}: ${t.text} (${t.met ? 'met' : 'missed'})`);
  console.log(lines.join('\n'));
  writeFileSync(
    `${BENCH}out/startup.json`,
    `${JSON.stringify({ benchmark: 'startup', runs: RUNS, hubNodeArgs: HUB_NODE_ARGS, rows, profile: { readyMs: profile.readyMs, shares: profile.shares }, targets }, null, 2)}\n`,
  );
} finally {
  for (const d of dataDirs.values()) await d.remove();
  rmSync(work, { recursive: true, force: true });
}
