/**
 * Where a POST /api/services/<domain>/<service> spends its time: runs the built hub (1,000 entities, Pi
 * flags) under `--cpu-prof` while wrk posts a light toggle, then prints the self time after a 1 s warm-up by function and by
 * source file (through the bundle's source maps). Not part of `make bench`: run it by hand,
 * `node --import tsx bench/rest-profile.ts [seconds]`; the profile stays in bench/out/rest-post.cpuprofile.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_LIGHT, writeEntitiesConfig } from './configs.js';
import { selfTimes } from './cpu-profile.js';
import { BENCH, fmt, HUB_NODE_ARGS, makeDataDir, monoMs, startHub } from './procs.js';
import { wrk } from './wrk.js';

const SECONDS = Number(process.argv[2] ?? 5);
const TOP = 30;

const work = mkdtempSync(join(tmpdir(), 'hearth-profile-'));
const profDir = join(work, 'prof');
mkdirSync(profDir);
const data = await makeDataDir();
const hub = await startHub({
  config: writeEntitiesConfig(work, 1000),
  data,
  nodeArgs: [...HUB_NODE_ARGS, '--cpu-prof', '--cpu-prof-interval=100', `--cpu-prof-dir=${profDir}`, '--enable-source-maps'],
});
// The profile starts with the process; only what comes after the warm-up counts.
const spawnedAt = monoMs() - hub.readyMs;
let fromMs = 0;
try {
  const post = {
    port: hub.port,
    path: '/api/services/light/toggle',
    method: 'POST' as const,
    body: JSON.stringify({ entity_id: BENCH_LIGHT }),
    token: hub.token,
  };
  await wrk({ ...post, seconds: 1 });
  fromMs = monoMs() - spawnedAt;
  const r = await wrk({ ...post, seconds: SECONDS });
  console.log(`POST /api/services/light/toggle under --cpu-prof: ${fmt(r.requestsPerSecond)} req/s, p99 ${r.p99Ms.toFixed(2)} ms`);
} finally {
  await hub.stop();
  await data.remove();
}
const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
if (file === undefined) throw new Error('the hub wrote no .cpuprofile');
mkdirSync(`${BENCH}out`, { recursive: true });
const kept = `${BENCH}out/rest-post.cpuprofile`;
copyFileSync(join(profDir, file), kept);
rmSync(work, { recursive: true, force: true });

const { byFunction, byFile, busyMs } = selfTimes(kept, fromMs);
const table = (title: string, rows: typeof byFunction) => [
  '',
  `| ${title} | self ms | share of busy |`,
  '|---|---:|---:|',
  ...rows.slice(0, TOP).map((x) => `| ${x.name.replaceAll('|', '\\|')} | ${fmt(x.ms)} | ${fmt(x.share * 100, 1)} % |`),
];
console.log(
  [
    `Busy (not idle) ${fmt(busyMs)} ms; profile: bench/out/rest-post.cpuprofile`,
    ...table('function', byFunction),
    ...table('file', byFile),
  ].join('\n'),
);
