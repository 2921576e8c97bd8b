/**
 * The baseline of the REST benchmark: the same endpoints served with node:http in the most
 * straightforward way, as a first implementation would: states as plain objects in a Map, the URL parsed
 * with `new URL`, the token compared per request, and every answer `JSON.stringify`d when asked. It
 * starts from the states hearth served (the same entities and attributes), so both answer with the same data.
 *
 * Usage: node --import tsx bench/baseline/http-server.ts <states.json> <token>; prints `listening <port>`.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

interface PlainState {
  entity_id: string;
  state: string;
  attributes: Record<string, unknown>;
  last_changed: string;
  last_updated: string;
  context: { id: string; parent_id: string | null; user_id: string | null };
}

const [statesFile, token] = process.argv.slice(2) as [string, string];
const states = new Map<string, PlainState>();
for (const s of JSON.parse(readFileSync(statesFile, 'utf8')) as PlainState[]) states.set(s.entity_id, s);

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
    });
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

/** A light or switch toggled the plain way: flip the state, stamp the times, a new context. */
function toggle(entityId: string): PlainState | undefined {
  const old = states.get(entityId);
  if (old === undefined) return undefined;
  const now = new Date().toISOString().replace('Z', '+00:00');
  const next: PlainState = {
    ...old,
    state: old.state === 'on' ? 'off' : 'on',
    last_changed: now,
    last_updated: now,
    context: { id: randomBytes(16).toString('hex'), parent_id: null, user_id: null },
  };
  states.set(entityId, next);
  return next;
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.headers.authorization !== `Bearer ${token}`) {
    res.writeHead(401, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('401: Unauthorized');
    return;
  }
  const url = new URL(req.url ?? '/', 'http://localhost');
  const path = url.pathname;
  if (req.method === 'GET' && path === '/api/') return send(res, 200, { message: 'API running.' });
  if (req.method === 'GET' && path === '/api/states') return send(res, 200, [...states.values()]);
  const one = /^\/api\/states\/([^/]+)$/.exec(path);
  if (req.method === 'GET' && one) {
    const state = states.get(decodeURIComponent(one[1] as string));
    return state === undefined ? send(res, 404, { message: 'Entity not found.' }) : send(res, 200, state);
  }
  const service = /^\/api\/services\/([^/]+)\/([^/]+)$/.exec(path);
  if (req.method === 'POST' && service) {
    const data = JSON.parse((await readBody(req)) || '{}') as { entity_id?: string | string[] };
    const ids = Array.isArray(data.entity_id) ? data.entity_id : data.entity_id === undefined ? [] : [data.entity_id];
    const changed: PlainState[] = [];
    if (service[2] === 'toggle') {
      for (const id of ids) {
        const next = toggle(id);
        if (next !== undefined) changed.push(next);
      }
    }
    return send(res, 200, changed);
  }
  send(res, 404, { message: 'Not found.' });
}

const server = createServer((req, res) => {
  handle(req, res).catch(() => send(res, 400, { message: 'Bad request.' }));
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address !== null ? address.port : 0}`);
});
process.on('SIGTERM', () => process.exit(0));
