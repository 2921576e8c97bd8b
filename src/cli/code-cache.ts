import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { writeFileAtomic } from '../storage/atomic-file.js';

/**
 * V8's code cache for the built hub (launch.ts): the bytecode of everything a start compiled, kept in the data
 * directory, so the next start of the same build deserializes it instead of parsing and compiling the hub again
 * (Node 20 has no compile cache of its own: module.enableCompileCache came with Node 22).
 *
 * One file per build, node and flags (the name says which: its key). V8 checks a cache's version and flags but takes
 * the source's length for its identity, so the key names the exact script file (its path in dist/.builds/ and its
 * size and time). A SHA-1 of the bytes after a short header is checked before V8 sees them: a torn or damaged file is
 * ignored (the start compiles as without a cache) and written anew.
 */

/**
 * The process event `hearth serve` emits once it serves and V8's flags are back to those it was compiled under. Its
 * argument is an array the listener adds its writes to: serve's start-up collection waits for them, since until
 * written the cache's bytes (some 3 MB with the copy written) are held, and a collection before that left them
 * resident until V8's next full one, often well into the first burst of state changes.
 */
export const CODE_CACHE_MOMENT = 'hearth:code-cache-moment';

const MAGIC = Buffer.from('hearth-code-cache-1\n');
const DIGEST_BYTES = 20;
/** The data directory's folder of what one start keeps for the next (config-cache.ts keeps its file there too). */
export const CODE_CACHE_FOLDER = 'code-cache';

/** The cache file for `script` run by this node with these flags, in `dataDir`. */
export function codeCacheFile(dataDir: string, script: string, execArgv: readonly string[]): string {
  const { size, mtimeMs } = statSync(script);
  const key = createHash('sha1')
    .update(JSON.stringify([script, size, mtimeMs, process.version, process.arch, execArgv]))
    .digest('hex')
    .slice(0, 16);
  return join(dataDir, CODE_CACHE_FOLDER, `hub-${key}.bin`);
}

/** The cached data in `file`, or undefined when there is none or it is damaged. */
export function readCodeCache(file: string): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  const start = MAGIC.length + DIGEST_BYTES;
  if (bytes.length <= start || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const data = bytes.subarray(start);
  const digest = createHash('sha1').update(data).digest();
  return digest.equals(bytes.subarray(MAGIC.length, start)) ? data : undefined;
}

/**
 * Writes `data` as `file` (atomically), then removes what else is there: the caches of other builds, and the
 * temporary file of a write that a stop cut short.
 */
export async function writeCodeCache(file: string, data: Buffer): Promise<void> {
  const digest = createHash('sha1').update(data).digest();
  await writeFileAtomic(file, Buffer.concat([MAGIC, digest, data]));
  const dir = dirname(file);
  for (const name of readdirSync(dir)) {
    if (name !== basename(file) && /^\.?hub-[0-9a-f]+\.bin(\.[0-9a-f]+\.tmp)?$/.test(name)) rmSync(join(dir, name), { force: true });
  }
}

/** The data directory `hearth serve <args>` uses (its --data, else its default), parsed as serve does. */
export function serveDataDir(args: readonly string[], defaultDir: string): string {
  let dir = defaultDir;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') break;
    if (arg === '--data' && i + 1 < args.length) dir = args[++i] as string;
    else if (arg.startsWith('--data=')) dir = arg.slice('--data='.length);
  }
  return dir;
}
