/**
 * What the flood benchmark (bench/memory-flood.ts) drives and reads: light toggles over keep-alive REST connections,
 * paced or as fast as the hub answers, and where a process's memory is, read from /proc.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { monoMs, sleep } from './procs.js';

export interface Toggles {
  readonly requests: number;
  readonly errors: number;
  readonly seconds: number;
}

/**
 * `total` POSTs of light/toggle over `connections` keep-alive connections, the bodies in turn (each a state change
 * sent to every subscriber). Without `rate`, each connection sends its next once answered (as fast as the hub
 * answers); with it, a batch every 10 ms keeps `rate` per second (1,000 changes/s to 100 clients is the fan-out
 * benchmark's standard load, 100,000 events/s).
 */
export async function toggles(options: {
  port: number;
  token: string;
  bodies: readonly string[];
  total: number;
  connections: number;
  rate?: number;
}): Promise<Toggles> {
  const { port, token, bodies, total, connections, rate } = options;
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  let sent = 0;
  let errors = 0;
  const one = (body: string) =>
    new Promise<void>((resolve) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/api/services/light/toggle',
          method: 'POST',
          agent,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        },
        (res) => {
          if (res.statusCode !== 200) errors++;
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(body);
    });
  const t0 = monoMs();
  if (rate === undefined) {
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (sent < total) await one(bodies[sent++ % bodies.length] as string);
      }),
    );
  } else {
    const inFlight: Promise<void>[] = [];
    while (sent < total) {
      const due = Math.min(total, Math.floor(((monoMs() - t0) / 1000) * rate));
      for (; sent < due; sent++) inFlight.push(one(bodies[sent % bodies.length] as string));
      await sleep(10);
    }
    await Promise.all(inFlight);
  }
  agent.destroy();
  return { requests: sent, errors, seconds: (monoMs() - t0) / 1000 };
}

/** VmHWM: the process's peak RSS so far, MB. */
export function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

export interface AnonSplit {
  /** The main malloc arena (`[heap]`, grown with brk): uWS's buffers, V8's zones, Node's native objects. */
  readonly mallocMb: number;
  /** V8's heap pages (256 KB anonymous mappings). */
  readonly v8PagesMb: number;
  /** Other anonymous mappings: blocks glibc mapped on their own, the second arena, stacks. */
  readonly otherMb: number;
}

/** Where the anonymous memory is, from /proc/<pid>/smaps. */
export function anonSplit(pid: number): AnonSplit {
  let malloc = 0;
  let pages = 0;
  let other = 0;
  let name: string | undefined;
  let size = 0;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const mapping = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (mapping !== null) {
      name = mapping[3] ?? '';
      size = Number.parseInt(mapping[2] as string, 16) - Number.parseInt(mapping[1] as string, 16);
    } else if (line.startsWith('Rss:') && name !== undefined) {
      const kb = Number(line.split(/\s+/)[1]);
      if (name === '[heap]') malloc += kb;
      else if (name === '' && size === 256 * 1024) pages += kb;
      else if (name === '') other += kb;
    }
  }
  return { mallocMb: malloc / 1024, v8PagesMb: pages / 1024, otherMb: other / 1024 };
}
