/**
 * Where the Matter bridge's memory goes: the built hub with N bridged virtual entities (MATTER_ENTITIES, default
 * 100; 0 runs the hub without a `matter:` section), settled, then /proc/<pid>/smaps by mapping and, with
 * MATTER_SNAPSHOT=<file>, a heap snapshot (--heapsnapshot-signal) and its live size by kind of object (the names are
 * the bundle's, minified); MATTER_PAGE=1 views the /matter page (its QR code) first. Runs in a network namespace as
 * bench/matter.ts.
 */
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rerunInNetns } from '../test/helpers/netns.js';
import { makeDataDir, PI_NODE_ARGS, ROOT, sleep, startHub } from './procs.js';
import { settle } from './settle.js';

rerunInNetns('bench/matter-breakdown.ts', ROOT);

const N = Number(process.env.MATTER_ENTITIES ?? 100);
const SNAPSHOT = process.env.MATTER_SNAPSHOT;
const lines = ['hub:', '  name: Bench', '  latitude: 52.37', '  longitude: 4.89', '  time_zone: UTC', 'virtual:'];
for (let i = 0; i < Math.max(N, 100) / 2; i++) lines.push(`  - {platform: light, id: l${i}, name: Light ${i}, color_modes: [brightness]}`);
for (let i = 0; i < Math.max(N, 100) / 2; i++) lines.push(`  - {platform: switch, id: s${i}, name: Switch ${i}}`);
if (N > 0) {
  const half = N / 2;
  const ids = [...Array(half).keys()].flatMap((i) => [`light.l${i}`, `switch.s${i}`]);
  lines.push('matter:', '  name: Bench Bridge', '  filter:', `    include_entities: [${ids.join(', ')}]`);
}
const data = await makeDataDir();
const file = join(data.dir, 'configuration.yaml');
writeFileSync(file, `${lines.join('\n')}\n`);
const nodeArgs = [...PI_NODE_ARGS, ...(SNAPSHOT === undefined ? [] : ['--heapsnapshot-signal=SIGUSR2'])];
const hub = await startHub({ config: file, data, nodeArgs });
const pid = hub.child.pid ?? 0;
let readyAt = performance.now();
if (N > 0) {
  const last = join(data.dir, 'matter', 'bridge', `root.parts.aggregator.parts.switch-s${N / 2 - 1}.__number__`);
  while (!existsSync(last)) await sleep(50);
  readyAt = performance.now();
}
if (process.env.MATTER_PAGE === '1' && N > 0) {
  // GET /matter as an admin (a web session from the bench's token, as the Companion app's web view gets one): the page
  // draws the pairing QR code with matter.js's encoder.
  const base = `http://127.0.0.1:${hub.port}`;
  const session = await fetch(`${base}/auth/external/session`, {
    method: 'POST',
    headers: { authorization: `Bearer ${hub.token}`, 'x-requested-with': 'external-auth' },
  });
  const cookie = session.headers.get('set-cookie')?.split(';')[0] ?? '';
  const page = await (await fetch(`${base}/matter`, { headers: { cookie } })).text();
  if (!page.includes('<img class="qr" src="data:image/svg+xml;base64,')) throw new Error('GET /matter showed no QR code');
  console.log('GET /matter: the page has its QR code');
  readyAt = performance.now();
}
const reading = await settle(pid, readyAt, hub.readyMs, true);

// smaps: resident kB by what is mapped.
const groups = new Map<string, { rss: number; anon: number }>();
let name = '';
for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
  const head = /^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \d+\s*(.*)$/.exec(line);
  if (head) {
    const path = head[2] ?? '';
    name = path === '' ? 'anonymous' : path.startsWith('[') ? path : `${path.split('/').pop()} ${head[1]}`;
    continue;
  }
  const m = /^(Rss|Anonymous):\s+(\d+) kB/.exec(line);
  if (m === null) continue;
  const g = groups.get(name) ?? { rss: 0, anon: 0 };
  if (m[1] === 'Rss') g.rss += Number(m[2]);
  else g.anon += Number(m[2]);
  groups.set(name, g);
}
console.log(
  `entities ${N}: settled RSS ${reading.rssMb.toFixed(1)} MB, load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
);
for (const [k, g] of [...groups].sort((a, b) => b[1].rss - a[1].rss).slice(0, 12))
  console.log(`  ${k.padEnd(40)} rss ${(g.rss / 1024).toFixed(1)} MB, anonymous ${(g.anon / 1024).toFixed(1)} MB`);
const status = readFileSync(`/proc/${pid}/status`, 'utf8');
console.log(`  ${/RssAnon:.*|RssFile:.*/g[Symbol.match](status)?.join(', ')}`);

if (SNAPSHOT !== undefined) {
  // The hub writes it into its working directory, this one's.
  const cwd = process.cwd();
  const before = new Set(readdirSync(cwd));
  process.kill(pid, 'SIGUSR2');
  let written: string | undefined;
  const deadline = performance.now() + 60_000;
  while (written === undefined && performance.now() < deadline) {
    await sleep(500);
    written = readdirSync(cwd).find((f) => f.endsWith('.heapsnapshot') && !before.has(f));
    if (written !== undefined) {
      // Written once its size stops changing.
      let size = -1;
      while (size <= 0 || size !== statSync(join(cwd, written)).size) {
        size = statSync(join(cwd, written)).size;
        await sleep(1000);
      }
    }
  }
  if (written !== undefined) {
    renameSync(join(cwd, written), SNAPSHOT);
    summarise(SNAPSHOT);
  }
}
await hub.stop();
await data.remove();
process.exit(0);

/** The snapshot's live heap and its largest kinds of object (V8's type, and the constructor's name for objects). */
function summarise(file: string): void {
  const snapshot = JSON.parse(readFileSync(file, 'utf8')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [number, number, number];
  const bySize = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
    const type = types[snapshot.nodes[i + typeAt] ?? 0] ?? '?';
    const key = type === 'object' || type === 'closure' ? (snapshot.strings[snapshot.nodes[i + nameAt] ?? 0] ?? '?') : `(${type})`;
    const size = snapshot.nodes[i + sizeAt] ?? 0;
    total += size;
    bySize.set(key, (bySize.get(key) ?? 0) + size);
  }
  console.log(`heap snapshot ${file}: ${(total / 1048576).toFixed(2)} MB live; the largest kinds:`);
  for (const [key, size] of [...bySize].sort((a, b) => b[1] - a[1]).slice(0, 12))
    console.log(`  ${key.slice(0, 40).padEnd(40)} ${(size / 1048576).toFixed(2)} MB`);
}
