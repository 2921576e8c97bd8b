import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import {
  canonicalZoneNames,
  isZoneName,
  parsePosixTz,
  parseTzif,
  readSystemZone,
  systemZoneNames,
  UTC_OFFSETS,
} from '../../src/util/tzif.js';

const TZDIR = '/usr/share/zoneinfo';
const hasZoneinfo = existsSync(`${TZDIR}/Europe/Amsterdam`);

const formats = new Map<string, Intl.DateTimeFormat>();

/** The offset Intl (ICU) gives for an instant: the reference the system database must agree with. */
function intlOffset(zone: string, utcSeconds: number): number {
  let format = formats.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(zone, format);
  }
  const p: Record<string, number> = {};
  for (const part of format.formatToParts(new Date(utcSeconds * 1000))) p[part.type] = Number(part.value);
  return Date.UTC(p.year ?? 0, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0) / 1000 - utcSeconds;
}

const at = (iso: string) => Date.parse(iso) / 1000;

t.test('POSIX TZ footers: fixed offsets, northern and southern rules, negative DST, odd transition times', async (t) => {
  t.equal(parsePosixTz('<+0530>-5:30')?.offsetSeconds(at('2026-06-01T00:00:00Z')), 19_800);
  t.equal(parsePosixTz('EST5')?.offsetSeconds(0), -18_000);
  const cet = parsePosixTz('CET-1CEST,M3.5.0,M10.5.0/3');
  t.equal(cet?.offsetSeconds(at('2026-03-29T00:59:59Z')), 3600, 'winter until 01:00 UTC on the last Sunday of March');
  t.equal(cet?.offsetSeconds(at('2026-03-29T01:00:00Z')), 7200);
  t.equal(cet?.offsetSeconds(at('2026-10-25T00:59:59Z')), 7200);
  t.equal(cet?.offsetSeconds(at('2026-10-25T01:00:00Z')), 3600);
  const sydney = parsePosixTz('AEST-10AEDT,M10.1.0,M4.1.0/3');
  t.equal(sydney?.offsetSeconds(at('2026-01-15T00:00:00Z')), 39_600, 'summer spans the new year');
  t.equal(sydney?.offsetSeconds(at('2026-07-15T00:00:00Z')), 36_000);
  const dublin = parsePosixTz('IST-1GMT0,M10.5.0,M3.5.0/1');
  t.equal(dublin?.offsetSeconds(at('2026-01-15T00:00:00Z')), 0, 'Irish winter time is the "daylight" offset');
  t.equal(dublin?.offsetSeconds(at('2026-07-15T00:00:00Z')), 3600);
  const nuuk = parsePosixTz('<-02>2<-01>,M3.5.0/-1,M10.5.0/0');
  // Sunday 29 March at -1:00 is 23:00 local on the Saturday: 01:00 UTC on the Sunday.
  t.equal(nuuk?.offsetSeconds(at('2026-03-29T00:59:59Z')), -7200, 'a negative transition time falls on the day before');
  t.equal(nuuk?.offsetSeconds(at('2026-03-29T01:00:00Z')), -3600);
  t.equal(parsePosixTz('EST5EDT,0/0,J365/25')?.offsetSeconds(at('2026-06-01T00:00:00Z')), -14_400, 'all-year daylight time');
  for (const bad of ['', 'CET', 'CET-1CEST', 'CET-1CEST,M13.5.0,M10.5.0', 'CET-1CEST,M3.5.0']) t.equal(parsePosixTz(bad), undefined, bad);
});

t.test('TZif: not a TZif file, or one with leap seconds, is left to Intl', async (t) => {
  t.equal(parseTzif(Buffer.from('not a zone file at all, not even close to 44 bytes long')), undefined);
  t.equal(readSystemZone('../../etc/passwd'), undefined);
  t.equal(readSystemZone('Mars/Olympus'), undefined);
  t.equal(UTC_OFFSETS.offsetSeconds(at('2026-06-01T00:00:00Z')), 0);
  if (hasZoneinfo && existsSync(`${TZDIR}/right/UTC`)) t.equal(readSystemZone('right/UTC'), undefined);
});

t.test(
  'the system database agrees with Intl for zones with every kind of rule, 1975 to 2060',
  { skip: !hasZoneinfo && 'no /usr/share/zoneinfo' },
  async (t) => {
    const zones = [
      'Europe/Amsterdam',
      'Europe/London',
      'Europe/Dublin',
      'Europe/Lisbon',
      'America/New_York',
      'America/St_Johns',
      'America/Nuuk',
      'America/Sao_Paulo',
      'America/Santiago',
      'Australia/Sydney',
      'Australia/Lord_Howe',
      'Pacific/Auckland',
      'Pacific/Chatham',
      'Asia/Kolkata',
      'Asia/Kathmandu',
      'Asia/Tokyo',
      'Antarctica/Troll',
      'Africa/Johannesburg',
    ];
    for (const zone of zones) {
      const offsets = readSystemZone(zone);
      if (offsets === undefined) {
        t.fail(`${zone}: no usable TZif file`);
        continue;
      }
      let mismatches = 0;
      // Every 3 days and 7 hours, so the samples walk through every hour of the day and every transition season.
      for (let s = at('1975-01-01T00:00:00Z'); s < at('2060-01-01T00:00:00Z'); s += 3 * 86_400 + 7 * 3600) {
        if (offsets.offsetSeconds(s) !== intlOffset(zone, s)) mismatches++;
      }
      t.equal(mismatches, 0, `${zone} agrees with Intl`);
    }
  },
);

t.test(
  'every zone the runtime knows reads from the system database like Intl, at transitions too',
  { skip: !hasZoneinfo && 'no /usr/share/zoneinfo' },
  async (t) => {
    // The two databases may be a release apart; allow the zones whose rules changed in between.
    let compared = 0;
    const differing: string[] = [];
    for (const zone of canonicalZoneNames()) {
      const offsets = readSystemZone(zone);
      if (offsets === undefined) continue;
      compared++;
      for (const iso of [
        '2024-03-31T00:59:59Z',
        '2024-03-31T01:00:00Z',
        '2025-11-02T05:59:59Z',
        '2025-11-02T06:00:00Z',
        '2026-01-15T12:00:00Z',
        '2026-07-15T12:00:00Z',
      ]) {
        if (offsets.offsetSeconds(at(iso)) !== intlOffset(zone, at(iso))) {
          differing.push(`${zone} at ${iso}`);
          break;
        }
      }
    }
    t.ok(compared > 300, `${compared} zones compared`);
    t.ok(differing.length <= 3, `at most a few zones differ between the databases: ${differing.join(', ')}`);
  },
);

t.test('a version 1 file (32-bit times, no footer) is read too', { skip: !hasZoneinfo && 'no /usr/share/zoneinfo' }, async (t) => {
  const v2 = readFileSync(`${TZDIR}/Europe/Amsterdam`);
  // Keep the first (version 1) block and mark the file as version 1.
  const v1 = Buffer.from(v2);
  v1[4] = 0;
  const offsets = parseTzif(v1);
  t.equal(offsets?.offsetSeconds(at('2010-07-01T00:00:00Z')), 7200);
  t.equal(offsets?.offsetSeconds(at('2010-01-01T00:00:00Z')), 3600);
});

t.test("systemZoneNames reads the zones and links of the system's tzdata.zi; isZoneName falls back to Intl's list", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-tzdata-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  t.equal(systemZoneNames(dir), null, 'no tzdata.zi: no list');
  const other = await mkdtemp(join(tmpdir(), 'hearth-tzdata-'));
  t.teardown(() => rm(other, { recursive: true, force: true }));
  await writeFile(
    join(other, 'tzdata.zi'),
    '# version 2025b\nR NL 1916 o - May 1 0 1 NST\nZ Europe/Brussels 0:17:30 - LMT 1880\nL Europe/Brussels Europe/Amsterdam\nL Etc/UTC UTC\n',
  );
  t.same([...(systemZoneNames(other) ?? [])].sort(), ['Europe/Amsterdam', 'Europe/Brussels', 'UTC']);
  if (systemZoneNames() !== null) {
    t.ok(isZoneName('Europe/Amsterdam'));
    t.ok(isZoneName('US/Eastern'), 'a link is a name');
    t.notOk(isZoneName('europe/amsterdam'), 'spelled exactly');
    t.notOk(isZoneName('posixrules'), 'a file of the folder that is no zone name');
    t.notOk(isZoneName('../etc/passwd'));
  }
});
