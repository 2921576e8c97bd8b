import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { writeFileAtomic } from '../../src/storage/atomic-file.js';
import { fileStamp, fileStampSync, WatchedFile } from '../../src/storage/watched-file.js';
import { memoryLogger } from '../helpers/logger.js';

const DEADLINE_MS = 5000;

type Teardown = { teardown(fn: () => unknown): void };

/**
 * A started watch on `name` (stopped when the test ends) that counts its calls and can be awaited for the
 * next one, within a deadline.
 */
function counted(t: Teardown, dir: string, name: string, log = memoryLogger()) {
  let calls = 0;
  let wake: (() => void) | undefined;
  const watched = new WatchedFile(
    dir,
    name,
    () => {
      calls++;
      wake?.();
    },
    { log, withoutWatch: 'changes need a restart' },
  );
  watched.start();
  t.teardown(() => watched.stop());
  return {
    watched,
    log,
    get calls() {
      return calls;
    },
    next(): Promise<void> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no change of ${name} within ${DEADLINE_MS} ms`)), DEADLINE_MS);
        wake = () => {
          clearTimeout(timer);
          wake = undefined;
          resolve();
        };
      });
    },
  };
}

async function tempDir(t: Teardown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-watched-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

t.test('an atomic replace by another writer is reported once, after its burst of events', async (t) => {
  const dir = await tempDir(t);
  const w = counted(t, dir, 'auth.json');
  const changed = w.next();
  // A temp file written and renamed over the name: several events, one report.
  await writeFileAtomic(join(dir, 'auth.json'), '{"a":1}', 0o600);
  await changed;
  t.equal(w.calls, 1);
});

t.test('changes to other files in the directory are not reported', async (t) => {
  const dir = await tempDir(t);
  const w = counted(t, dir, 'auth.json');
  const witness = counted(t, dir, 'other.json');
  const seen = witness.next();
  await writeFile(join(dir, 'other.json'), '{}');
  // The witness has seen the other file's events settle: the watch on auth.json had them too, and ignored them.
  await seen;
  t.equal(w.calls, 0);
});

t.test('stop() drops a report still settling and ends the watch', async (t) => {
  const dir = await tempDir(t);
  const w = counted(t, dir, 'auth.json');
  const witness = counted(t, dir, 'auth.json');
  const first = witness.next();
  await writeFile(join(dir, 'auth.json'), '1');
  w.watched.stop();
  await first;
  const second = witness.next();
  await writeFile(join(dir, 'auth.json'), '2');
  await second;
  t.equal(w.calls, 0, 'nothing reported after stop, neither the pending report nor a later change');
});

t.test('a directory that cannot be watched is logged with what it costs, and start() does not throw', async (t) => {
  const dir = await tempDir(t);
  const w = counted(t, join(dir, 'missing'), 'bans.json');
  t.same(
    w.log.entries.map((e) => [e.level, e.msg]),
    [['warn', 'cannot watch bans.json; changes need a restart']],
  );
});

t.test('a file stamp tells versions apart, including a replace with the same content', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'credentials.json');
  t.equal(fileStampSync(path), undefined, 'no file, no stamp');
  t.equal(await fileStamp(path), undefined);
  await writeFileAtomic(path, '{"same":true}', 0o600);
  const first = fileStampSync(path);
  t.type(first, 'string');
  t.equal(await fileStamp(path), first, 'the sync and async stamps agree');
  t.equal(fileStampSync(path), first, 'unchanged file, same stamp');
  await writeFileAtomic(path, '{"same":true}', 0o600);
  t.not(fileStampSync(path), first, 'an atomic replace is a new inode, even with the same bytes');
});
