/**
 * MQTT (issue 16): hubs and mosquitto as separate processes on 127.0.0.1, each started and stopped here (the
 * broker by the test suite's helper, a fresh one per case), the hubs as a Pi runs them (dist/hearth/cli.js serve,
 * `npm run build` first):
 * - a state change on hub A to a WebSocket client of hub B through the broker (bench/mqtt-latency.ts);
 * - 1,000 entities of hub A announced and mirrored on hub B (bench/mqtt-mirror.ts);
 * - the memory the MQTT component adds to a hub with 1,000 entities (bench/mqtt-memory.ts).
 * Prints markdown; writes bench/out/mqtt.json with the targets.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { HeapShare } from './heap-summary.js';
import { CHANGES, latencyRows, RATE, TARGET_P99_MS, WARMUP } from './mqtt-latency.js';
import { memoryResult, TARGET_MB } from './mqtt-memory.js';
import { ENTITIES, mirrorRows, TARGET_S } from './mqtt-mirror.js';
import { BENCH, fmt, PI_NODE_ARGS } from './procs.js';

const latency = await latencyRows();
const mirror = await mirrorRows();
const memory = await memoryResult();

const ms = (n: number | undefined) => fmt(n ?? Number.NaN, 2);
const s = (n: number) => fmt(n, 2);
const lines = [
  `### A state change on hub A to a WebSocket client of hub B`,
  '',
  `The probe sensor on hub A set with REST (one kept-alive connection) ${RATE} times a second, ${fmt(CHANGES)} changes after ${WARMUP} of warm-up; its value a sequence number, stamped on arrival at a WebSocket client of each hub (in another process; CLOCK_MONOTONIC). Hub A publishes it (state and attributes, retained), hub B adopts it. Hub A's own client and a bare mqtt.js pair through the same kind of broker are the references of the same run; "B less A" is per change, B's client's receipt less A's: what the broker and hub B add. Hubs with \`${PI_NODE_ARGS.join(' ')}\`. Target: p99 under ${TARGET_P99_MS} ms at hub B's client.`,
  '',
  '| receiver | path | changes | missing | p50 ms | p99 ms | max ms | B less A, p50 / p99 ms |',
  '|---|---|---:|---:|---:|---:|---:|---:|',
  ...latency.map(
    (r) =>
      `| ${r.label} | ${r.path} | ${fmt(r.changes)} | ${r.missing} | ${ms(r.p50Ms)} | ${ms(r.p99Ms)} | ${ms(r.maxMs)} | ${r.target ? `${ms(r.hopP50Ms)} / ${ms(r.hopP99Ms)}` : ''} |`,
  ),
  '',
  `### ${fmt(ENTITIES)} entities of hub A announced and mirrored on hub B`,
  '',
  `Seconds until every one of hub A's ${fmt(ENTITIES)} virtual entities (lights, switches, binary sensors, sensors) has a real state (neither unavailable nor unknown) at a WebSocket client of hub B; then each state on B is checked against A's. Timed from the spawn of the hub that starts, from its first 200 on /api/, and from its birth message at the broker (its MQTT connect). Target: under ${TARGET_S} s from B's connect (its birth), A already up. The reference is as many messages of the same sizes (config, availability, state, attributes per entity) from a bare mqtt.js publisher to a bare subscriber.`,
  '',
  '| case | from spawn s | from first 200 s | from the broker connect s | states equal |',
  '|---|---:|---:|---:|---:|',
  ...mirror.map(
    (r) => `| ${r.label} | ${s(r.fromSpawnS)} | ${s(r.fromReadyS)} | ${s(r.fromBirthS)} | ${fmt(r.equal)} of ${fmt(r.entities)} |`,
  ),
  '',
  '### Memory added by the MQTT component, 1,000 entities',
  '',
  `The same hub config (${fmt(ENTITIES)} virtual entities) without and with an \`mqtt:\` section (connected, all ${fmt(ENTITIES)} published with discovery), one hub at a time, settled RSS as bench/memory.ts reads it, Pi flags; ${memory.with.length} rounds alternated, medians. Target: under ${TARGET_MB} MB added.`,
  '',
  '| hub | RSS MB (each round) | median RSS MB | anon MB (each round) |',
  '|---|---|---:|---|',
  `| without \`mqtt:\` | ${memory.without.map((r) => fmt(r.rssMb, 1)).join(', ')} | ${fmt(memory.withoutMb, 1)} | ${memory.without.map((r) => fmt(r.anonMb, 1)).join(', ')} |`,
  `| with \`mqtt:\` | ${memory.with.map((r) => fmt(r.rssMb, 1)).join(', ')} | ${fmt(memory.withMb, 1)} | ${memory.with.map((r) => fmt(r.anonMb, 1)).join(', ')} |`,
  '',
  ...heapLines(),
];

/** Where the difference goes: the live JS heap of the last round's two hubs (a snapshot right after each reading). */
function heapLines(): string[] {
  const { without, with: withIt } = memory.heap;
  const last = (rs: readonly { rssMb: number; anonMb: number; fileMb: number }[]) => rs.at(-1);
  const a = last(memory.without);
  const b = last(memory.with);
  if (without === undefined || withIt === undefined || a === undefined || b === undefined) return [];
  const mb = (list: HeapShare[], category: string) => list.find((h) => h.category === category)?.mb ?? 0;
  const categories = [...new Set([...without.shares, ...withIt.shares].map((h) => h.category))];
  const rows = categories
    .map((c) => ({ c, a: mb(without.shares, c), b: mb(withIt.shares, c) }))
    .sort((x, y) => y.b - y.a - (x.b - x.a))
    .filter((r) => Math.abs(r.b - r.a) >= 0.05);
  const diff = (x: number, y: number) => `${y - x >= 0 ? '+' : ''}${fmt(y - x, 2)}`;
  return [
    "Where the last round's difference goes: the live JS heap from a heap snapshot right after each reading, the rest of the anonymous memory (V8's free heap space, malloc, buffers), and file-backed pages.",
    '',
    '| in the hub | without MB | with MB | added MB |',
    '|---|---:|---:|---:|',
    ...rows.map((r) => `| heap: ${r.c} | ${fmt(r.a, 2)} | ${fmt(r.b, 2)} | ${diff(r.a, r.b)} |`),
    `| heap, all | ${fmt(without.totalMb, 2)} | ${fmt(withIt.totalMb, 2)} | ${diff(without.totalMb, withIt.totalMb)} |`,
    `| anonymous memory beyond the live heap | ${fmt(a.anonMb - without.totalMb, 2)} | ${fmt(b.anonMb - withIt.totalMb, 2)} | ${diff(a.anonMb - without.totalMb, b.anonMb - withIt.totalMb)} |`,
    `| file-backed pages | ${fmt(a.fileMb, 2)} | ${fmt(b.fileMb, 2)} | ${diff(a.fileMb, b.fileMb)} |`,
    '',
  ];
}

const b = latency.filter((r) => r.target);
const aRows = latency.filter((r) => r.label.startsWith("hub A's"));
const worstB = b.reduce((m, r) => Math.max(m, r.p99Ms), Number.NEGATIVE_INFINITY);
const fromConnect = mirror.find((r) => r.label.startsWith("from B's start"));
const targets = [
  {
    target: `state change hub A → broker → hub B's WebSocket client, p99 < ${TARGET_P99_MS} ms (${RATE}/s)`,
    text: `${b.map((r) => `${ms(r.p99Ms)} ms`).join(' idle, ')} with 1,000 entities (hub A's own client, the same run: ${aRows.map((r) => `${ms(r.p99Ms)} ms`).join(', ')}; B less A: ${b.map((r) => `${ms(r.hopP99Ms)} ms`).join(', ')})`,
    met: b.every((r) => r.missing === 0) && worstB < TARGET_P99_MS,
  },
  {
    target: `${fmt(ENTITIES)} entities announced and mirrored on hub B < ${TARGET_S} s from B's connect`,
    text: `${s(fromConnect?.fromBirthS ?? Number.NaN)} s (${s(fromConnect?.fromSpawnS ?? Number.NaN)} s from B's spawn)`,
    met: fromConnect !== undefined && fromConnect.equal === ENTITIES && fromConnect.fromBirthS < TARGET_S,
  },
  {
    target: `RSS added by the MQTT component with ${fmt(ENTITIES)} entities < ${TARGET_MB} MB`,
    text: `${memory.addedMb >= 0 ? '+' : ''}${fmt(memory.addedMb, 1)} MB`,
    met: memory.addedMb < TARGET_MB,
  },
];
for (const t of targets) lines.push(`- ${t.target}: ${t.text} (${t.met ? 'met' : 'missed'})`);
console.log(lines.join('\n'));

mkdirSync(`${BENCH}out`, { recursive: true });
writeFileSync(
  `${BENCH}out/mqtt.json`,
  `${JSON.stringify({ benchmark: 'mqtt', rate: RATE, changes: CHANGES, warmup: WARMUP, piNodeArgs: PI_NODE_ARGS, latency, mirror, memory, targets }, null, 2)}\n`,
);
