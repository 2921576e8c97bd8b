import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isoFromMillis } from '../core/clock.js';
import type { Component } from '../core/component.js';
import type { Logger } from '../core/log.js';
import { DataFile } from '../storage/data-file.js';
import { WatchedFile } from '../storage/watched-file.js';
import { backoffDelay } from '../util/backoff.js';
import { normalizeAddress } from './address.js';
import { BANS_FILE, type BanList, banFileText, loadBans, parseBans } from './ban-file.js';
import { type BanSettings, DEFAULT_HTTP_SETTINGS } from './http-section.js';

/** Failed attempts an address gets before the login form makes it wait; then 1 s, 2 s, 4 s ... up to MAX_DELAY_MS. */
export const FREE_FAILURES = 5;
export const MAX_DELAY_MS = 5 * 60 * 1000;
/** Addresses whose failures are remembered; the oldest is forgotten beyond this, so a flood cannot grow memory. */
const MAX_TRACKED = 4096;
/** Failures older than this no longer slow the login form down (they still count toward a ban, as in Home Assistant). */
const THROTTLE_MEMORY_MS = 60 * 60 * 1000;

/** What the HTTP layer asks before routing any request: is this address banned? Cheap when nobody is. */
export interface AddressGate {
  /** False when no ban is in force: the caller can skip reading the address at all. */
  readonly active: boolean;
  isBanned(address: string): boolean;
}

/** What REST and WebSocket report: a request with a wrong token, or a successful authentication. */
export interface FailureRecorder {
  recordFailure(address: string, url: string): void;
  recordSuccess(address: string): void;
}

interface Failures {
  count: number;
  lastAt: number;
}

/**
 * Failed logins and IP bans, as Home Assistant's ban middleware does them: every failed login or request
 * with a wrong token counts against the client's address; at `login_attempts_threshold` the address is
 * banned (written to `<data>/ip_bans.yaml`) and gets 403 for everything until `hearth unban ADDRESS`.
 * A success resets the count. Independently of bans, the login form makes an address wait after
 * FREE_FAILURES failures, doubling each time.
 *
 * The ban file is watched, so an unban by the CLI takes effect in a running hub at once.
 */
export class LoginGuard implements AddressGate, FailureRecorder, Component {
  readonly name = 'login_guard';
  private readonly failures = new Map<string, Failures>();
  private bans: BanList;
  /** Follows the ban file, which `hearth unban` replaces while the hub runs. */
  private watched: WatchedFile | undefined;
  private dataDir: string | undefined;
  /** Writes the ban file; a write the disk refuses is logged once and retried, the bans in memory hold meanwhile. */
  private readonly file: DataFile;
  private lastWritten: string | undefined;
  private readonly reloadListeners = new Set<() => void>();

  private constructor(
    private readonly path: string,
    bans: BanList,
    private readonly settings: BanSettings,
    private readonly log: Logger,
    private readonly now: () => number,
  ) {
    this.bans = bans;
    this.file = new DataFile({
      path,
      log,
      label: 'ban file',
      render: () => banFileText(this.bans),
      onWritten: (text) => {
        this.lastWritten = text;
      },
    });
  }

  static async open(dataDir: string, settings: BanSettings, log: Logger, now: () => number = Date.now): Promise<LoginGuard> {
    const guard = LoginGuard.unopened(dataDir, settings, log, now);
    await guard.start();
    return guard;
  }

  /** The hub's guard: a component whose start() reads the ban file and watches it. */
  static unopened(dataDir: string, settings: BanSettings, log: Logger, now: () => number = Date.now): LoginGuard {
    const guard = new LoginGuard(join(dataDir, BANS_FILE), new Map(), settings, log, now);
    guard.dataDir = dataDir;
    return guard;
  }

  async start(): Promise<void> {
    if (!this.settings.ip_ban_enabled || this.dataDir === undefined) return;
    const loaded = await loadBans(this.path, this.log);
    this.bans = loaded.status === 'ok' || loaded.status === 'salvaged' ? loaded.value : new Map();
    // The damaged file was copied aside: the whole bans replace it, so the next start reads a clean file.
    if (loaded.status === 'salvaged') await this.persist();
    this.watched ??= new WatchedFile(
      this.dataDir,
      BANS_FILE,
      () => this.reload().catch((err: unknown) => this.log.error({ err }, `could not re-read ${BANS_FILE}`)),
      { log: this.log, withoutWatch: 'unbans made while the hub runs need a restart' },
    );
    this.watched.start();
    if (this.bans.size > 0) this.log.info({ banned: this.bans.size }, `${this.bans.size} banned address(es) loaded from ${BANS_FILE}`);
  }

  stop(): Promise<void> {
    return this.close();
  }

  /** A guard with no file and no bans (for tools and tests that need one). */
  static inert(): LoginGuard {
    return new LoginGuard('', new Map(), { ...DEFAULT_HTTP_SETTINGS, ip_ban_enabled: false }, silent, Date.now);
  }

  get active(): boolean {
    return this.bans.size > 0;
  }

  isBanned(address: string): boolean {
    return this.bans.size > 0 && this.bans.has(normalizeAddress(address));
  }

  bannedAddresses(): string[] {
    return [...this.bans.keys()];
  }

  recordFailure(address: string, url: string): void {
    const ip = normalizeAddress(address);
    const t = this.now();
    let entry = this.failures.get(ip);
    if (entry === undefined) {
      if (this.failures.size >= MAX_TRACKED) {
        const oldest = this.failures.keys().next();
        if (oldest.done !== true) this.failures.delete(oldest.value);
      }
      entry = { count: 0, lastAt: t };
      this.failures.set(ip, entry);
    }
    entry.count++;
    entry.lastAt = t;
    this.log.warn(
      { address: ip, url: url.slice(0, 200), failures: entry.count },
      "Login attempt or request with invalid authentication from %s. Requested URL: '%s'.",
      ip,
      url.slice(0, 200),
    );
    const threshold = this.settings.login_attempts_threshold;
    if (this.settings.ip_ban_enabled && threshold >= 1 && entry.count >= threshold && !this.bans.has(ip)) this.ban(ip);
  }

  recordSuccess(address: string): void {
    this.failures.delete(normalizeAddress(address));
  }

  /** How long the login form makes this address wait before it checks another password; 0 for no wait. */
  retryAfterMs(address: string): number {
    const entry = this.failures.get(normalizeAddress(address));
    if (entry === undefined || entry.count < FREE_FAILURES) return 0;
    const t = this.now();
    if (t - entry.lastAt > THROTTLE_MEMORY_MS) return 0;
    const delay = backoffDelay(entry.count - FREE_FAILURES + 1, { initialMs: 1000, maxMs: MAX_DELAY_MS });
    return Math.max(0, entry.lastAt + delay - t);
  }

  /** Lifts a ban in this hub and in the file; true when the address was banned. */
  async unban(address: string): Promise<boolean> {
    const ip = normalizeAddress(address);
    this.failures.delete(ip);
    if (!this.bans.delete(ip)) return false;
    await this.persist();
    return true;
  }

  /** Resolves when bans made so far are on disk. */
  async saved(): Promise<void> {
    await this.file.settled();
  }

  /** Called after the ban file was changed by another process and re-read. */
  onReload(listener: () => void): () => void {
    this.reloadListeners.add(listener);
    return () => this.reloadListeners.delete(listener);
  }

  /** Stops watching the ban file and waits for a write in progress. */
  async close(): Promise<void> {
    this.watched?.stop();
    await this.file.stop();
  }

  private ban(ip: string): void {
    this.bans.set(ip, { banned_at: isoFromMillis(this.now()) });
    this.log.warn({ address: ip }, 'Banned IP %s for too many login attempts', ip);
    void this.persist();
  }

  /** Never rejects: a refused write was logged once by the DataFile and is retried; the bans in memory hold. */
  private persist(): Promise<void> {
    return this.file.save().catch(() => {});
  }

  /** Takes the file's content as the truth when another process (`hearth unban`) changed it. */
  private async reload(): Promise<void> {
    await this.file.settled();
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      text = '';
    }
    if (text === this.lastWritten) return;
    const bans = parseBans(text, this.log);
    if (bans === undefined) return;
    for (const ip of this.bans.keys()) if (!bans.has(ip)) this.failures.delete(ip);
    this.bans = bans;
    this.lastWritten = text;
    this.log.info({ banned: bans.size }, `${BANS_FILE} changed; ${bans.size} banned address(es) now`);
    for (const listener of this.reloadListeners) listener();
  }
}

const silent: Logger = {
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
  fatal() {},
  child: () => silent,
};
