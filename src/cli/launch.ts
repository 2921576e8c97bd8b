#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { CODE_CACHE_MOMENT, codeCacheFile, readCodeCache, serveDataDir, writeCodeCache } from './code-cache.js';
import { setLaunchV8Flags } from './serve-flags.js';
import { DEFAULT_DATA_DIR } from './usage.js';

/**
 * The built `hearth` command (dist/hearth/cli.js): runs the bundled CLI (dist/hearth/hearth.cjs, scripts/bundle.mjs)
 * through V8's code cache. A start of the hub is mostly V8 parsing and compiling its code for the first time; with
 * the bytecode of the previous start of the same build it does neither (code-cache.ts keeps it in the data
 * directory): the demo is ready in about two thirds of the time (bench/RESULTS.md). The CLI is one CommonJS script
 * because Node 20 compiles ES modules with no way to hand V8 a cache.
 */
const BUNDLE = join(dirname(fileURLToPath(import.meta.url)), 'hearth.cjs');

const args = process.argv.slice(2);
const serving = args[0] === 'serve' && !args.includes('--help') && !args.includes('-h');
// Before the compile: V8 takes a cache only under the flags it was made with, and serve sets these (serve-flags.ts).
if (serving) setLaunchV8Flags(process.execArgv, process.env.NODE_OPTIONS);
// Node maps stack traces through source maps only for what its own loader compiled: with --enable-source-maps the
// bundle is required as any CommonJS file, and starts without the cache.
const sourceMaps = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].includes('--enable-source-maps');
if (sourceMaps) createRequire(import.meta.url)(BUNDLE);
const cacheFile =
  serving && !sourceMaps ? codeCacheFile(serveDataDir(args.slice(1), DEFAULT_DATA_DIR), BUNDLE, process.execArgv) : undefined;
const { script, cached } = sourceMaps ? { script: undefined, cached: 'none' } : compile(cacheFile);
if (process.env.HEARTH_DEBUG && cacheFile !== undefined) {
  process.stderr.write(`hearth: code cache ${cacheFile}: ${cached}\n`);
}
if (script !== undefined && cacheFile !== undefined && cached !== 'accepted') {
  process.once(CODE_CACHE_MOMENT, () => {
    writeCodeCache(cacheFile, script.createCachedData()).catch((err: unknown) => {
      // Only the next start's speed depends on it: said once, and the hub carries on.
      process.stderr.write(`hearth: cannot keep the compiled code for the next start in ${cacheFile}: ${String(err)}\n`);
    });
  });
}
if (script !== undefined) {
  const module = { exports: {} };
  (script.runInThisContext() as (...a: unknown[]) => void)(module.exports, createRequire(BUNDLE), module, BUNDLE, dirname(BUNDLE));
}

/**
 * The bundle as Node wraps a CommonJS module, compiled with the cache when there is one. Its own dynamic imports
 * (packages loaded only with their section) go through Node's loader from here, as the bundle's own would. The
 * cache's bytes are not kept once compiled (1.4 MB).
 */
function compile(file: string | undefined): { script: Script; cached: 'none' | 'accepted' | 'rejected' } {
  const cachedData = file === undefined ? undefined : readCodeCache(file);
  const source = readFileSync(BUNDLE, 'utf8').replace(/^#!.*/, '');
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: BUNDLE,
    cachedData,
    importModuleDynamically: ((specifier: string) => import(specifier)) as never,
  });
  return { script, cached: cachedData === undefined ? 'none' : script.cachedDataRejected === true ? 'rejected' : 'accepted' };
}
