/**
 * The Zigbee benchmark's memory parts. (1) The built hub with a `zigbee:` section and 50 simulated devices against a
 * reference process that only runs herdsman and the converters on the same fake stick and devices; same Node flags,
 * same allocator settings, one process at a time, each read once settled. (2) The demo hub without `zigbee:`: its
 * start time and RSS, and which zigbee modules it loaded (none, read from its module cache).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import {
  BENCH,
  httpRequest,
  type Memory,
  makeDataDir,
  measuredEnv,
  median,
  PI_NODE_ARGS,
  ROOT,
  sleep,
  startHub,
  stopProcess,
  UNIT_ENV,
} from './procs.js';
import { settle } from './settle.js';
import { benchDevices } from './zigbee-sim.js';

const SETTLE_MS = Number(process.env.ZIGBEE_BENCH_SETTLE_MS ?? 12_000);
const MAX_SETTLE_MS = 30_000;
const STARTS = 3;

/** Writes the loaded zigbee-herdsman modules (the CJS module cache) to $HEARTH_ZIGBEE_MODULES on SIGUSR2. */
const MODULE_PROBE = `import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
const cache = createRequire(import.meta.url).cache;
process.on('SIGUSR2', () => writeFileSync(process.env.HEARTH_ZIGBEE_MODULES, JSON.stringify(Object.keys(cache).filter((p) => /zigbee-herdsman/.test(p)))));
`;

export interface Settled extends Memory {
  /** RSS 2 s after the devices were paired (or the hub was ready). */
  readonly earlyRssMb: number;
  readonly settledAfterS: number;
}

/**
 * The settled RSS (bench/settle.ts), read no earlier than SETTLE_MS after `from` and, as in bench/memory.ts, once below
 * the reading at 2 s (the same rule for the hub and the reference; at most MAX_SETTLE_MS).
 */
async function settledRss(pid: number, from: number): Promise<Settled> {
  const r = await settle(pid, from, Number.NaN, true, { settleMs: SETTLE_MS, maxSettleMs: MAX_SETTLE_MS });
  return { rssMb: r.rssMb, anonMb: r.anonMb, fileMb: r.fileMb, earlyRssMb: r.earlyRssMb, settledAfterS: r.settledAfterS };
}

/** Compiles the preload, the reference and the module probe into bench/out/ (plain Node, no tsx at run time). */
export async function compileZigbeeBench(): Promise<{ preload: string; reference: string; probe: string }> {
  const out = join(BENCH, 'out');
  const preload = join(out, 'zigbee-preload.mjs');
  const reference = join(out, 'zigbee-reference.mjs');
  const probe = join(out, 'zigbee-module-probe.mjs');
  // node_modules stay external: the preload must patch the very herdsman the hub's bundle imports.
  const common = { bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'warning' } as const;
  await build({ ...common, entryPoints: [join(BENCH, 'zigbee-preload.ts')], outfile: preload });
  await build({ ...common, entryPoints: [join(BENCH, 'zigbee-reference.ts')], outfile: reference });
  writeFileSync(probe, MODULE_PROBE);
  return { preload, reference, probe };
}

const IEEE = /0x[0-9a-f]{16}/g;

/** How many of the bench devices have entities in the hub's states. */
async function devicesWithEntities(port: number, token: string, wanted: ReadonlySet<string>): Promise<number> {
  const r = await httpRequest(port, '/api/states', { token });
  if (r.status !== 200) return 0;
  const states = JSON.parse(r.body.toString()) as { entity_id: string }[];
  const seen = new Set<string>();
  for (const s of states) for (const m of s.entity_id.match(IEEE) ?? []) if (wanted.has(m)) seen.add(m);
  return seen.size;
}

export interface ZigbeeMemory {
  readonly hub: Settled & { readonly devices: number; readonly pairedMs: number; readonly zigbeeModules: number };
  readonly reference: Settled & { readonly pairedMs: number };
}

/** Reads the loaded zigbee modules of a process started with the module probe. */
async function zigbeeModulesOf(child: ChildProcess, file: string): Promise<string[]> {
  rmSync(file, { force: true });
  child.kill('SIGUSR2');
  for (let i = 0; i < 100; i++) {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as string[];
    } catch {
      await sleep(50);
    }
  }
  throw new Error('the module probe wrote nothing');
}

export async function zigbeeMemory(files: { preload: string; reference: string; probe: string }, work: string): Promise<ZigbeeMemory> {
  const devices = benchDevices();
  const wanted = new Set(devices.map((d) => d.ieee));
  const modulesFile = join(work, 'zigbee-modules.json');

  // The hub: the built bundle, a zigbee: section, the fake stick from the preload.
  const config = join(work, 'zigbee.yaml');
  writeFileSync(config, 'hub:\n  name: Zigbee bench\n  time_zone: Europe/Amsterdam\nzigbee: {}\n');
  const data = await makeDataDir();
  const hub = await startHub({
    config,
    data,
    nodeArgs: [...PI_NODE_ARGS, '--import', files.preload, '--import', files.probe],
    env: { HEARTH_ZIGBEE_MODULES: modulesFile },
  });
  let hubReading: ZigbeeMemory['hub'];
  try {
    const t0 = performance.now();
    // The driver starts after the API listens: ask until its service is there.
    for (let status = 0; status !== 200; ) {
      if (performance.now() - t0 > 60_000) throw new Error(`zigbee.permit_join answered ${status} for 60 s`);
      status = (
        await httpRequest(hub.port, '/api/services/zigbee/permit_join', { method: 'POST', token: hub.token, body: '{"duration":254}' })
      ).status;
      if (status !== 200) await sleep(100);
    }
    for (let paired = 0; paired < devices.length; paired = await devicesWithEntities(hub.port, hub.token, wanted)) {
      if (performance.now() - t0 > 120_000) throw new Error(`only ${paired} of ${devices.length} devices have entities after 120 s`);
      await sleep(250);
    }
    const pairedAt = performance.now();
    const settled = await settledRss(hub.child.pid as number, pairedAt);
    const modules = await zigbeeModulesOf(hub.child, modulesFile);
    hubReading = {
      ...settled,
      devices: await devicesWithEntities(hub.port, hub.token, wanted),
      pairedMs: pairedAt - t0,
      zigbeeModules: modules.length,
    };
  } finally {
    await hub.stop();
    await data.remove();
  }

  // The reference: the same flags and allocator settings, its own data directory.
  const refDir = mkdtempSync(join(work, 'reference-'));
  const t0 = performance.now();
  const child = spawn(process.execPath, [...PI_NODE_ARGS, files.reference, refDir], {
    cwd: ROOT,
    env: measuredEnv(UNIT_ENV),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the reference did not pair its devices within 150 s')), 150_000);
      child.stdout?.on('data', (d: Buffer) => {
        if (d.toString().includes('ready')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => reject(new Error(`the reference exited (${code})`)));
    });
    const pairedAt = performance.now();
    return { hub: hubReading, reference: { ...(await settledRss(child.pid as number, pairedAt)), pairedMs: pairedAt - t0 } };
  } finally {
    await stopProcess(child);
  }
}

export interface NoZigbee {
  /** Process start to the first 200 from GET /api/, per start, ms. */
  readonly readyMs: number[];
  readonly medianReadyMs: number;
  readonly settled: Settled;
  /** zigbee-herdsman(-converters) modules in the demo hub's module cache (0 expected). */
  readonly zigbeeModules: number;
}

/** The demo hub (no zigbee: section): start time over STARTS starts, settled RSS and its zigbee modules. */
export async function demoWithoutZigbee(files: { probe: string }, work: string): Promise<NoZigbee> {
  const modulesFile = join(work, 'demo-modules.json');
  const readyMs: number[] = [];
  let settled: Settled | undefined;
  let modules: string[] = [];
  for (let i = 0; i < STARTS; i++) {
    const data = await makeDataDir();
    const hub = await startHub({
      config: null,
      data,
      nodeArgs: [...PI_NODE_ARGS, '--import', files.probe],
      env: { HEARTH_ZIGBEE_MODULES: modulesFile },
    });
    try {
      readyMs.push(hub.readyMs);
      if (i === STARTS - 1) {
        settled = await settledRss(hub.child.pid as number, performance.now());
        modules = await zigbeeModulesOf(hub.child, modulesFile);
      }
    } finally {
      await hub.stop();
      await data.remove();
    }
  }
  if (settled === undefined) throw new Error('no settled reading');
  return { readyMs, medianReadyMs: median(readyMs), settled, zigbeeModules: modules.length };
}
