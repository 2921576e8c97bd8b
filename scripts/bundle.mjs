// The shipped entry point: the compiled dist/src/ bundled by esbuild into a few files in dist/hearth/.
// Node 20 loads ES modules one file at a time (resolve, read, compile, link, each asynchronous), and the
// hub is some two hundred of them plus the files of yaml and pino: bundled, the demo is ready in about
// three quarters of the time (bench/RESULTS.md, Startup). Subcommands stay separate chunks (`hearth
// token` does not load the server).
// Packages with native code or loaded only for configured hardware stay outside, loaded from
// node_modules as before. tsc still type-checks and emits dist/src/, which the bundle is made from, so
// source maps point at the TypeScript sources: `node --enable-source-maps dist/hearth/cli.js ...` prints
// stack traces with TypeScript file names and lines. Whitespace is dropped (names are kept): V8 keeps
// the source text of every loaded module in memory, and this saves about 0.5 MB of it on a Pi.

import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'hearth');
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: [join(root, 'dist', 'src', 'cli.js')],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  minifyWhitespace: true,
  // Native addons, the optional hardware packages and Zigbee's (herdsman and the converters, some 40 MB that
  // load their vendor files lazily and are patched by the tests' fake adapter), and mqtt.js (only with an mqtt:
  // section): resolved at run time, only when used.
  external: ['uWebSockets.js', 'serialport', '@serialport/*', 'onoff', 'i2c-bus', 'zigbee-herdsman', 'zigbee-herdsman-converters', 'mqtt'],
  // The CommonJS packages inside (yaml, pino) call require() for Node's own modules.
  banner: {
    js: "import { createRequire as __hearthCreateRequire } from 'node:module'; const require = __hearthCreateRequire(import.meta.url);",
  },
});
