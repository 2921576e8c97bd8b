// What loading the built hub's matter.js (hearth/matter.cjs, scripts/bundle-matter.mjs) brings of node's own modules:
// none of its HTTP stack. matter.js's HTTP endpoint (its remote API, which hearth does not serve) imported http and
// https, and its request class extends the global `Request`, whose first read loads undici with tls, http2, zlib and
// worker_threads: some 5 MB of RSS a hub that serves HTTP with uWebSockets.js does not otherwise pay
// (scripts/matter-patches-load.mjs).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { packageRoot } from '../../src/util/paths.js';

const BUNDLE = join(packageRoot(), 'dist', 'hearth', 'matter.cjs');
const HTTP_STACK = /^NativeModule (internal\/deps\/undici\/undici|http|https|http2|tls|_http_server|_http_client)$/;

t.test("loading the bundle loads none of node's HTTP modules", async (t) => {
  if (!existsSync(BUNDLE)) return t.fail(`${BUNDLE} is missing: run \`npm run build\` (make test does)`);
  const script = `
    const before = new Set(process.moduleLoadList);
    require(${JSON.stringify(BUNDLE)});
    process.stdout.write(JSON.stringify(process.moduleLoadList.filter((m) => !before.has(m))));`;
  // A bare node: the test runner adds its preload to child processes' NODE_OPTIONS, and it loads modules of its own.
  const out = execFileSync('env', ['-u', 'NODE_OPTIONS', process.execPath, '-e', script], { encoding: 'utf8' });
  const loaded = JSON.parse(out) as string[];
  t.ok(loaded.includes('NativeModule dgram'), 'the bundle loaded (it takes node:dgram for its UDP)');
  t.same(
    loaded.filter((m) => HTTP_STACK.test(m)),
    [],
    'no undici, http, https, http2 or tls',
  );
});
