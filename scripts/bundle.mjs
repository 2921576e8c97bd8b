// The shipped entry point: tsc's output (a build's src/) bundled by esbuild into its hearth/, which dist/hearth/
// leads to (scripts/build.mjs runs both, scripts/dist-builds.mjs says where they go). The CLI is one CommonJS
// script, hearth.cjs: Node 20 compiles ES modules one file at a time and with no way to give V8 a code cache, and a
// start of the hub is mostly V8 compiling its code for the first time. cli.js (src/cli/launch.ts) compiles
// hearth.cjs with the bytecode the previous start of the same build kept (src/cli/code-cache.ts): the demo is ready
// in about two thirds of the time (bench/RESULTS.md). Every module still runs only when first imported, so
// `hearth token` does not start the server.
// Packages with native code or loaded only for configured hardware stay outside, loaded from
// node_modules as before. tsc still type-checks and emits dist/src/, which the bundle is made from, so
// source maps point at the TypeScript sources. Whitespace is dropped and identifiers are
// shortened (property names stay): V8 keeps the source text of every loaded module in memory, and the two
// keep about 0.9 MB of it out (1.9 MB of chunks became 1.4; RSS after the flood bench about 0.5 MB lower).
// esbuild's keepNames would keep function and class names, but it defines a `name` property on every function
// at load: the same bench read 1 MB more. Nothing here reads a function's name; errors name themselves
// (`this.name`), and the logger reports that name as the error's type (src/util/logger.ts).

import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

// mqtt.js goes into a file of its own (hearth/mqtt.cjs), loaded only with an `mqtt:` section: one whitespace-free file
// instead of some hundred modules from node_modules keeps about half a MB of source text and module records out of
// memory. The source imports it through a variable (so tsc never reads mqtt.js's declarations, which need DOM
// types); here that import becomes a require of that file.
const MQTT_FILE = './mqtt.cjs';
const mqttFile = (buildDir) => ({
  name: 'mqtt-file',
  setup(b) {
    const file = join(buildDir, 'src', 'mqtt', 'connection.js');
    b.onLoad({ filter: /[\\/]mqtt[\\/]connection\.js$/ }, async (args) => {
      if (args.path !== file) return undefined;
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import(MQTT_PACKAGE)')) throw new Error('src/mqtt/connection.ts no longer imports mqtt.js through MQTT_PACKAGE');
      return {
        contents: text.replace('import(MQTT_PACKAGE)', `Promise.resolve().then(() => require(${JSON.stringify(MQTT_FILE)}))`),
        loader: 'js',
        resolveDir: dirname(args.path),
      };
    });
    b.onResolve({ filter: /^\.\/mqtt\.cjs$/ }, (args) => ({ path: args.path, external: true }));
  },
});

// Native addons, the optional hardware packages and Zigbee's (herdsman and the converters, some 40 MB that load their
// vendor files lazily and are patched by the tests' fake adapter), and the HomeKit and Matter packages (loaded only
// with their sections; test/cli/optional-packages.test.ts checks the demo loads none): resolved at run time, only
// when used.
const EXTERNAL = [
  'uWebSockets.js',
  'serialport',
  '@serialport/*',
  'onoff',
  'i2c-bus',
  'zigbee-herdsman',
  'zigbee-herdsman-converters',
  'hap-nodejs',
  '@homebridge/ciao',
  '@matter/*',
  'tweetnacl',
];

// hearth.cjs runs as a vm.Script (for its code cache), where Node 20 has no loader for `import()`: a dynamic import of
// an outside package (all of them CommonJS) becomes a require, which the script's wrapper gives it. The specifier is
// a string of the list above, or one of the constants the sources import such packages through (matter.js's modules
// also as `${MATTER_MODULE}${path}`).
const DYNAMIC_IMPORT =
  /\bimport\((["'](?:uWebSockets\.js|serialport|@serialport\/[^"']+|onoff|i2c-bus|zigbee-herdsman(?:-converters)?(?:\/[^"']+)?|hap-nodejs|@homebridge\/ciao|@matter\/[^"']+|tweetnacl)["']|ONOFF|MATTER_[A-Z]+|`\$\{MATTER_MODULE\}\$\{path\}`)\)/g;
const outsideImports = (buildDir) => ({
  name: 'outside-imports',
  setup(b) {
    const src = join(buildDir, 'src');
    const drivers = join(buildDir, 'drivers');
    b.onLoad({ filter: /\.js$/ }, async (args) => {
      if (!args.path.startsWith(src) && !args.path.startsWith(drivers)) return undefined;
      const text = await readFile(args.path, 'utf8');
      if (!DYNAMIC_IMPORT.test(text)) return undefined;
      DYNAMIC_IMPORT.lastIndex = 0;
      return {
        contents: text.replace(DYNAMIC_IMPORT, (_m, spec) => `Promise.resolve().then(() => require(${spec}))`),
        loader: 'js',
        resolveDir: dirname(args.path),
      };
    });
  },
});

const COMMON = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  minifyWhitespace: true,
  minifyIdentifiers: true,
};

/**
 * Bundles `buildDir`/src/ (tsc's output) into `buildDir`/hearth/: the CLI as one CommonJS script (hearth.cjs), which
 * cli.js (src/cli/launch.ts) runs through V8's code cache; mqtt.js as mqtt.cjs.
 */
export async function bundle(buildDir) {
  const outdir = join(buildDir, 'hearth');
  await build({
    ...COMMON,
    entryPoints: [join(buildDir, 'src', 'cli.js')],
    outfile: join(outdir, 'hearth.cjs'),
    format: 'cjs',
    plugins: [mqttFile(buildDir), outsideImports(buildDir)],
    external: EXTERNAL,
    // The sources are ES modules: import.meta.url is this file's URL, as it was each module's.
    define: { 'import.meta.url': '__hearthFileUrl' },
    banner: { js: "const __hearthFileUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
  // The launcher is CommonJS too, marked so by hearth/package.json (the repository's says "type": "module"): Node runs
  // a CommonJS entry point without its ES module loader, whose start (some ten more of Node's own modules, and an
  // ES module view of each builtin imported, which reads every lazy export: node:fs's streams, node:crypto's
  // webcrypto) cost the demo's start about a tenth of its time (bench/RESULTS.md, Startup).
  await build({
    ...COMMON,
    entryPoints: [join(buildDir, 'src', 'cli', 'launch.js')],
    outfile: join(outdir, 'cli.js'),
    format: 'cjs',
    define: { 'import.meta.url': '__hearthFileUrl' },
    banner: { js: "const __hearthFileUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
  writeFileSync(join(outdir, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
  await build({
    ...COMMON,
    entryPoints: [createRequire(import.meta.url).resolve('mqtt')],
    outfile: join(outdir, MQTT_FILE),
    format: 'cjs',
  });

  // V8 keeps every loaded module's source text, one byte a character only while all of it is Latin-1: a single
  // character beyond (a typographic quote in a tagged template, which esbuild cannot escape) stores the whole
  // chunk at two bytes a character, 250 KB more for the hub's. Such text is written as \u escapes instead. The hub's
  // script is plain ASCII: the launcher reads it as Latin-1, which is a copy of its bytes (decoding 1.4 MB of UTF-8
  // took a few milliseconds of every start), and the same text only while no byte is beyond ASCII.
  for (const name of readdirSync(outdir)) {
    if (!name.endsWith('.js') && !name.endsWith('.cjs')) continue;
    const text = readFileSync(join(outdir, name), 'utf8');
    const [beyond, what] = name === 'hearth.cjs' ? [/[\u0080-\uffff]/, 'ASCII'] : [/[\u0100-\uffff]/, 'Latin-1'];
    const at = text.search(beyond);
    if (at >= 0) {
      const line = text.slice(0, at).split('\n').length;
      throw new Error(
        `hearth/${name}:${line}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 10))} has a character beyond ${what}; write it as a \\u escape (or an HTML entity) in the source`,
      );
    }
  }
  // The bin link's target, run directly by `npx hearth`.
  chmodSync(join(outdir, 'cli.js'), 0o755);
}
