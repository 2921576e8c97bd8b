import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import t, { type Test } from 'tap';
import { readCodeCache, serveDataDir, writeCodeCache } from '../../src/cli/code-cache.js';
import type { Teardown } from '../helpers/hub.js';
import { BUILT_CLI, ServeProcess } from './cli-process.js';

/**
 * The built hub keeps V8's compiled code in its data directory and starts from it next time (src/cli/launch.ts):
 * what a user sees is the same hub, started sooner; a damaged cache costs only itself.
 */

async function tempDir(t: Teardown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-code-cache-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** The cache files in the data directory, once there is one (polled, 20 s at most). */
async function cacheFiles(dataDir: string): Promise<string[]> {
  const dir = join(dataDir, 'code-cache');
  const until = Date.now() + 20_000;
  for (;;) {
    const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.bin')) : [];
    if (files.length > 0 || Date.now() > until) return files.map((f) => join(dir, f));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** One start of the built hub to serving and back; what its launcher said about the cache. */
async function startAndStop(t: Test, dataDir: string): Promise<string> {
  const hub = new ServeProcess(['--data', dataDir, '--host', '127.0.0.1', '--port', '0'], { HEARTH_DEBUG: '1' }, 'built');
  t.teardown(() => hub.kill());
  await hub.waitForLog('hearth started');
  await cacheFiles(dataDir);
  const stopped = await hub.stop('SIGTERM', 10_000);
  t.equal(stopped.code, 0, 'stops cleanly');
  return /hearth: code cache \S+: ([\w ]+)/.exec(hub.stderr)?.[1] ?? `no word in stderr: ${hub.stderr}`;
}

t.test('the second start of a build compiles from the cache the first one kept; a damaged cache is written anew', async (t) => {
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run \`npm run build\` (make test does)`);
  // The build's own copy (dist/.builds/<id>/code-cache/), kept by any hub started from this checkout: gone first.
  await rm(join(dirname(realpathSync(BUILT_CLI)), '..', 'code-cache'), { recursive: true, force: true });
  const data = await tempDir(t);
  t.equal(await startAndStop(t, data), 'none', 'the first start of a build has no cache');
  const [file] = await cacheFiles(data);
  t.ok(file, 'the first start kept its compiled code');
  t.equal(await startAndStop(t, data), 'accepted', 'the second start used it');

  const bytes = await readFile(file as string);
  bytes[bytes.length - 100] = (bytes[bytes.length - 100] as number) ^ 0xff;
  await writeFile(file as string, bytes);
  t.equal(await startAndStop(t, data), 'accepted from the build', "one bad byte: the data directory's cache is not used");
  t.equal(await startAndStop(t, data), 'accepted', 'it was written anew');
  t.equal(await startAndStop(t, await tempDir(t)), 'accepted from the build', "a new data directory starts from the build's");
});

t.test('the cache file: its checksum, and what replaces it', async (t) => {
  const dir = await tempDir(t);
  const file = join(dir, 'code-cache', 'hub-0123456789abcdef.bin');
  const data = Buffer.from('bytecode '.repeat(100));
  await writeCodeCache(file, data);
  t.same(readCodeCache(file), data, 'read back as written');
  t.equal(readCodeCache(join(dir, 'code-cache', 'hub-none.bin')), undefined, 'none there');
  await writeFile(file, (await readFile(file)).subarray(0, 40));
  t.equal(readCodeCache(file), undefined, 'a torn file is not used');

  const stale = join(dir, 'code-cache', '.hub-0123456789abcdef.bin.a1b2c3.tmp');
  await writeFile(stale, 'half');
  const other = join(dir, 'code-cache', 'hub-fedcba9876543210.bin');
  await writeCodeCache(other, data);
  t.same(readdirSync(join(dir, 'code-cache')), ['hub-fedcba9876543210.bin'], "another build's cache and a cut-short write are removed");
});

t.test('the data directory is the one serve uses', async (t) => {
  t.equal(serveDataDir([], './data'), './data');
  t.equal(serveDataDir(['--data', '/var/lib/hearth', '--port', '1'], './data'), '/var/lib/hearth');
  t.equal(serveDataDir(['--data=/srv/h'], './data'), '/srv/h');
});
