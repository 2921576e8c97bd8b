import { type FSWatcher, watch } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { seededRandom } from '../../drivers/virtual/index.js';
import { microsFromIso } from '../../src/core/clock.js';
import { canonical, Findings, movedAside, rowText, tornFiles } from './kill-restart-checks.js';
import { bundleChild, HubProcess, type RunReport } from './kill-restart-process.js';
import { type ApiState, type Call, CallStream, TARGETS } from './kill-restart-stream.js';

/**
 * A whole hub under a steady stream of service calls over REST, killed with SIGKILL at random moments (during
 * start-up, while it serves, right as it writes a file, in an hourly seal or a day's compaction) and restarted
 * on the same data dir. After each restart:
 * (a) each entity's state is the last change that was on disk at the kill, or a later one that was sent;
 * (b) its history holds every change that was on disk at the kill, no row twice, timestamps strictly
 *     increasing (but for the stored state shown at start, marked `restored`, and the same state restored a
 *     moment later), and ends on the state the entity is in;
 * (c) no data file is torn or damaged as the hub's own readers see it (the journal decoder; the day-file scan and
 *     the chunks' checksums), none was moved or copied aside, and the hub logged no damage.
 * "On disk" is known two ways: the hub said a restore-state flush or recorder commit that began after the
 * change completed (the child prints it), or the change was answered longer than the flush window (plus slack
 * for a busy machine) before the kill.
 *
 * The hub's clock is the system's plus an offset the test sets at each start (a manual clock cannot serve HTTP):
 * each run starts a random moment before the end of an hour, so every run seals an hour, and a day ends every 24
 * runs. The choices are seeded (HEARTH_KILL_SEED=<n> repeats them; the timing of a loaded machine cannot be).
 */
const KILLS = 50;
const SEED = process.env.HEARTH_KILL_SEED === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.HEARTH_KILL_SEED);
const STATE_WINDOW_MS = 100;
const HISTORY_WINDOW_MS = 1000;
/** Beyond the flush window: fsync on a busy machine, and the time an answer takes to reach the test. */
const SLACK_MS = 2000;
const HOUR_US = 3_600_000_000;
const READY_DEADLINE_MS = 30_000;
/** A write-triggered kill that sees no write within this is made anyway. */
const WRITE_DEADLINE_MS = 3000;
const FILE_DAMAGE = /unfinished|torn|corrupt|damaged|unreadable|moved aside|could not be (read|checked)|checksum|skipped|lacks the index/i;

const CONFIG = `
hub:
  name: Kill test
  time_zone: UTC
  restore_flush_s: ${STATE_WINDOW_MS / 1000}
recorder:
  commit_interval: ${HISTORY_WINDOW_MS / 1000}
input_number:
  level: {name: Level, min: 0, max: 1000000, step: 1, mode: box}
input_boolean:
  flag: {name: Flag}
virtual:
  - {platform: light, id: lamp, name: Lamp, color_modes: [brightness]}
  - {platform: switch, id: relay, name: Relay}
`;

type Mode = 'serving' | 'start-up' | 'restore write' | 'history commit' | 'seal';
/** How many kills are aimed where: at a random moment while serving, in start-up, right as a file is written. */
const AIMS: Record<Mode, number> = { serving: 14, 'start-up': 10, 'restore write': 9, 'history commit': 8, seal: 9 };
type Rule = 'on disk' | 'window';
interface Need {
  readonly call: Call;
  readonly rule: Rule;
  readonly ageAtKillMs: number;
}

const msOf = (us: number) => Math.floor(us / 1000);
/** `prev` is a stored state shown at start and `row` the same state once restored (no mark). */
const shownThenRestored = (prev: ApiState, row: ApiState) =>
  prev.attributes.restored === true && row.attributes.restored === undefined && prev.state === row.state;
const describe = (need: Need) =>
  `${need.call.key} (call ${need.call.index} of run ${need.call.cycle}, ${need.rule}, answered ${need.ageAtKillMs} ms before the kill)`;

// 51 hub runs of one to a few seconds each on a busy 2-core machine: more than the suite's 60 s per file.
t.setTimeout(240_000);

t.test(`${KILLS} kill -9 of a hub under a stream of service calls: state, history and files as acknowledged`, async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'hearth-kill-restart-'));
  const dataDir = join(root, 'data');
  const configFile = join(root, 'configuration.yaml');
  t.teardown(() => rm(root, { recursive: true, force: true }));
  await writeFile(configFile, CONFIG);
  const child = await bundleChild();
  t.teardown(() => child.remove());
  const rng = seededRandom(SEED);
  const stream = new CallStream();
  const spares: HubProcess[] = [];
  // Teardowns run in reverse: the hubs go before their data dir and their script.
  t.teardown(async () => {
    await stream.stop();
    await Promise.all(spares.map((p) => p.kill()));
  });
  const spare = () => {
    const p = new HubProcess(child.path, dataDir, configFile);
    spares.push(p);
    return p;
  };

  const f = {
    crashed: new Findings(),
    callErrors: new Findings(),
    stateLost: new Findings(),
    historyLost: new Findings(),
    historyShrank: new Findings(),
    outOfOrder: new Findings(),
    sameTime: new Findings(),
    duplicates: new Findings(),
    lastRowWrong: new Findings(),
    tornFiles: new Findings(),
    movedAside: new Findings(),
    damageLogged: new Findings(),
  };
  const kills = new Map<Mode, number>();
  /** Where the time goes (ms): waiting for a spare to load, start-up, checks, serving until the kill, after it. */
  const spent = { loading: 0, starting: 0, checking: 0, serving: 0, after: 0 };
  let mark = Date.now();
  const lap = (phase: keyof typeof spent) => {
    const now = Date.now();
    spent[phase] += now - mark;
    mark = now;
  };
  const figures = { landedInStartUp: 0, landedOnWrite: 0, writeFallbacks: 0, calls: 0, acked: 0, needs: { state: 0, rows: 0 } };
  const needsBy: Record<Rule, number> = { 'on disk': 0, window: 0 };
  const otherLogs = new Set<string>();
  /** Per entity: the latest change that must be restored, and every change history must keep. */
  const mustState: (Need | undefined)[] = TARGETS.map(() => undefined);
  const mustRows: Need[][] = TARGETS.map(() => []);
  /** Per entity: the history rows a restarted hub served from disk (row text -> where it was seen). */
  const served: Map<string, string>[] = TARGETS.map(() => new Map());
  const started = Date.now();
  let offsetUs = 0;
  /** How long start-ups took (go to ready, ms): a start-up kill comes within the shortest quarter of them. */
  const startUps: number[] = [];
  let token = '';
  // Where each kill is aimed, in a seeded order; the first run serves (it makes the token).
  const modes: Mode[] = Object.entries(AIMS).flatMap(([mode, n]) => new Array<Mode>(n).fill(mode as Mode));
  for (let i = modes.length - 1; i > 1; i--) {
    const j = 1 + Math.floor(rng() * i);
    [modes[i], modes[j]] = [modes[j] as Mode, modes[i] as Mode];
  }
  // Two spares loading while a hub runs: a run killed in start-up is over before one spare could load.
  const ready = [spare(), spare()];
  const t0Us = Date.now() * 1000;
  const historyQuery = `/api/history/period/${new Date(msOf(t0Us)).toISOString()}?end_time=${new Date(msOf(t0Us) + 20 * 86_400_000).toISOString()}&significant_changes_only=0&filter_entity_id=`;

  /** (a) and (b) against a hub that is ready. */
  async function check(port: number, cycle: number, startedUs: number): Promise<void> {
    const get = async <T>(path: string): Promise<T> => {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${token}` } });
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    };
    const states = new Map((await get<ApiState[]>('/api/states')).map((s) => [s.entity_id, s]));
    const histories = new Map(
      (await get<ApiState[][]>(`${historyQuery}${TARGETS.map((x) => x.entityId).join(',')}`)).map((rows) => [rows[0]?.entity_id, rows]),
    );
    for (const [i, target] of TARGETS.entries()) {
      const id = target.entityId;
      const now = states.get(id);
      if (now === undefined) throw new Error(`run ${cycle}: ${id} is missing`);
      const key = target.keyOf(now);
      const need = mustState[i];
      const calls = stream.calls[i] as Call[];
      const allowed = new Set(calls.slice(need?.call.index ?? 0).map((c) => c.key));
      if (need === undefined) allowed.add(target.initialKey);
      if (!allowed.has(key)) f.stateLost.add(`run ${cycle}: ${id} restored ${key}, but ${need ? describe(need) : 'nothing'} was on disk`);

      const rows = histories.get(id) ?? [];
      const seen = new Set<string>();
      const byMs = new Map<number, ApiState[]>();
      let prevUs = Number.NEGATIVE_INFINITY;
      for (const [n, row] of rows.entries()) {
        const luUs = microsFromIso(row.last_updated) ?? Number.NaN;
        const prev = rows[n - 1];
        // Backwards, or two rows at one time (the recorder keeps milliseconds; the stream never changes an
        // entity twice in one): either way a reader cannot tell which came first. One pair is told apart by
        // its mark: the stored state shown at start (`restored: true`) and the same state once its provider
        // answered, which restore publishes in the same moment (as test/restore/restore-order.test.ts allows).
        if (prev !== undefined && !(luUs > prevUs) && !(luUs === prevUs && shownThenRestored(prev, row))) {
          (luUs === prevUs ? f.sameTime : f.outOfOrder).add(
            `run ${cycle}: ${id} row ${n} ${rowText(row)} after ${rowText(prev)}`,
            `${id} ${rowText(prev)} ${rowText(row)}`,
          );
        }
        prevUs = luUs;
        const whole = rowText(row);
        if (seen.has(whole)) f.duplicates.add(`run ${cycle}: ${id} ${target.keyOf(row)} at ${row.last_updated} twice`, `${id} ${whole}`);
        seen.add(whole);
        const list = byMs.get(msOf(luUs));
        if (list === undefined) byMs.set(msOf(luUs), [row]);
        else list.push(row);
      }
      for (const need of mustRows[i] as Need[]) {
        const at = byMs.get(msOf(need.call.luUs as number)) ?? [];
        if (!at.some((row) => target.keyOf(row) === need.call.key))
          f.historyLost.add(`run ${cycle}: ${id} lost ${describe(need)}`, `${id} ${need.call.index}`);
      }
      // A row older than this start was read from disk: it is on disk, and no later run may lose it.
      const onDisk = served[i] as Map<string, string>;
      for (const [whole, where] of onDisk) {
        if (!seen.has(whole)) f.historyShrank.add(`run ${cycle}: ${id} lost ${where}`, `${id} ${whole}`);
      }
      for (const row of rows) {
        if ((microsFromIso(row.last_updated) ?? 0) >= startedUs) break;
        const whole = rowText(row);
        if (!onDisk.has(whole)) onDisk.set(whole, `${target.keyOf(row)} at ${row.last_updated}, served by run ${cycle}`);
      }
      const last = rows.at(-1);
      if (
        last === undefined ||
        last.state !== now.state ||
        canonical(last.attributes) !== canonical(now.attributes) ||
        msOf(microsFromIso(last.last_updated) ?? 0) !== msOf(microsFromIso(now.last_updated) ?? 0)
      ) {
        const lastText = last === undefined ? 'no row' : `${target.keyOf(last)} at ${last.last_updated}`;
        f.lastRowWrong.add(`run ${cycle}: ${id} history ends on ${lastText}, the state is ${key} at ${now.last_updated}`);
      }
    }
  }

  /** What the kill of run `cycle` must not lose: changes on disk by the child's word, or older than the window. */
  function settle(cycle: number, report: RunReport): void {
    for (const [i, calls] of stream.calls.entries()) {
      for (const call of calls) {
        if (call.cycle !== cycle) continue;
        figures.calls++;
        if (call.error !== undefined) f.callErrors.add(`run ${cycle}: ${TARGETS[i]?.entityId} ${call.key}: ${call.error}`);
        if (call.ackAt === undefined || call.error !== undefined) continue;
        figures.acked++;
        const age = report.killedAt - call.ackAt;
        const stateRule: Rule | undefined =
          call.luUs !== undefined && call.luUs < report.flushedUs ? 'on disk' : age > STATE_WINDOW_MS + SLACK_MS ? 'window' : undefined;
        if (stateRule !== undefined && call.index >= (mustState[i]?.call.index ?? -1)) {
          mustState[i] = { call, rule: stateRule, ageAtKillMs: age };
        }
        if (call.luUs === undefined) continue;
        const rowRule: Rule | undefined =
          call.luUs < report.committedUs ? 'on disk' : age > HISTORY_WINDOW_MS + SLACK_MS ? 'window' : undefined;
        if (rowRule !== undefined) {
          (mustRows[i] as Need[]).push({ call, rule: rowRule, ageAtKillMs: age });
          needsBy[rowRule]++;
          figures.needs.rows++;
        }
      }
    }
  }

  for (let cycle = 0; cycle <= KILLS; cycle++) {
    const proc = ready.shift() as HubProcess;
    lap('after');
    await proc.loaded;
    lap('loading');
    const last = cycle === KILLS;
    const mode: Mode = last ? 'serving' : (modes[cycle] as Mode);
    // The next run's hub time starts 0-2 s before the end of an hour, never before this one's.
    const lead = Math.floor(rng() * 2_000_000);
    const goAt = Date.now();
    const hubNow = goAt * 1000 + offsetUs;
    offsetUs = Math.ceil((hubNow + lead) / HOUR_US) * HOUR_US - lead - goAt * 1000;
    proc.go(offsetUs, cycle === 0);
    if (spares.length <= KILLS) ready.push(spare());
    const report = proc.report;

    if (mode === 'start-up') {
      const quick = [...startUps].sort((a, b) => a - b)[Math.floor(startUps.length / 4)] ?? 50;
      const timer = setTimeout(() => void proc.kill(), Math.floor(rng() * quick));
      await report.exited;
      clearTimeout(timer);
      lap('starting');
      if (report.readyAt === undefined) figures.landedInStartUp++;
    } else {
      await proc.waitFor('ready', READY_DEADLINE_MS);
      startUps.push((report.readyAt as number) - goAt);
      token ||= report.token ?? '';
      lap('starting');
      await check(report.port as number, cycle, goAt * 1000 + offsetUs);
      lap('checking');
      if (last) {
        await proc.kill();
        break;
      }
      stream.start(`http://127.0.0.1:${report.port}`, token, cycle);
      const watchers: FSWatcher[] = [];
      let timer: NodeJS.Timeout;
      if (mode === 'serving') {
        // Mostly short runs; one in eight long enough for the time rule to cover history too.
        const ms = rng() < 1 / 8 ? 3200 + rng() * 800 : 50 + rng() * 700;
        timer = setTimeout(() => void proc.kill(), ms);
      } else {
        const pattern = mode === 'restore write' ? /^(journal|.*snapshot\.json.*)$/ : mode === 'history commit' ? /^wal$/ : /\.seg/;
        // A restore flush comes every 0.1 s under the stream: one of the first three; a commit or seal once a second.
        let left = mode === 'restore write' ? 1 + Math.floor(rng() * 3) : 1;
        for (const dir of ['restore_state', 'recorder']) {
          watchers.push(
            watch(join(dataDir, dir), (_event, name) => {
              if (name !== null && pattern.test(name) && --left === 0 && !proc.killed) {
                figures.landedOnWrite++;
                void proc.kill();
              }
            }),
          );
        }
        timer = setTimeout(() => {
          if (!proc.killed) figures.writeFallbacks++;
          void proc.kill();
        }, WRITE_DEADLINE_MS);
      }
      await report.exited;
      clearTimeout(timer);
      for (const w of watchers) w.close();
      await stream.stop();
      lap('serving');
    }
    kills.set(mode, (kills.get(mode) ?? 0) + 1);
    if (report.crashed !== undefined) f.crashed.add(`run ${cycle}: ${report.crashed}`);
    for (const line of report.logs) {
      if (FILE_DAMAGE.test(line)) f.damageLogged.add(`run ${cycle}: ${line}`);
      else if (!line.includes('no password yet')) otherLogs.add(line.slice(0, 300));
    }
    settle(cycle, report);
    for (const torn of await tornFiles(dataDir)) f.tornFiles.add(`after run ${cycle}: ${torn}`);
    for (const name of await movedAside(dataDir)) f.movedAside.add(`after run ${cycle}: ${name}`);
  }
  figures.needs.state = mustState.filter((n) => n !== undefined).length;

  const total = [...kills.values()].reduce((a, b) => a + b, 0);
  t.comment(
    `seed ${SEED}; ${total} kills (${[...kills].map(([m, n]) => `${n} ${m}`).join(', ')}); ` +
      `${figures.landedInStartUp} before the hub was ready, ${figures.landedOnWrite} right as a file was written ` +
      `(${figures.writeFallbacks} write kills fell back to a timer); ${figures.calls} calls, ${figures.acked} answered; ` +
      `history rows required ${figures.needs.rows} (${needsBy['on disk']} on the child's word, ${needsBy.window} by the window); ` +
      `${Date.now() - started} ms (${Object.entries(spent)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')})`,
  );
  if (otherLogs.size > 0) t.comment(`other warnings and errors the hub logged:\n${[...otherLogs].join('\n')}`);
  const said = (name: string, found: Findings) => `${name} (seed ${SEED}): ${found}`;
  t.equal(total, KILLS, `${KILLS} kills`);
  t.equal(f.crashed.count, 0, said('no hub exited by itself', f.crashed));
  t.equal(f.callErrors.count, 0, said('every call answered as asked', f.callErrors));
  t.equal(f.stateLost.count, 0, said('(a) restored state no older than what was on disk', f.stateLost));
  t.equal(f.historyLost.count, 0, said('(b) history keeps every change that was on disk', f.historyLost));
  t.equal(f.historyShrank.count, 0, said('(b) history keeps every row a restarted hub served', f.historyShrank));
  t.equal(f.duplicates.count, 0, said('(b) no history row twice', f.duplicates));
  t.equal(f.outOfOrder.count, 0, said('(b) no history row older than the one before it', f.outOfOrder));
  t.equal(f.sameTime.count, 0, said('(b) no two history rows of an entity at the same time', f.sameTime));
  t.equal(f.lastRowWrong.count, 0, said('(b) history ends on the current state', f.lastRowWrong));
  t.equal(f.tornFiles.count, 0, said('(c) no torn file after a kill', f.tornFiles));
  t.equal(f.movedAside.count, 0, said('(c) no file moved aside', f.movedAside));
  t.equal(f.damageLogged.count, 0, said('(c) no damaged file reported by the hub', f.damageLogged));
  // The test has teeth: kills landed where they were aimed, and the child's write reports came through.
  t.ok(figures.landedInStartUp >= 3, `kills before ready: ${figures.landedInStartUp}`);
  t.ok(figures.landedOnWrite >= 10, `kills right as a file was written: ${figures.landedOnWrite}`);
  t.ok(needsBy['on disk'] > 0, 'the child reported completed writes');
  t.ok(figures.needs.state === TARGETS.length, 'every entity had a change that had to survive');
});
