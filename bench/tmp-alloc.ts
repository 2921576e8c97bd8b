import { mkdtemp } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as LoadModule from '../src/config/load.js';
import { silentLogger } from '../src/core/log.js';
import type * as HubModule from '../src/hub.js';
import { BENCH_LIGHT, entitiesYaml } from './configs.js';
import { wrk } from './wrk.js';

const dist = new URL('../dist/src/', import.meta.url);
const { Hub, SECTION_VALIDATORS } = (await import(new URL('hub.js', dist).href)) as typeof HubModule;
const { parseConfigText } = (await import(new URL('config/load.js', dist).href)) as typeof LoadModule;
const hub = await Hub.start({
  config: parseConfigText(entitiesYaml(1000), null, SECTION_VALIDATORS),
  dataDir: await mkdtemp(join(tmpdir(), 'ha-')),
  log: silentLogger,
  host: '127.0.0.1',
  port: 0,
});
const owner = await hub.auth.ensureOwner('Bench');
const token = await hub.auth.createToken(owner.id, 'x');
const port = hub.port;
const post = { port, path: '/api/services/light/toggle', method: 'POST' as const, body: JSON.stringify({ entity_id: BENCH_LIGHT }), token };
await wrk({ ...post, seconds: 1 });
const s = new Session();
s.connect();
await s.post('HeapProfiler.startSampling', {
  samplingInterval: 256,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
} as never);
const r = await wrk({ ...post, seconds: 3 });
const { profile } = (await s.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: N } };
type N = { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: N[] };
const by = new Map<string, number>();
const walk = (n: N) => {
  const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/.*\/(dist|src|node_modules)\//, '$1/')}:${n.callFrame.lineNumber}`;
  by.set(k, (by.get(k) ?? 0) + n.selfSize);
  for (const c of n.children) walk(c);
};
walk(profile.head);
const total = [...by.values()].reduce((a, b) => a + b, 0);
const reqs = r.requestsPerSecond * 3;
console.log('req/s', r.requestsPerSecond, 'bytes/req', (total / reqs).toFixed(0));
for (const [k, v] of [...by.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30))
  console.log((v / reqs).toFixed(0), ((v / total) * 100).toFixed(1) + '%', k);
await hub.stop();
process.exit(0);
