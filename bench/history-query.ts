/**
 * Query speed (issue 13): 24 hours of one entity changing once a second (86,400 changes) returned by
 * `history/history_during_period` over a real WebSocket, and 7 days of hourly statistics for 50 sensors through
 * `recorder/statistics_during_period`. The history is recorded through the hub on a manual clock (sealed
 * hourly, the finished day compacted, as in a running hub); each query runs 7 times, the median is reported,
 * against the same WebSocket's `ping` round trip as the floor. Prints markdown; writes bench/out/history-query.json.
 */
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { seededRandom } from '../drivers/virtual/index.js';
import { parseConfigText } from '../src/config/load.js';
import { isoFromMicros, ManualClock } from '../src/core/clock.js';
import { silentLogger } from '../src/core/log.js';
import { Hub, SECTION_VALIDATORS } from '../src/hub.js';
import { BENCH, fmt } from './procs.js';

const T0 = Date.UTC(2026, 2, 9, 0, 0, 0) * 1000;
const S = 1_000_000;
const HOUR = 3600 * S;
const DAY = 24 * HOUR;
const RUNS = 7;
const SENSORS = 50;

const dataDir = await mkdtemp(join(tmpdir(), 'hearth-query-bench-'));
const clock = new ManualClock(T0);
const hub = await Hub.start({
  config: parseConfigText('hub:\n  name: Query bench\n', null, SECTION_VALIDATORS),
  dataDir,
  log: silentLogger,
  host: '127.0.0.1',
  port: 0,
  clock,
  random: seededRandom(3),
});
const recorder = hub.recorder;
const statistics = hub.statistics;
if (recorder === undefined || statistics === undefined) throw new Error('the recorder is on by default');

// 7 days of 50 statistics sensors (a value every 5 minutes), then the last 24 hours of one sensor every second.
const attrs = { unit_of_measurement: 'W', state_class: 'measurement', device_class: 'power' };
let v = 0;
for (let t = 0; t < 7 * DAY; t += 300 * S) {
  for (let i = 0; i < SENSORS; i++) hub.core.states.set(`sensor.p${i}`, String(100 + ((v++ * 7919) % 997)), attrs);
  clock.advance(300 * S);
  await statistics.rollover();
  if (t % HOUR === 0) await recorder.tick();
}
const historyStart = clock.now();
let x = 2000;
for (let s = 0; s < 86_400; s++) {
  x += s % 3 === 0 ? 1 : -1;
  hub.core.states.set('sensor.q', (x / 10).toFixed(1), { unit_of_measurement: '°C', state_class: 'measurement' });
  clock.advance(S);
  if (s % 60 === 0) await recorder.tick();
}
await recorder.tick();
await recorder.housekeeping();

const owner = await hub.auth.ensureOwner('Bench');
const token = await hub.auth.createToken(owner.id, 'bench');
const ws = new WebSocket(`ws://127.0.0.1:${hub.port}/api/websocket`);
let nextId = 1;
const waiting = new Map<number, (m: { data: Buffer; bytes: number }) => void>();
await new Promise<void>((resolve, reject) => {
  ws.on('message', (data: Buffer) => {
    // The answer counts as returned when its last byte arrived: the client's own JSON.parse of megabytes
    // (it shares this process with the hub) is left out of the time and done afterwards.
    const id = /^\{"id":(\d+)/.exec(data.subarray(0, 32).toString('latin1'))?.[1];
    if (id !== undefined) {
      waiting.get(Number(id))?.({ data, bytes: data.length });
      return;
    }
    const m = JSON.parse(data.toString()) as { type: string };
    if (m.type === 'auth_required') ws.send(JSON.stringify({ type: 'auth', access_token: token }));
    else if (m.type === 'auth_ok') resolve();
  });
  ws.on('error', reject);
});
function command(msg: Record<string, unknown>): Promise<{ data: Buffer; bytes: number }> {
  const id = nextId++;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    ws.send(JSON.stringify({ id, ...msg }));
  });
}
async function median(msg: Record<string, unknown>): Promise<{ ms: number; bytes: number; result: unknown }> {
  const times: number[] = [];
  let last: { data: Buffer; bytes: number } = { data: Buffer.alloc(0), bytes: 0 };
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    last = await command(msg);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const result = (JSON.parse(last.data.toString()) as { result?: unknown }).result;
  return { ms: times[Math.floor(RUNS / 2)] as number, bytes: last.bytes, result };
}

const ping = await median({ type: 'ping' });
void ping.result;
const history = await median({
  type: 'history/history_during_period',
  start_time: isoFromMicros(historyStart),
  end_time: isoFromMicros(historyStart + DAY),
  entity_ids: ['sensor.q'],
});
const points = ((history.result as Record<string, unknown[]>)['sensor.q'] ?? []).length;
const minimal = await median({
  type: 'history/history_during_period',
  start_time: isoFromMicros(historyStart),
  end_time: isoFromMicros(historyStart + DAY),
  entity_ids: ['sensor.q'],
  minimal_response: true,
  no_attributes: true,
});
const ids = Array.from({ length: SENSORS }, (_, i) => `sensor.p${i}`);
const stats = await median({
  type: 'recorder/statistics_during_period',
  start_time: isoFromMicros(T0),
  end_time: isoFromMicros(T0 + 7 * DAY),
  statistic_ids: ids,
  period: 'hour',
});
const statRows = Object.values(stats.result as Record<string, unknown[]>).reduce((n, l) => n + l.length, 0);
ws.close();
await hub.stop();
await rm(dataDir, { recursive: true, force: true });

const targets = [
  {
    target: 'history_during_period: 24 h of one entity changing every second < 100 ms',
    text: `${fmt(history.ms, 1)} ms (${points.toLocaleString('en')} states)`,
    met: history.ms < 100 && points === 86_400,
  },
  {
    target: 'statistics_during_period: 7 days hourly for 50 sensors < 50 ms',
    text: `${fmt(stats.ms, 1)} ms (${statRows.toLocaleString('en')} rows)`,
    met: stats.ms < 50 && statRows === 7 * 24 * SENSORS,
  },
];
const lines = [
  `Median of ${RUNS} over a real WebSocket on 127.0.0.1, from the command sent to the answer's last byte received (the client shares this process with the hub; its JSON.parse is left out); the history comes from a compacted day file (read and inflated on each query after the first, from the read cache).`,
  '',
  '| query | answer | bytes | median ms |',
  '|---|---:|---:|---:|',
  `| ping (floor) | | ${ping.bytes} | ${fmt(ping.ms, 2)} |`,
  `| history/history_during_period, 24 h at 1/s (with attributes) | ${points.toLocaleString('en')} states | ${history.bytes.toLocaleString('en')} | ${fmt(history.ms, 1)} |`,
  `| the same, minimal_response + no_attributes | | ${minimal.bytes.toLocaleString('en')} | ${fmt(minimal.ms, 1)} |`,
  `| recorder/statistics_during_period, 7 days hourly, ${SENSORS} sensors | ${statRows.toLocaleString('en')} rows | ${stats.bytes.toLocaleString('en')} | ${fmt(stats.ms, 1)} |`,
  '',
  ...targets.map((t) => `- ${t.target}: ${t.text} (${t.met ? 'met' : 'missed'})`),
];
console.log(lines.join('\n'));
writeFileSync(
  join(BENCH, 'out', 'history-query.json'),
  `${JSON.stringify({ benchmark: 'history-query', ping, history: { ms: history.ms, bytes: history.bytes, points }, minimal: { ms: minimal.ms, bytes: minimal.bytes }, stats: { ms: stats.ms, rows: statRows }, targets }, null, 2)}\n`,
);
