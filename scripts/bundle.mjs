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
import { bundleMatter, MATTER_FILE } from './bundle-matter.mjs';

// mqtt.js goes into a file of its own (hearth/mqtt.cjs), loaded only with an `mqtt:` section: one whitespace-free file
// instead of some hundred modules from node_modules keeps about half a MB of source text and module records out of
// memory. The source imports it through a variable (so tsc never reads mqtt.js's declarations, which need DOM
// types); here that import becomes a require of that file (SOURCE_EDITS).
const MQTT_FILE = './mqtt.cjs';

// HomeKit: hap-nodejs with the packages it runs (fast-srp, tweetnacl, node-persist, debug, tslib) goes into
// hearth/hap.cjs and ciao, its mDNS advertiser, into hearth/ciao.cjs, which zeroconf's announcer loads too (one copy
// and one module state per process, as from node_modules). Loaded only with a `homekit:` section (ciao.cjs also with
// `zeroconf:`). Two minified files instead of 96 modules from node_modules keep about 0.9 MB of source text that V8
// holds, and 94 module records, out of memory (docs/performance.md, "HomeKit bridge"). As src/homekit/load-hap.ts
// does from node_modules, the packages hap-nodejs and ciao require at load time and hearth never runs are left out
// (homekitPackages says why); hap-nodejs reads its version from its package.json at run time (require.resolve), which
// the bundle has written in instead. Minified, classes lose their names: hap-nodejs reads them only in serialize()
// (Homebridge's accessory cache, unused here) and in a warning's text.
const HAP_FILE = './hap.cjs';
const CIAO_FILE = './ciao.cjs';
const HOMEKIT_ABSENT = /^(source-map-support\/register|bonjour-hap|@homebridge\/dbus-native)$/;
const PACKAGE_VERSION = /JSON\.parse\(\(0, node_fs_1\.readFileSync\)\(require\.resolve\("(?:\.\.\/)+package\.json"\), "utf-8"\)\)/g;

/** esbuild plugin for hap.cjs and ciao.cjs: the absent packages, ciao's own file, hap-nodejs's version. */
const homekitPackages = {
  name: 'homekit-packages',
  setup(b) {
    b.onResolve({ filter: HOMEKIT_ABSENT }, (args) => ({ path: args.path, namespace: 'hearth-absent' }));
    b.onLoad({ filter: /.*/, namespace: 'hearth-absent' }, (args) => ({
      // source-map-support/register: its process-wide Error.prepareStackTrace is not hap-nodejs's or ciao's to install.
      // The advertisers other than ciao: an exports object that explains itself if hap-nodejs ever reaches for one.
      contents:
        args.path === 'source-map-support/register'
          ? ''
          : `module.exports = new Proxy(Object.create(null), { get(_t, key) {
  if (key === '__esModule' || typeof key === 'symbol') return undefined;
  throw new Error(${JSON.stringify(`hearth loads hap-nodejs without ${args.path} (it advertises with ciao): `)} + String(key) + ' is not available');
} });`,
      loader: 'js',
    }));
    // ciao's package entry is ciao.cjs; hap-nodejs's one deep import into it (a stateless name formatter) is bundled.
    b.onResolve({ filter: /^@homebridge\/ciao$/ }, (args) =>
      /[\\/]hap-nodejs[\\/]/.test(args.importer) ? { path: CIAO_FILE, external: true } : undefined,
    );
    b.onLoad({ filter: /[\\/]hap-nodejs[\\/]dist[\\/].*\.js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('package.json')) return undefined;
      const root = /^(.*[\\/]hap-nodejs)[\\/]dist[\\/]/.exec(args.path)?.[1] ?? '';
      const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
      const contents = text.replace(PACKAGE_VERSION, JSON.stringify({ version }));
      if (contents.includes('package.json'))
        throw new Error(`${args.path}: hap-nodejs reads its package.json in a way scripts/bundle.mjs does not replace`);
      return { contents, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

/** hap.cjs and ciao.cjs in `outdir`. */
async function bundleHomekit(outdir) {
  const require = createRequire(import.meta.url);
  const options = { ...COMMON, minifySyntax: true, format: 'cjs', charset: 'ascii', plugins: [homekitPackages] };
  await build({ ...options, entryPoints: [require.resolve('hap-nodejs')], outfile: join(outdir, HAP_FILE) });
  await build({ ...options, entryPoints: [require.resolve('@homebridge/ciao')], outfile: join(outdir, CIAO_FILE) });
}
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
  'uqr',
];

// hearth.cjs runs as a vm.Script (for its code cache), where Node 20 has no loader for `import()`: a dynamic import of
// an outside package (all of them CommonJS) becomes a require, which the script's wrapper gives it. The specifier is
// a string of the list above, or one of the constants the sources import such packages through.
const DYNAMIC_IMPORT =
  /\bimport\((["'](?:uWebSockets\.js|serialport|@serialport\/[^"']+|onoff|i2c-bus|zigbee-herdsman(?:-converters)?(?:\/[^"']+)?|hap-nodejs|@homebridge\/ciao|@matter\/[^"']+|tweetnacl|uqr)["']|ONOFF|MATTER_[A-Z]+|UQR)\)/g;
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

/**
 * What hearth.cjs's build changes in tsc's output: each source's import of a package that has a file of its own
 * beside hearth.cjs becomes a load of that file. The build fails when a source no longer has the text.
 */
const SOURCE_EDITS = [
  {
    file: join('mqtt', 'connection.js'),
    from: 'import(MQTT_PACKAGE)',
    to: `Promise.resolve().then(() => require(${JSON.stringify(MQTT_FILE)}))`,
  },
  { file: join('homekit', 'load-hap.js'), from: "const HAP_BUNDLE = '';", to: `const HAP_BUNDLE = ${JSON.stringify(HAP_FILE)};` },
  {
    file: join('matter', 'lib.js'),
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
    from: 'import(`${MATTER_SCOPE}${path}`)',
    to: `Promise.resolve().then(() => require(${JSON.stringify(MATTER_FILE)}).load(path))`,
  },
];
/** Imports in the sources that stay outside hearth.cjs as the files of their own: the announcer's ciao is ciao.cjs. */
const OWN_FILES = new Map([
  [MQTT_FILE, MQTT_FILE],
  [MATTER_FILE, MATTER_FILE],
  ['@homebridge/ciao', CIAO_FILE],
]);

/** esbuild plugin for hearth.cjs: SOURCE_EDITS and OWN_FILES. */
const sourceEdits = (buildDir) => ({
  name: 'source-edits',
  setup(b) {
    const edits = new Map(SOURCE_EDITS.map((edit) => [join(buildDir, 'src', edit.file), edit]));
    b.onLoad({ filter: /\.js$/ }, async (args) => {
      const edit = edits.get(args.path);
      if (edit === undefined) return undefined;
      const text = await readFile(args.path, 'utf8');
      if (!text.includes(edit.from)) throw new Error(`src/${edit.file} no longer has ${JSON.stringify(edit.from)}: see SOURCE_EDITS`);
      return { contents: text.replace(edit.from, edit.to), loader: 'js', resolveDir: dirname(args.path) };
    });
    const specifiers = [...OWN_FILES.keys()].map((k) => k.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
    b.onResolve({ filter: new RegExp(`^(${specifiers.join('|')})$`) }, (args) => ({ path: OWN_FILES.get(args.path), external: true }));
  },
});

const COMMON = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  minifyWhitespace: true,
  // HEARTH_READABLE=1 keeps identifiers, for heap snapshots that name matter.js's classes (docs/performance.md,
  // "Matter bridge"); not for a build that ships.
  minifyIdentifiers: process.env.HEARTH_READABLE !== '1',
};

/**
 * Bundles `buildDir`/src/ (tsc's output) into `buildDir`/hearth/: the CLI as one CommonJS script (hearth.cjs), which
 * cli.js (src/cli/launch.ts) runs through V8's code cache; mqtt.js as mqtt.cjs; hap-nodejs and ciao as hap.cjs and
 * ciao.cjs; matter.js as matter.cjs.
 */
export async function bundle(buildDir) {
  const outdir = join(buildDir, 'hearth');
  await build({
    ...COMMON,
    entryPoints: [join(buildDir, 'src', 'cli.js')],
    outfile: join(outdir, 'hearth.cjs'),
    format: 'cjs',
    plugins: [sourceEdits(buildDir), outsideImports(buildDir)],
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
  await bundleHomekit(outdir);
  await bundleMatter(buildDir, outdir, COMMON);

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
