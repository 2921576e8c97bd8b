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
// Also next to the build (dist/.builds/<id>/code-cache/, outside what a release packs), where it can be written (a
// checkout; not /opt under the unit): a hub on a new data directory then starts from what another one compiled.
const buildCacheFile = cacheFile === undefined ? undefined : codeCacheFile(join(dirname(BUNDLE), '..'), BUNDLE, process.execArgv);
const { script, hasOwn, hasShared, accepted } = sourceMaps
  ? { script: undefined, hasOwn: false, hasShared: false, accepted: false }
  : compileCached(cacheFile, buildCacheFile);
if (process.env.HEARTH_DEBUG && cacheFile !== undefined) {
  const status = accepted ? (hasOwn ? 'accepted' : 'accepted from the build') : hasOwn ? 'rejected' : 'none';
  process.stderr.write(`hearth: code cache ${cacheFile}: ${status}\n`);
}
// Written where it was missing, damaged or refused by V8, once the hub serves (serve.ts says when).
const writeOwn = cacheFile !== undefined && (!hasOwn || !accepted);
const writeShared = buildCacheFile !== undefined && !hasOwn && (!hasShared || !accepted);
if (script !== undefined && (writeOwn || writeShared)) {
  process.once(CODE_CACHE_MOMENT, (writes: Promise<void>[] | undefined) => {
    const data = script.createCachedData();
    if (writeOwn && cacheFile !== undefined) {
      const own = writeCodeCache(cacheFile, data).catch((err: unknown) => {
        // Only the next start's speed depends on it: said once, and the hub carries on.
        process.stderr.write(`hearth: cannot keep the compiled code for the next start in ${cacheFile}: ${String(err)}\n`);
      });
      writes?.push(own);
    }
    // Best effort: a build folder the hub may not write to is the usual case under systemd.
    if (writeShared && buildCacheFile !== undefined) writes?.push(writeCodeCache(buildCacheFile, data).catch(() => {}));
  });
}
if (script !== undefined) {
  const module = { exports: {} };
  (script.runInThisContext() as (...a: unknown[]) => void)(module.exports, createRequire(BUNDLE), module, BUNDLE, dirname(BUNDLE));
}

/** Compiles with the data directory's cache, else the build's; the bytes are not kept once compiled (1.4 MB). */
function compileCached(
  file: string | undefined,
  buildFile: string | undefined,
): { script: Script; hasOwn: boolean; hasShared: boolean; accepted: boolean } {
  const own = file === undefined ? undefined : readCodeCache(file);
  const shared = own !== undefined || buildFile === undefined ? undefined : readCodeCache(buildFile);
  const script = compile(own ?? shared);
  const accepted = (own ?? shared) !== undefined && script.cachedDataRejected !== true;
  return { script, hasOwn: own !== undefined, hasShared: shared !== undefined, accepted };
}

/**
 * The bundle as Node wraps a CommonJS module, compiled with `cachedData` when given. Its own dynamic imports (packages
 * loaded only with their section) go through Node's loader from here, as the bundle's own would.
 */
function compile(cachedData: Buffer | undefined): Script {
  // ASCII (scripts/bundle.mjs makes sure): read as Latin-1, a copy of its bytes rather than a UTF-8 decode.
  const source = readFileSync(BUNDLE, 'latin1').replace(/^#!.*/, '');
  return new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: BUNDLE,
    cachedData,
    importModuleDynamically: ((specifier: string) => import(specifier)) as never,
  });
}
