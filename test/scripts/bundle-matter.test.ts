// What loading the built hub's matter.js (hearth/matter.cjs, scripts/bundle-matter.mjs) brings of node's own modules:
// none of its HTTP stack. matter.js's HTTP endpoint (its remote API, which hearth does not serve) imported http and
// https, and its request class extends the global `Request`, whose first read loads undici with tls, http2, zlib and
// worker_threads: some 5 MB of RSS a hub that serves HTTP with uWebSockets.js does not otherwise pay
// (scripts/matter-patches-load.mjs).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { MATTER_NAMES } from '../../src/matter/lib.js';
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

// lib.ts reads matter.js's package indexes through three variables; the bundle exports of those indexes only the names
// in MATTER_NAMES, so a name read but not listed is undefined in the built hub alone (the sources import all of it).
const INDEX_OF_VARIABLE = new Map([
  ['main', 'main'],
  ['nodejs', 'nodejs'],
  ['protocol', 'main/protocol'],
]);

t.test('the bundle exports every name lib.ts reads of the package indexes', async (t) => {
  const source = readFileSync(join(packageRoot(), 'src', 'matter', 'lib.ts'), 'utf8');
  const read = new Map<string, Set<string>>();
  for (const [, variable, name] of source.matchAll(/\b(main|nodejs|protocol)\.([A-Z]\w*)/g)) {
    const index = INDEX_OF_VARIABLE.get(variable as string) as string;
    read.set(index, (read.get(index) ?? new Set()).add(name as string));
  }
  t.ok(read.get('main/protocol')?.has('SessionManager'), "the scan finds lib.ts's reads (protocol.SessionManager)");
  for (const [index, names] of read)
    t.same(
      [...names].filter((n) => !MATTER_NAMES[index]?.includes(n)),
      [],
      `${index}: in MATTER_NAMES`,
    );

  if (!existsSync(BUNDLE)) return t.fail(`${BUNDLE} is missing: run \`npm run build\` (make test does)`);
  const script = `
    const bundle = require(${JSON.stringify(BUNDLE)});
    const names = ${JSON.stringify(MATTER_NAMES)};
    Promise.all(Object.entries(names).map(async ([index, list]) => {
      const module = await bundle.load(index);
      return list.filter((name) => module[name] === undefined).map((name) => index + ': ' + name);
    })).then((missing) => process.stdout.write(JSON.stringify(missing.flat())));`;
  const out = execFileSync('env', ['-u', 'NODE_OPTIONS', process.execPath, '-e', script], { encoding: 'utf8' });
  t.same(JSON.parse(out), [], 'each name of MATTER_NAMES is defined in the built bundle');
});
