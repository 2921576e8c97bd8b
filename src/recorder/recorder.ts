import { join } from 'node:path';
import { constants, inflateRawSync } from 'node:zlib';
import type { Micros } from '../core/clock.js';
import type { Component } from '../core/component.js';
import type { Context } from '../core/context.js';
import type { Core } from '../core/core.js';
import type { HubEvent } from '../core/event-bus.js';
import { type JsonObject, sameJson } from '../core/json.js';
import type { Logger } from '../core/log.js';
import { type AppendFile, appendRecord, type OpenAppendFile, openAppendFile, type SkippedStretch } from '../storage/journal.js';
import { loadJournal } from '../storage/journal-load.js';
import { makeDir, syncDir } from '../storage/storage-fs.js';
import { WriteGuard } from '../storage/write-guard.js';
import { HistoryBudget } from './budget.js';
import { ByteReader, ByteWriter } from './bytes.js';
import { ChunkCache } from './chunk-cache.js';
import { checkChunks, markDamaged } from './chunk-check.js';
import { mergeDay, swapDay } from './day-compaction.js';
import { keepCopy, removeCopiesBefore } from './day-copies.js';
import { scanDays } from './day-scan.js';
import { entityFilter } from './entity-filter.js';
import {
  type ChunkRef,
  type DayFile,
  dayOf,
  deflateSized,
  deflateSizedAsync,
  readChunk,
  removeDayFile,
  removeTempFiles,
  replaceDayFile,
  sealRecords,
  settle,
} from './segments.js';
import { decodeChunk, encodeChunk, forEachInChunk, type PointVisitor, SeriesWriter } from './series.js';
import type { EventVisitor, HistoryReader, RecorderConfig, StateVisitor } from './types.js';

export const RECORDER_OWNER = 'recorder';
/** The series the recorder keeps events in (not an entity id: it has no dot). */
const EVENTS = '@events';
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** In memory: the unsealed hour, chunks not yet written and the read cache; the rule is src/recorder/budget.ts. */
export const DEFAULT_MEMORY_BUDGET_BYTES = 8 * 1024 * 1024;
/**
 * The hot tier is sealed early (compressed into chunks, a few times smaller, and written) when its encoded
 * points grow past this, or all it holds past the budget's seal mark (large attributes): a flood of changes
 * must not grow the hub's memory by the whole hour.
 */
const SEAL_BYTES = 1024 * 1024;
/** Chunks from this size on are deflated on libuv's threads: 64 KB is about 1 ms of zlib on a PC, 4 on a Pi. */
const ASYNC_DEFLATE_BYTES = 64 * 1024;
/** A seal deflates at most this much of chunks from SMALL_CHUNK_BYTES on the loop; past it they go to libuv's threads too. */
const SYNC_DEFLATE_BYTES = 256 * 1024;
const SMALL_CHUNK_BYTES = 4096;
/** Inflated chunks kept for repeated queries (a dashboard re-asking the same day). */
const CACHE_BYTES = 2 * 1024 * 1024;
const MAX_RETRY_MS = 5 * 60_000;
const WAL_FILE = 'wal';

/** Events the hub fires that carry nothing the logbook or a user reads back. */
const NOT_RECORDED: readonly string[] = ['state_changed', 'state_reported', 'service_registered', 'service_removed'];

export interface RecorderOptions {
  readonly core: Core;
  readonly dataDir: string;
  readonly log: Logger;
  readonly config: RecorderConfig;
  /** The journal's file operations (tests inject a full disk). */
  readonly openJournal?: OpenAppendFile;
  /** Day-file appends (tests inject a full disk). */
  readonly openDayFile?: OpenAppendFile;
  /** False in tests that drive commit() and seal() by hand. */
  readonly timers?: boolean;
  readonly memoryBudgetBytes?: number;
  /** Called after each write attempt (tests, benchmark). */
  readonly onWrite?: (kind: 'commit' | 'seal' | 'compaction' | 'failed') => void;
}

export interface RecorderStats {
  commits: number;
  seals: number;
  compactions: number;
  failedWrites: number;
  droppedPoints: number;
  /** Bytes of the journal dropped at start: damaged records and a torn tail. */
  droppedTailBytes: number;
}

/** A series being recorded, and how much of it the journal already has. */
interface HotSeries {
  readonly writer: SeriesWriter;
  committedBytes: number;
  committedStates: number;
  committedAttrs: number;
  committedUsers: number;
}

function newHot(): HotSeries {
  return { writer: new SeriesWriter(), committedBytes: 0, committedStates: 0, committedAttrs: 0, committedUsers: 0 };
}

/** Logbook-visible entities keep their context; continuous ones (a unit or a state class) do not. */
function isContinuous(attributes: Readonly<Record<string, unknown>>): boolean {
  return attributes.unit_of_measurement !== undefined || attributes.state_class !== undefined;
}

/**
 * The journal records to replay when some were skipped as damaged. A record holds what came since the one before
 * as differences, so after a skipped record the rest of its epoch cannot be read right: those are dropped (never
 * read wrong). A later epoch starts afresh, so its records are kept.
 */
function usableRecords(records: readonly Buffer[], skipped: readonly SkippedStretch[]): Buffer[] {
  const gaps = new Set(skipped.filter((s) => s.records > 0).map((s) => s.before));
  const out: Buffer[] = [];
  let broken = -1;
  for (const [index, raw] of records.entries()) {
    const epoch = new ByteReader(inflateRawSync(raw)).varint();
    if (gaps.has(index)) broken = epoch;
    if (epoch !== broken) out.push(raw);
  }
  return out;
}

/**
 * The recorder: every state change of the included entities and every event, kept for `purge_keep_days`.
 *
 * Three tiers, so that the disk sees few, small writes: the current hour in memory, encoded a few bytes a
 * point (src/recorder/series.ts); a write-ahead journal appended every `commit_interval` with what came since
 * (one deflated record, so a power cut loses at most that window); and day files of sealed, deflated
 * chunks, appended once an hour and rewritten once per finished day with one chunk per entity
 * (src/recorder/segments.ts). Queries read memory and the few chunks they need, synchronously.
 */
export class Recorder implements Component, HistoryReader {
  readonly name = RECORDER_OWNER;
  readonly owner = RECORDER_OWNER;
  readonly stats: RecorderStats = { commits: 0, seals: 0, compactions: 0, failedWrites: 0, droppedPoints: 0, droppedTailBytes: 0 };
  private readonly dir: string;
  private readonly keep: (entityId: string) => boolean;
  /** The last call_service event's data and its text (eventDataJson). */
  private lastCallService: { readonly data: JsonObject; readonly json: string } | undefined;
  private readonly decided = new Map<string, boolean>();
  /** Event types not recorded: state changes (their own series) and bookkeeping, and those the configuration excludes. */
  private readonly notRecorded: ReadonlySet<string>;
  private hot = new Map<string, HotSeries>();
  /** What the hot tier holds, kept as changes come (summing every series per change would cost O(entities)). */
  private hotBytes = 0;
  /** Of which encoded points. */
  private hotBody = 0;
  private pendingBytes = 0;
  private sealQueued = false;
  /** The hour (ms) the hot tier belongs to; sealed when the clock leaves it. */
  private hotHour = -1;
  /** Sealed chunks per series, oldest first. */
  private readonly refs = new Map<string, ChunkRef[]>();
  private readonly days = new Map<string, DayFile>();
  /** Sealed but not yet on disk (the disk refuses writes), oldest first. */
  private pending: ChunkRef[] = [];
  private pendingEpoch = 0;
  /** The journal's records carry the epoch they belong to; a seal that reaches the disk records its epoch. */
  private epoch = 1;
  /** The highest epoch the day files hold. */
  private diskEpoch = 0;
  private journal: AppendFile | undefined;
  private journalBytes = 0;
  /** The salt of the journal's generation appends continue (src/storage/journal.ts); undefined: the next append starts one. */
  private journalSalt: number | undefined;
  private readonly guard: WriteGuard;
  private readonly cache = new ChunkCache(CACHE_BYTES);
  private timer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs: number;
  private writing: Promise<void> = Promise.resolve();
  private running = false;
  private readonly budget: HistoryBudget;
  /** The purge and compaction under way, if any (one at a time). */
  private housekeeping_: Promise<void> | undefined;
  /** Housekeeping asked for while it ran (a seal, the clock a day on): it runs once more after. */
  private housekeepingAgain: Promise<void> | undefined;
  /** The chunks read at start have had their checksums checked (the first housekeeping does it). */
  private checked = false;

  constructor(private readonly options: RecorderOptions) {
    this.dir = join(options.dataDir, 'recorder');
    this.keep = entityFilter(options.config.include, options.config.exclude);
    this.notRecorded = new Set([...NOT_RECORDED, ...options.config.exclude.eventTypes]);
    this.guard = new WriteGuard(options.log, 'history');
    this.budget = new HistoryBudget(options.memoryBudgetBytes ?? DEFAULT_MEMORY_BUDGET_BYTES, options.log);
    this.retryMs = options.config.commitIntervalS * 1000;
  }

  // --- Component -------------------------------------------------------------------------------------

  async start(): Promise<void> {
    const { core, log } = this.options;
    try {
      await makeDir(this.dir);
      await removeTempFiles(this.dir);
      const scan = await scanDays(this.dir, log);
      for (const [day, file] of scan.days) this.days.set(day, file);
      for (const ref of scan.refs) this.refsOf(ref.entityId).push(ref);
      for (const list of this.refs.values()) list.sort((a, b) => a.firstMs - b.firstMs);
      this.epoch = scan.sealedEpoch + 1;
      this.diskEpoch = scan.sealedEpoch;
      await this.replayJournal(scan.sealedEpoch);
    } catch (err) {
      log.error({ err }, 'history could not be read; recording from now on');
    }
    // Loading cut off a damaged journal's tail already (or, when it could not, appends go after it and are read).
    await this.openJournal();
    core.bus.on(RECORDER_OWNER, 'state_changed', (event) => this.onStateChanged(event));
    core.bus.on(RECORDER_OWNER, '*', (event) => this.onEvent(event));
    this.running = true;
    if (this.options.timers !== false) {
      this.timer = setInterval(() => void this.tick(), this.options.config.commitIntervalS * 1000);
      this.timer.unref();
    }
    void this.housekeeping();
  }

  /** Writes what is buffered to the journal and closes it. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.options.core.bus.removeOwner(RECORDER_OWNER);
    clearInterval(this.timer);
    clearTimeout(this.retryTimer);
    await this.commit();
    await this.writing;
    await this.journal?.close().catch(() => {});
    this.journal = undefined;
  }

  /** Resolves when the writes under way (commits, seals) are done. */
  settled(): Promise<void> {
    return this.writing;
  }

  /** The commit timer: seal when the hour is over, else append what came since the last commit. */
  tick(): Promise<void> {
    const hour = this.hourOf(this.nowMs());
    return hour !== this.hotHour && this.hot.size > 0 ? this.seal() : this.commit();
  }

  // --- Recording -------------------------------------------------------------------------------------

  private nowMs(): number {
    return Math.floor(this.options.core.clock.now() / 1000);
  }

  private hourOf(ms: number): number {
    return ms - (ms % HOUR_MS);
  }

  /** Whether the recorder keeps this entity's changes. */
  records(entityId: string): boolean {
    let keep = this.decided.get(entityId);
    if (keep === undefined) {
      keep = this.keep(entityId);
      // Bounded by the state table's capacity; ids of removed entities are few.
      if (this.decided.size < 65_536) this.decided.set(entityId, keep);
    }
    return keep;
  }

  private onStateChanged(event: HubEvent<'state_changed'>): void {
    const next = event.data.new_state;
    if (next === null || !this.records(next.entity_id)) return;
    const context = isContinuous(next.attributes) ? null : next.context;
    this.add(
      next.entity_id,
      next.state,
      next.attributesJson,
      Math.floor(next.lastChangedUs / 1000),
      Math.floor(next.lastUpdatedUs / 1000),
      context,
    );
  }

  private onEvent(event: HubEvent): void {
    const type = event.event_type;
    // A state change comes to both listeners: the common case first, without a lookup.
    if (type === 'state_changed' || this.notRecorded.has(type)) return;
    const ms = Math.floor(event.timeFiredUs / 1000);
    this.add(EVENTS, type, this.eventDataJson(event), ms, ms, event.context);
  }

  /**
   * An event's data as text. call_service comes with every call, and mostly the same few calls again (a
   * dashboard's toggles): the last one's text is reused when its data reads the same, which costs a walk
   * instead of a stringify, and the series' dictionary then finds the very same string.
   */
  private eventDataJson(event: HubEvent): string {
    if (event.event_type !== 'call_service') return JSON.stringify(event.data);
    const last = this.lastCallService;
    if (last !== undefined && sameJson(last.data, event.data)) return last.json;
    const json = JSON.stringify(event.data);
    this.lastCallService = { data: event.data, json };
    return json;
  }

  private add(id: string, state: string, attributesJson: string, lcMs: number, luMs: number, context: Context | null): void {
    let attrs: string | undefined = attributesJson;
    if (this.budget.needsDecision(attrs.length, this.hotBytes + this.pendingBytes + this.cache.bytes)) {
      attrs = this.admit(id, attrs);
      if (attrs === undefined) {
        this.stats.droppedPoints++;
        return;
      }
    }
    if (this.hotHour < 0) this.hotHour = this.hourOf(luMs);
    let series = this.hot.get(id);
    if (series === undefined) {
      series = newHot();
      this.hot.set(id, series);
    }
    const writer = series.writer;
    const before = writer.memoryBytes;
    const beforeBody = writer.body.length;
    writer.append(state, attrs, lcMs, luMs, context);
    this.hotBytes += writer.memoryBytes - before;
    this.hotBody += writer.body.length - beforeBody;
    if (this.overSealMark() && !this.sealQueued && this.running) this.sealEarly();
  }

  /** The attributes a change keeps under the memory budget; undefined: it is not recorded. The read cache goes first. */
  private admit(id: string, attributesJson: string): string | undefined {
    if (this.hotBytes + this.pendingBytes + this.cache.bytes + attributesJson.length > this.budget.limit) this.cache.clear();
    const known = this.hot.get(id)?.writer.attrs.has(attributesJson) ?? false;
    return this.budget.admit(id, attributesJson, this.hotBytes + this.pendingBytes, known, this.guard.failing);
  }

  /**
   * Whether the hot tier is to be sealed now: its encoded points past SEAL_BYTES, or all it holds (large
   * attributes, many entities' first points) past the budget's seal mark, which leaves the rest of the budget
   * for what comes while the seal is written.
   */
  private overSealMark(): boolean {
    return this.hotBody > SEAL_BYTES || this.hotBytes > this.budget.sealMark;
  }

  private sealEarly(): void {
    this.sealQueued = true;
    void this.seal(true).finally(() => {
      this.sealQueued = false;
      // What came while the seal was written may be past the mark already.
      if (this.overSealMark() && this.running) this.sealEarly();
    });
  }

  /** Bytes the recorder holds for history: the hot tier, chunks waiting for the disk, the read cache. */
  memoryBytes(): number {
    return this.hotBytes + this.pendingBytes + this.cache.bytes;
  }

  /** Recounts the bytes of chunks sealed in memory that wait for the disk, after the list changed. */
  private recountPending(): void {
    let n = 0;
    for (const ref of this.pending) n += ref.length;
    this.pendingBytes = n;
  }

  // --- Journal ---------------------------------------------------------------------------------------

  /** Appends everything since the last commit to the journal (one record); resolves when written or failed. */
  commit(): Promise<void> {
    this.writing = this.writing.then(() => this.commitOnce());
    return this.writing;
  }

  private async commitOnce(): Promise<void> {
    if (this.pending.length > 0) await this.writePending();
    const w = new ByteWriter(1024);
    w.varint(this.epoch);
    const marks: [HotSeries, number, number, number, number][] = [];
    for (const [id, s] of this.hot) {
      const { writer } = s;
      if (writer.body.length === s.committedBytes) continue;
      w.string(id);
      for (const [dict, from] of [
        [writer.states, s.committedStates],
        [writer.attrs, s.committedAttrs],
        [writer.users, s.committedUsers],
      ] as const) {
        w.varint(dict.size - from);
        for (let i = from; i < dict.size; i++) w.string(dict.items[i] as string);
      }
      w.varint(writer.body.length - s.committedBytes);
      writer.body.appendTo(w, s.committedBytes);
      marks.push([s, writer.body.length, writer.states.size, writer.attrs.size, writer.users.size]);
    }
    if (marks.length === 0) return;
    if (this.journal === undefined && !(await this.openJournal())) return this.failed();
    // On libuv's threads: a commit under a flood holds up to a megabyte of points.
    const payload = await deflateSizedAsync(w.view(), constants.Z_DEFAULT_COMPRESSION);
    const journal = this.journal as AppendFile;
    const appended = await this.guard.run(async () => {
      const end = await appendRecord(journal, payload, { salt: this.journalSalt, bytes: this.journalBytes });
      this.journalBytes = end.bytes;
      this.journalSalt = end.salt;
    });
    if (appended) {
      for (const [s, bytes, states, attrs, users] of marks) {
        s.committedBytes = bytes;
        s.committedStates = states;
        s.committedAttrs = attrs;
        s.committedUsers = users;
      }
      this.stats.commits++;
      this.succeeded('commit');
      return;
    }
    // A partly written record must not stay in the middle of the journal.
    await journal.truncate(this.journalBytes).catch(() => {});
    this.failed();
  }

  private async openJournal(): Promise<boolean> {
    const opener = this.options.openJournal ?? openAppendFile;
    return this.guard.run(async () => {
      await makeDir(this.dir);
      this.journal = await opener(join(this.dir, WAL_FILE));
    });
  }

  private async replayJournal(sealedEpoch: number): Promise<void> {
    const journal = await loadJournal(join(this.dir, WAL_FILE), { log: this.options.log, label: 'history journal', usable: usableRecords });
    this.journalBytes = journal.end.bytes;
    this.journalSalt = journal.end.salt;
    this.stats.droppedTailBytes = journal.droppedBytes;
    let replayEpoch = -1;
    for (const raw of journal.records) {
      const r = new ByteReader(inflateRawSync(raw));
      const epoch = r.varint();
      if (epoch <= sealedEpoch) continue;
      // Records of an hour whose seal never reached the disk: that hour is sealed again, in memory first.
      if (replayEpoch >= 0 && epoch !== replayEpoch) {
        this.epoch = replayEpoch;
        this.sealInMemory();
      }
      replayEpoch = epoch;
      while (!r.done) {
        const id = r.string();
        const lists: string[][] = [];
        for (let d = 0; d < 3; d++) {
          const n = r.varint();
          const items: string[] = [];
          for (let i = 0; i < n; i++) items.push(r.string());
          lists.push(items);
        }
        const body = r.bytes(r.varint());
        let s = this.hot.get(id);
        if (s === undefined) {
          s = newHot();
          this.hot.set(id, s);
        }
        s.writer.appendEncoded(body, lists[0] ?? [], lists[1] ?? [], lists[2] ?? []);
        s.committedBytes = s.writer.body.length;
        s.committedStates = s.writer.states.size;
        s.committedAttrs = s.writer.attrs.size;
        s.committedUsers = s.writer.users.size;
      }
    }
    if (replayEpoch >= 0) this.epoch = replayEpoch;
    let first = Number.POSITIVE_INFINITY;
    for (const s of this.hot.values()) {
      first = Math.min(first, s.writer.firstMs);
      this.hotBytes += s.writer.memoryBytes;
      this.hotBody += s.writer.body.length;
    }
    if (Number.isFinite(first)) this.hotHour = this.hourOf(first);
  }

  // --- Sealing ---------------------------------------------------------------------------------------

  /**
   * Turns the hot tier into chunks in memory and starts a new epoch (the journal's records before it are sealed).
   * A large chunk (one entity's flood) is deflated before it is written, off the event loop (deflatePending);
   * the small ones of an ordinary seal here, where zlib's setup costs more than its work.
   * `fast`: an early seal under a flood deflates at zlib's fastest level (a third of the CPU of the default); its
   * chunks are rewritten at the default level when the day is compacted, so only that day's file is a little larger.
   */
  private sealInMemory(fast = false): void {
    let onLoop = 0;
    for (const [id, s] of this.hot) {
      const w = s.writer;
      if (w.count === 0) continue;
      const plain = encodeChunk(w);
      const level = fast ? constants.Z_BEST_SPEED : constants.Z_DEFAULT_COMPRESSION;
      // Small chunks stay here whatever came before: on a thread, each would cost more than its zlib work.
      const sizable = plain.length >= SMALL_CHUNK_BYTES;
      if (sizable) onLoop += plain.length;
      const later = plain.length >= ASYNC_DEFLATE_BYTES || (sizable && onLoop > SYNC_DEFLATE_BYTES);
      const bytes = later ? plain : deflateSized(plain, level);
      const ref: ChunkRef = {
        entityId: id,
        firstMs: w.firstMs,
        lastMs: w.lastMs,
        count: w.count,
        day: dayOf(w.firstMs),
        offset: 0,
        length: bytes.length,
        crc: 0,
        pending: bytes,
        deflateLevel: later ? level : undefined,
        damaged: false,
      };
      this.refsOf(id).push(ref);
      this.pending.push(ref);
    }
    this.hot = new Map();
    this.hotBytes = 0;
    this.hotBody = 0;
    this.hotHour = -1;
    this.pendingEpoch = this.epoch;
    this.epoch++;
    this.recountPending();
  }

  /** Seals the hour (or, `early`, the hot tier grown past SEAL_BYTES): its chunks go to the day files, and the journal starts over. */
  seal(early = false): Promise<void> {
    this.writing = this.writing.then(async () => {
      this.sealInMemory(early);
      await this.writePending();
      void this.housekeeping();
    });
    return this.writing;
  }

  /**
   * Deflates the large chunks sealed since the last write on libuv's threads: a seal under a flood of one
   * entity holds a megabyte of its points, some 15 ms of zlib on a PC and several times that on a Pi. All are
   * handed over at once (the budget bounds what a seal holds), so the seal waits for the slowest, not the sum
   * of round trips. Until a chunk is deflated, queries read its encoded bytes as they are.
   */
  private async deflatePending(): Promise<void> {
    const work: Promise<void>[] = [];
    for (const ref of this.pending) {
      const level = ref.deflateLevel;
      const plain = ref.pending;
      if (level === undefined || plain === undefined) continue;
      work.push(
        deflateSizedAsync(plain, level).then((bytes) => {
          ref.pending = bytes;
          ref.length = bytes.length;
          ref.deflateLevel = undefined;
        }),
      );
    }
    await Promise.all(work);
    this.recountPending();
  }

  /** Writes the chunks waiting in memory to their day files; the journal is emptied when all are written. */
  private async writePending(): Promise<void> {
    await this.deflatePending();
    const byDay = new Map<string, ChunkRef[]>();
    for (const ref of this.pending) {
      const list = byDay.get(ref.day);
      if (list === undefined) byDay.set(ref.day, [ref]);
      else list.push(ref);
    }
    const opener = this.options.openDayFile ?? openAppendFile;
    let left = byDay.size;
    for (const [day, refs] of byDay) {
      const file = this.days.get(day) ?? { day, size: 0, compacted: false, damaged: false };
      // Only the last file of a seal says the epoch is on disk: a crash between two files (a seal across
      // midnight) replays the journal rather than losing the second day's part.
      const bytes = sealRecords(refs, file.size, this.pendingEpoch, --left === 0, false);
      const ok = await this.guard.run(async () => {
        const f = await opener(join(this.dir, `${day}.seg`));
        try {
          await f.append(bytes);
          // A new file's name is durable only once its directory is.
          if (file.size === 0) await syncDir(this.dir);
        } catch (err) {
          await f.truncate(file.size).catch(() => {});
          throw err;
        } finally {
          await f.close().catch(() => {});
        }
      });
      if (!ok) return this.failed();
      settle(refs);
      file.size += bytes.length;
      file.compacted = false;
      this.days.set(day, file);
      this.pending = this.pending.filter((r) => r.pending !== undefined);
      this.recountPending();
    }
    if (byDay.size === 0) return;
    this.diskEpoch = this.pendingEpoch;
    this.stats.seals++;
    // Everything the journal holds is in the day files now (the epoch says so if this truncation fails);
    // commits are chained behind this write, so no record of the new epoch is in the journal yet.
    if (this.journal !== undefined && this.journalBytes > 0) {
      const journal = this.journal;
      if (await this.guard.run(() => journal.truncate(0))) this.journalBytes = 0;
    }
    this.budget.relieved(this.hotBytes + this.pendingBytes);
    this.succeeded('seal');
  }

  private failed(): void {
    this.stats.failedWrites++;
    this.options.onWrite?.('failed');
    if (!this.running || this.retryTimer !== undefined) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.commit();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }

  private succeeded(kind: 'commit' | 'seal' | 'compaction'): void {
    this.retryMs = this.options.config.commitIntervalS * 1000;
    this.options.onWrite?.(kind);
  }

  // --- Purge and compaction --------------------------------------------------------------------------

  /** Checks the chunks found at start (once), purges days past retention and compacts finished days; one at a time, in the background. */
  housekeeping(): Promise<void> {
    if (this.housekeeping_ !== undefined) {
      this.housekeepingAgain ??= this.housekeeping_.then(() => {
        this.housekeepingAgain = undefined;
        return this.housekeeping();
      });
      return this.housekeepingAgain;
    }
    this.housekeeping_ = this.checkOnce()
      .then(() => this.purge())
      .then(() => this.compactFinishedDays())
      .catch((err: unknown) => this.options.log.error({ err }, 'history housekeeping failed; retried at the next seal'))
      .finally(() => {
        this.housekeeping_ = undefined;
      });
    return this.housekeeping_;
  }

  /**
   * Once after start: checks the checksums of the chunks found (src/recorder/chunk-check.ts), and removes
   * copies of damaged files past retention whose day file is gone (purge removes the others with their day).
   */
  private async checkOnce(): Promise<void> {
    if (this.checked) return;
    this.checked = true;
    await checkChunks(this.dir, this.refs.values(), this.options.log);
    await removeCopiesBefore(this.dir, dayOf(this.nowMs() - this.options.config.purgeKeepDays * DAY_MS));
  }

  /** Drops the day files older than purge_keep_days (with the copies kept of them). */
  async purge(): Promise<void> {
    const cutoff = dayOf(this.nowMs() - this.options.config.purgeKeepDays * DAY_MS);
    for (const day of [...this.days.keys()]) {
      if (day >= cutoff) continue;
      await removeDayFile(this.dir, day);
      this.days.delete(day);
    }
    for (const [id, list] of this.refs) {
      const kept = list.filter((r) => r.day >= cutoff);
      if (kept.length === 0) this.refs.delete(id);
      else if (kept.length !== list.length) this.refs.set(id, kept);
    }
    this.pending = this.pending.filter((r) => r.day >= cutoff);
    this.recountPending();
  }

  private async compactFinishedDays(): Promise<void> {
    const today = dayOf(this.nowMs());
    for (const file of [...this.days.values()]) {
      if (file.compacted || file.day >= today) continue;
      await this.compactDay(file);
    }
  }

  /**
   * Rewrites a finished day with one chunk per series (damaged chunks left out, after a copy of the file is
   * kept). While the new file is written, queries read the merged chunks from memory: no query reads the file
   * through offsets it no longer has. The write waits for seals, and a seal that appended to the day
   * meanwhile makes this attempt give way to the next.
   */
  private async compactDay(file: DayFile): Promise<void> {
    // Taken before the merge reads the day's chunks: a seal written while it merges (its chunks were still in
    // memory, so left out) changes the size, and this attempt gives way instead of dropping them in the swap.
    const size = file.size;
    const { merged, damaged } = await mergeDay(this.refs, file.day, (ref, visit) => this.visitChunk(ref, visit));
    const content = sealRecords(merged, 0, this.diskEpoch, true, true);
    this.writing = this.writing.then(async () => {
      if (file.size !== size || this.days.get(file.day) !== file || !this.running) return;
      const before = swapDay(this.refs, file.day, merged);
      const ok = await this.guard.run(async () => {
        if (damaged || file.damaged) await keepCopy(join(this.dir, `${file.day}.seg`));
        await replaceDayFile(this.dir, file.day, content);
      });
      if (!ok) {
        for (const [id, list] of before) this.refs.set(id, list);
        return;
      }
      settle(merged);
      this.cache.clear();
      file.size = content.length;
      file.compacted = true;
      file.damaged = false;
      this.stats.compactions++;
      this.succeeded('compaction');
    });
    await this.writing;
  }

  // --- Reading ---------------------------------------------------------------------------------------

  private refsOf(id: string): ChunkRef[] {
    let list = this.refs.get(id);
    if (list === undefined) {
      list = [];
      this.refs.set(id, list);
    }
    return list;
  }

  private visitChunk(ref: ChunkRef, visit: PointVisitor): void {
    const key = `${ref.day}:${ref.offset}:${ref.entityId}`;
    let inflated = ref.pending === undefined ? this.cache.get(key) : undefined;
    if (inflated === undefined) {
      if (ref.damaged) return;
      try {
        inflated = readChunk(this.dir, ref);
      } catch (err) {
        markDamaged(ref, err, this.options.log);
        return;
      }
      if (ref.pending === undefined) this.cache.put(key, inflated);
    }
    forEachInChunk(decodeChunk(inflated), visit);
  }

  oldestUs(): Micros {
    const now = this.nowMs();
    let first = now;
    for (const list of this.refs.values()) if (list[0] !== undefined) first = Math.min(first, list[0].firstMs);
    for (const s of this.hot.values()) if (s.writer.count > 0) first = Math.min(first, s.writer.firstMs);
    return Math.max(first, now - this.options.config.purgeKeepDays * DAY_MS) * 1000;
  }

  forEachState(entityId: string, startUs: Micros, endUs: Micros, initial: boolean, visit: StateVisitor): number {
    return this.visitSeries(entityId, startUs, endUs, initial, visit);
  }

  forEachEvent(startUs: Micros, endUs: Micros, visit: EventVisitor): void {
    this.visitSeries(EVENTS, startUs, endUs, false, (type, data, _lc, lu, ctx) => {
      if (ctx !== null) visit(type, data, lu, ctx);
    });
  }

  entitiesDuring(startUs: Micros, endUs: Micros): string[] {
    const start = Math.floor(startUs / 1000);
    const end = Math.ceil(endUs / 1000);
    const out = new Set<string>();
    for (const [id, list] of this.refs) {
      if (id === EVENTS) continue;
      if (list.some((r) => r.firstMs < end && r.lastMs >= start)) out.add(id);
    }
    for (const [id, s] of this.hot) {
      if (id !== EVENTS && s.writer.count > 0 && s.writer.firstMs < end && s.writer.lastMs >= start) out.add(id);
    }
    return [...out];
  }

  private visitSeries(id: string, startUs: Micros, endUs: Micros, initial: boolean, visit: StateVisitor): number {
    // Points are kept to the millisecond: [start, end) in microseconds, compared on the microsecond value.
    let count = 0;
    let held = false;
    let hState = '';
    let hAttrs = '';
    let hLc = 0;
    let hLu = 0;
    let hCtx: Context | null = null;
    const onPoint: PointVisitor = (state, attrs, lc, lu, ctx) => {
      const luUs = lu * 1000;
      if (luUs < startUs) {
        if (initial) {
          held = true;
          hState = state;
          hAttrs = attrs;
          hLc = lc;
          hLu = lu;
          hCtx = ctx;
        }
        return;
      }
      if (luUs >= endUs) return;
      if (held) {
        held = false;
        visit(hState, hAttrs, hLc * 1000, hLu * 1000, hCtx);
        count++;
      }
      visit(state, attrs, lc * 1000, luUs, ctx);
      count++;
    };
    const start = Math.floor(startUs / 1000);
    const end = endUs / 1000;
    const list = this.refs.get(id) ?? [];
    // For the initial state only the last chunk that ends before the start is needed.
    let lastBefore = -1;
    if (initial) for (let i = 0; i < list.length; i++) if ((list[i] as ChunkRef).lastMs < start) lastBefore = i;
    for (let i = 0; i < list.length; i++) {
      const ref = list[i] as ChunkRef;
      if (ref.firstMs >= end) break;
      if (ref.lastMs < start && i !== lastBefore) continue;
      this.visitChunk(ref, onPoint);
    }
    this.hot.get(id)?.writer.forEach(onPoint);
    if (held) {
      visit(hState, hAttrs, hLc * 1000, hLu * 1000, hCtx);
      count++;
    }
    return count;
  }
}
