import { mkdtemp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { BANS_FILE, banFileText, loadBans, parseBans } from '../../src/auth/ban-file.js';
import { LoginGuard } from '../../src/auth/bans.js';
import { DEFAULT_HTTP_SETTINGS } from '../../src/auth/http-section.js';
import { RecordingLogger } from '../fakes/recording-logger.js';

/** Issue 32, finding 7: a ban file cut in the middle of an entry is found, its whole bans kept, and a copy of it kept. */

async function tempDir(t: { teardown(fn: () => unknown): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-ban-file-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const BANS = new Map([
  ['1.2.3.4', { banned_at: '2026-01-01T10:00:00+00:00' }],
  ['2001:db8::1', { banned_at: '2026-01-03T10:00:00.123456+00:00' }],
  ['5.6.7.8', { banned_at: '2026-01-02T10:00:00+00:00' }],
]);
/** hearth's own spelling, and Home Assistant's (PyYAML: plain keys, single quotes). */
const HEARTH = banFileText(BANS);
const HOME_ASSISTANT = [...BANS].map(([ip, b]) => `${ip}:\n  banned_at: '${b.banned_at}'\n`).join('');

/** Where each entry of a file starts and where its last character ends. */
function entryBounds(text: string): { start: number; end: number; ip: string }[] {
  const out: { start: number; end: number; ip: string }[] = [];
  const re = /^"?([^"\n]+?)"?:\n {2}banned_at: ['"][^'"\n]+['"]/gm;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) out.push({ start: m.index, end: m.index + m[0].length, ip: m[1] as string });
  return out;
}

for (const [format, text] of [
  ['hearth', HEARTH],
  ['Home Assistant', HOME_ASSISTANT],
] as const) {
  t.test(`a ${format} ban file cut at every byte keeps each whole ban and reports the cut entry once`, async (t) => {
    const dir = await tempDir(t);
    const path = join(dir, BANS_FILE);
    const bounds = entryBounds(text);
    t.equal(bounds.length, 3);
    const failures: string[] = [];
    for (let cut = 0; cut <= text.length; cut++) {
      const cutText = text.slice(0, cut);
      await writeFile(path, cutText);
      const log = new RecordingLogger();
      const loaded = await loadBans(path, log);
      const whole = bounds.filter((b) => b.end <= cut).map((b) => b.ip);
      const damaged = bounds.some((b) => b.start < cut && cut < b.end);
      const bans = loaded.status === 'ok' || loaded.status === 'salvaged' ? [...loaded.value.keys()] : [];
      const errors = log.lines.filter((l) => l.level === 'error');
      const aside = (await readdir(dir)).filter((f) => f.startsWith(`${BANS_FILE}.corrupt-`));
      const copy = aside.length === 1 ? await readFile(join(dir, aside[0] as string), 'utf8') : undefined;
      // With no whole entry left, the file goes aside whole (renamed), as a JSON store's does.
      const expected = !damaged ? 'ok' : whole.length > 0 ? 'salvaged' : 'corrupt';
      const ok =
        JSON.stringify(bans.sort()) === JSON.stringify(whole.sort()) &&
        loaded.status === expected &&
        errors.length === (damaged ? 1 : 0) &&
        (!damaged || (copy === cutText && /ip_bans\.yaml/.test(errors[0]?.msg ?? '') && /line \d+/.test(errors[0]?.msg ?? '')));
      if (!ok)
        failures.push(
          `cut at ${cut} (${JSON.stringify(cutText.slice(-16))}): ${loaded.status}, bans ${bans.join(' ')}, errors ${errors.map((e) => e.msg).join(' | ')}`,
        );
      for (const f of aside) await unlink(join(dir, f));
    }
    t.same(failures, [], `${text.length + 1} cuts`);
  });
}

t.test(
  'a cut last entry: the guard keeps the other bans, copies the file aside, writes the whole bans back, and starts clean next time',
  async (t) => {
    const dir = await tempDir(t);
    const path = join(dir, BANS_FILE);
    const damaged = `${HEARTH}"9.9.9.9":\n  banned_at:`;
    await writeFile(path, damaged);
    const log = new RecordingLogger();
    const guard = await LoginGuard.open(dir, DEFAULT_HTTP_SETTINGS, log);
    t.teardown(() => guard.close());
    t.same(guard.bannedAddresses().sort(), ['1.2.3.4', '2001:db8::1', '5.6.7.8']);
    const errors = log.lines.filter((l) => l.level === 'error');
    t.equal(errors.length, 1, 'one error');
    t.match(
      errors[0]?.msg,
      new RegExp(
        `^ban file was damaged: ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(line 7: "9\\.9\\.9\\.9" has no banned_at\\); a copy of it is kept at .*ip_bans\\.yaml\\.corrupt-`,
      ),
    );
    const aside = (await readdir(dir)).filter((f) => f.startsWith(`${BANS_FILE}.corrupt-`));
    t.equal(aside.length, 1);
    t.equal(await readFile(join(dir, aside[0] as string), 'utf8'), damaged, 'the copy holds every byte of the damaged file');
    await guard.saved();
    t.equal(await readFile(path, 'utf8'), HEARTH, 'the whole bans were written back');
    await guard.close();

    const next = new RecordingLogger();
    const again = await LoginGuard.open(dir, DEFAULT_HTTP_SETTINGS, next);
    t.teardown(() => again.close());
    t.equal(again.bannedAddresses().length, 3);
    t.same(
      next.lines.filter((l) => l.level === 'error'),
      [],
      'the next start reads a clean file',
    );
  },
);

t.test('entries that parse but are not bans are damaged too: a key without value, a wrong time, a tail of zeros', async (t) => {
  const cases: [string, RegExp][] = [
    [`${HEARTH}"9.9.9.9":\n`, /line 7: "9\.9\.9\.9" has no banned_at/],
    [`${HEARTH}"9.9.9.9":\n  bann`, /line 7: "9\.9\.9\.9" has no banned_at/],
    [`${HEARTH}"9.9.9.9":\n  banned_at: 2026-01-0`, /line 7: "9\.9\.9\.9": banned_at "2026-01-0" is not a time/],
    [`${HEARTH}9.9.9:\n  banned_at: "2026-01-02T10:00:00+00:00"\n`, /line 7: "9\.9\.9" is not an IP address/],
    [`${HEARTH}"9.9.9.9":\n  banned_at: "2026-01-02T1${'\u0000'.repeat(40)}`, /line 7: .* is cut off or not YAML/],
    [`${HEARTH}${'\u0000'.repeat(64)}`, /line 7: .* is cut off or not YAML/],
  ];
  for (const [text, problem] of cases) {
    const log = new RecordingLogger();
    t.equal(parseBans(text, log), undefined, "a re-read of another process's file takes nothing from it");
    t.match(log.lines[0]?.msg, problem);
    const dir = await tempDir(t);
    await writeFile(join(dir, BANS_FILE), text);
    const loaded = await loadBans(join(dir, BANS_FILE), log);
    t.equal(loaded.status, 'salvaged', JSON.stringify(text.slice(-20)));
    t.same(loaded.status === 'salvaged' ? [...loaded.value.keys()].sort() : [], ['1.2.3.4', '2001:db8::1', '5.6.7.8']);
  }
});

t.test('a running guard does not take a damaged re-read: the bans in memory hold and the file is left alone', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, BANS_FILE);
  await writeFile(path, HEARTH);
  const log = new RecordingLogger();
  const guard = await LoginGuard.open(dir, DEFAULT_HTTP_SETTINGS, log);
  t.teardown(() => guard.close());
  const damaged = `"1.2.3.4":\n  banned_at: "2026-01-01T10:00:00+00:00"\n"5.6.7.8":\n  banned_at:`;
  await writeFile(path, damaged);
  const error = await log.waitFor('error', `${BANS_FILE} is damaged`);
  t.match(error.msg, /line 3: "5\.6\.7\.8" has no banned_at/);
  t.equal(guard.bannedAddresses().length, 3);
  t.equal(await readFile(path, 'utf8'), damaged);
});
