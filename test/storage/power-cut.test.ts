import t, { type Test } from 'tap';
import { silentLogger } from '../../src/core/log.js';
import { writeFileAtomic } from '../../src/storage/atomic-file.js';
import { appendFileOn, appendRecord, encodeHeader, encodeOldRecord, encodeRecord, type JournalEnd } from '../../src/storage/journal.js';
import { loadJournal } from '../../src/storage/journal-load.js';
import { COPIES_KEPT } from '../../src/storage/quarantine.js';
import { type DiskImage, PowerCut, PowerCutDisk } from '../fakes/power-cut-disk.js';

/**
 * The storage layer against a power cut at every step of its writes: every byte of a journal append, of a
 * journal's reset and of its repair, and of an atomic file replace (temp write, fsync, rename, directory fsync),
 * each followed by every state a journaling file system may come back with (test/fakes/power-cut-disk.ts).
 * After each: what is read back is what was acknowledged before the cut, or that plus the write in flight,
 * never anything else; no temp file or extra copy is left once it is read; and the next write works.
 */

const DIR = '/data/store';
const JOURNAL = `${DIR}/journal`;
const FILE = `${DIR}/registry.json`;

function record(n: number): Buffer {
  return Buffer.from(JSON.stringify({ seq: n, states: { [`light.l${n}`]: { state: n % 2 ? 'on' : 'off' } } }));
}

const text = (records: readonly Buffer[]): string => records.map((r) => r.toString()).join(' | ') || '(none)';

/** The journal's content with `records`, written as the stores write it (one generation). */
function journalOf(records: readonly Buffer[], salt = 0x5a17): Buffer {
  return records.length === 0 ? Buffer.alloc(0) : Buffer.concat([encodeHeader(salt), ...records.map((r) => encodeRecord(r, salt))]);
}

/** What a store keeps of its journal between writes: where appends continue. */
interface Cursor {
  end: JournalEnd;
}

async function load(disk: PowerCutDisk): Promise<{ records: Buffer[]; cursor: Cursor }> {
  const j = await loadJournal(JOURNAL, { log: silentLogger, label: 'journal', fs: disk });
  return { records: j.records, cursor: { end: j.end } };
}

/** One append, as the stores do it; the cursor moves only once the append is acknowledged. */
async function append(disk: PowerCutDisk, cursor: Cursor, payload: Buffer): Promise<void> {
  const file = await appendFileOn(disk)(JOURNAL);
  cursor.end = await appendRecord(file, payload, cursor.end);
  await file.close();
}

interface Progress {
  /** What may be read back if the power goes now: acknowledged, or acknowledged plus the write in flight. */
  allowed: Buffer[][];
}

interface Scenario {
  readonly name: string;
  readonly image: DiskImage;
  /** The writes under test; sets `p.allowed` before each and after it is acknowledged. */
  run(disk: PowerCutDisk, p: Progress): Promise<void>;
}

/** Runs a scenario cut at every step, checks every image it may leave; returns the number of cuts and of images. */
async function cutEverywhere(t: Test, s: Scenario): Promise<{ cuts: number; images: number }> {
  const dry = new PowerCutDisk([DIR], s.image);
  await s.run(dry, { allowed: [] });
  const steps = dry.steps;
  let images = 0;
  let failures = 0;
  for (let cut = 0; cut <= steps && failures < 5; cut++) {
    const disk = new PowerCutDisk([DIR], s.image);
    disk.budget = cut;
    const p: Progress = { allowed: [] };
    try {
      await s.run(disk, p);
      // The code under test may catch the failure of a write and go on; the power is off all the same.
      if (cut < steps && !disk.poweredOff) throw new Error(`ran to the end in ${cut} of ${steps} steps`);
    } catch (err) {
      if (!(err instanceof PowerCut)) throw err;
    }
    for (const image of disk.images()) {
      images++;
      const after = disk.restart(image);
      const { records, cursor } = await load(after);
      if (!p.allowed.some((a) => text(a) === text(records))) {
        failures++;
        t.fail(`${s.name}, cut at step ${cut} of ${steps}: read ${text(records)}; allowed: ${p.allowed.map(text).join(' or ')}`);
        continue;
      }
      const names = [...after.view().keys()];
      if (names.some((n) => n.endsWith('.tmp')) || names.filter((n) => n.includes('.damaged-')).length > COPIES_KEPT) {
        failures++;
        t.fail(`${s.name}, cut at step ${cut}: left ${names.join(', ')}`);
      }
      // The next write after the restart works, and nothing read before is lost by it.
      const next = Buffer.from('{"seq":999,"states":{}}');
      await append(after, cursor, next);
      const again = await load(after);
      if (text(again.records) !== text([...records, next])) {
        failures++;
        t.fail(`${s.name}, cut at step ${cut}: after the next append read ${text(again.records)}`);
      }
    }
  }
  t.equal(failures, 0, `${s.name}: ${steps + 1} cuts, each image read back as acknowledged`);
  return { cuts: steps + 1, images };
}

const [r1, r2, r3, r4] = [record(1), record(2), record(3), record(4)] as [Buffer, Buffer, Buffer, Buffer];

t.test('a journal append cut at every byte: the acknowledged records, or those and the one in flight', async (t) => {
  const figures = [];
  figures.push(
    await cutEverywhere(t, {
      name: 'the first append (the file and its directory entry are created)',
      image: new Map(),
      async run(disk, p) {
        const { cursor } = await load(disk);
        p.allowed = [[], [r1]];
        await append(disk, cursor, r1);
        p.allowed = [[r1]];
      },
    }),
  );
  figures.push(
    await cutEverywhere(t, {
      name: 'appends to a journal of three records',
      image: new Map([[JOURNAL, journalOf([r1, r2, r3])]]),
      async run(disk, p) {
        const { cursor } = await load(disk);
        p.allowed = [
          [r1, r2, r3],
          [r1, r2, r3, r4],
        ];
        await append(disk, cursor, r4);
        p.allowed = [[r1, r2, r3, r4]];
      },
    }),
  );
  figures.push(
    await cutEverywhere(t, {
      name: 'a reset (compaction: the owner has the records elsewhere) and the first append after it',
      image: new Map([[JOURNAL, journalOf([r1, r2, r3])]]),
      async run(disk, p) {
        const { cursor } = await load(disk);
        const file = await appendFileOn(disk)(JOURNAL);
        p.allowed = [[r1, r2, r3], []];
        await file.truncate(0);
        cursor.end = { salt: cursor.end.salt, bytes: 0 };
        p.allowed = [[], [r4]];
        await append(disk, cursor, r4);
        p.allowed = [[r4]];
      },
    }),
  );
  figures.push(
    await cutEverywhere(t, {
      name: 'an append to an old-format journal (release 2026.11), which starts a generation behind it',
      image: new Map([[JOURNAL, Buffer.concat([encodeOldRecord(r1), encodeOldRecord(r2)])]]),
      async run(disk, p) {
        const { cursor } = await load(disk);
        p.allowed = [
          [r1, r2],
          [r1, r2, r3],
        ];
        await append(disk, cursor, r3);
        p.allowed = [[r1, r2, r3]];
      },
    }),
  );
  t.comment(`${figures.map((f) => `${f.cuts} cuts, ${f.images} images`).join('; ')}`);
});

t.test('the repair of a damaged journal cut at every step: the records that checked are never lost', async (t) => {
  // A flipped byte in the second record's payload, and a torn tail: the repair copies the file aside and rewrites it.
  const good = journalOf([r1, r2, r3]);
  const damaged = Buffer.concat([good, Buffer.from([0xfe, 0x52, 0x43, 0xff, 9, 0])]);
  const at = damaged.indexOf(r2) + 5;
  damaged[at] = (damaged[at] as number) ^ 0x20;
  const { cuts, images } = await cutEverywhere(t, {
    name: 'the repair',
    image: new Map([[JOURNAL, damaged]]),
    async run(disk, p) {
      p.allowed = [[r1, r3]];
      await load(disk);
    },
  });
  t.comment(`${cuts} cuts, ${images} images`);
  const disk = new PowerCutDisk([DIR], new Map([[JOURNAL, damaged]]));
  await load(disk);
  const names = [...disk.view().keys()].sort();
  t.equal(names.length, 2);
  t.match(names[1], /\/journal\.damaged-/, 'a copy of the damaged file is kept beside it');
  t.same(disk.view().get(names[1] as string), damaged, 'byte for byte');
});

t.test('an atomic replace cut at every step: the old content or the new, never a torn one or none', async (t) => {
  const oldContent = Buffer.from(JSON.stringify({ version: 1, items: ['kitchen', 'hall'] }));
  const newContent = Buffer.from(JSON.stringify({ version: 1, items: ['kitchen', 'hall', 'garden shed'] }));
  for (const before of [oldContent, undefined]) {
    const image: DiskImage = before === undefined ? new Map() : new Map([[FILE, before]]);
    const dry = new PowerCutDisk([DIR], image);
    await writeFileAtomic(FILE, newContent, 0o600, dry);
    let failures = 0;
    let count = 0;
    for (let cut = 0; cut <= dry.steps && failures < 5; cut++) {
      const disk = new PowerCutDisk([DIR], image);
      disk.budget = cut;
      let done = false;
      try {
        await writeFileAtomic(FILE, newContent, 0o600, disk);
        done = true;
      } catch (err) {
        if (!(err instanceof PowerCut)) throw err;
      }
      for (const state of disk.images()) {
        count++;
        const got = state.get(FILE);
        const ok = done
          ? got?.equals(newContent)
          : got === before || got?.equals(newContent) || (before !== undefined && got?.equals(before));
        if (!ok) {
          failures++;
          t.fail(
            `cut at step ${cut} of ${dry.steps}${done ? ' (acknowledged)' : ''}: read ${got === undefined ? 'no file' : JSON.stringify(got.toString())}`,
          );
          continue;
        }
        // The next write after the restart works (a temp file left by the cut is in the way of nothing).
        const after = disk.restart(state);
        await writeFileAtomic(FILE, oldContent, 0o600, after);
        if (!after.view().get(FILE)?.equals(oldContent)) {
          failures++;
          t.fail(`cut at step ${cut}: the next write did not land`);
        }
      }
    }
    t.equal(failures, 0, `${before === undefined ? 'a new file' : 'a replaced file'}: ${dry.steps + 1} cuts, ${count} images, each whole`);
  }
});
