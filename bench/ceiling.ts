/**
 * The ceiling of the REST benchmark: a bare uWS app that answers each benchmarked route with a body
 * computed before the run (the bytes hearth itself answered, so the same size) and the same status and
 * headers, doing nothing else. No hub can be faster on this machine with this library; hearth's figures
 * are read as a share of this one's.
 *
 * Usage: node --import tsx bench/ceiling.ts <routes.json>; prints `listening <port>`.
 */

import uWS from 'uWebSockets.js';
import { readFileSync } from 'node:fs';

export interface CeilingRoute {
  readonly method: 'get' | 'post';
  /** A uWS pattern such as /api/states/:entity_id. */
  readonly pattern: string;
  readonly status: string;
  readonly contentType: string;
  /** The body, base64. */
  readonly body: string;
}

const routes = JSON.parse(readFileSync(process.argv[2] as string, 'utf8')) as CeilingRoute[];
const app = uWS.App();
for (const r of routes) {
  const body = Buffer.from(r.body, 'base64');
  const answer = (res: uWS.HttpResponse): void => {
    res.writeStatus(r.status);
    // The headers hearth sends on every answer, so the ceiling writes as many bytes.
    res.writeHeader('Referrer-Policy', 'no-referrer');
    res.writeHeader('X-Content-Type-Options', 'nosniff');
    res.writeHeader('Content-Type', r.contentType);
    res.end(body);
  };
  // Inside the request callback uWS has already corked the socket.
  if (r.method === 'get') app.get(r.pattern, answer);
  else
    app.post(r.pattern, (res) => {
      // A POST is answered once its body is in, as any server must.
      let aborted = false;
      res.onAborted(() => {
        aborted = true;
      });
      res.onData((_chunk, isLast) => {
        if (isLast && !aborted) res.cork(() => answer(res));
      });
    });
}
app.any('/*', (res) => {
  res.writeStatus('404 Not Found').end('404: Not Found');
});
app.listen('127.0.0.1', 0, (socket) => {
  if (!socket) {
    console.error('ceiling: cannot listen');
    process.exit(1);
  }
  console.log(`listening ${uWS.us_socket_local_port(socket)}`);
});
process.on('SIGTERM', () => process.exit(0));
