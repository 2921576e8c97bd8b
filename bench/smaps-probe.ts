// temporary probe (not committed)
import { readFileSync } from 'node:fs';
import { makeDataDir, startHub, UNIT_NODE_ARGS, sleep } from './procs.js';
function smaps(pid: number) {
  const by = new Map<string, { rss: number; anon: number }>();
  let name = '';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const m = /^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (m) { name = `${m[2] || '[anon]'} ${m[1]}`; continue; }
    if (line.startsWith('Rss:')) { const e = by.get(name) ?? { rss: 0, anon: 0 }; e.rss += Number(line.split(/\s+/)[1]); by.set(name, e); }
    if (line.startsWith('Anonymous:')) { const e = by.get(name) ?? { rss: 0, anon: 0 }; e.anon += Number(line.split(/\s+/)[1]); by.set(name, e); }
  }
  return [...by].sort((a, b) => b[1].rss - a[1].rss).slice(0, 25).map(([k, v]) => `${(v.rss / 1024).toFixed(1)} MB (anon ${(v.anon / 1024).toFixed(1)}) ${k}`).join('\n');
}
const data = await makeDataDir();
const hub = await startHub({ config: null, data, nodeArgs: UNIT_NODE_ARGS });
await sleep(Number(process.env.WAIT ?? 3000));
console.log(readFileSync(`/proc/${hub.child.pid}/status`, 'utf8').split('\n').filter((l) => /Vm(RSS|HWM)|Rss/.test(l)).join('\n'));
console.log(smaps(hub.child.pid as number));
await hub.stop();
await data.remove();
