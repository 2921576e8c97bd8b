import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { registerWebSocketApi, type WebSocketApi } from '../../../src/api/websocket.js';
import type { WsLimits } from '../../../src/api/ws/limits.js';
import { LoginGuard } from '../../../src/auth/bans.js';
import { AuthStore } from '../../../src/auth/store.js';
import { parseConfigText } from '../../../src/config/load.js';
import { Core } from '../../../src/core/core.js';
import { type Logger, silentLogger } from '../../../src/core/log.js';
import type { ApiContext } from '../../../src/http/context.js';
import { HttpServer } from '../../../src/http/server.js';
import { Registries } from '../../../src/registry/index.js';
import { SECTION_VALIDATORS } from '../../../src/sections.js';
import { ErrorLog } from '../../../src/util/error-log.js';
import { formatLogMessage } from '../../../src/util/log-bounds.js';
import { MINIMAL_CONFIG, type Teardown } from '../../helpers/hub.js';

/** A message from the server, as parsed JSON. */
export type WsMessage = Record<string, unknown> & { type?: string; id?: number | null };

export interface Closed {
  readonly code: number;
  readonly reason: string;
}

const DEFAULT_DEADLINE_MS = 3000;

/**
 * A small WebSocket test client over `ws`: it keeps every message (a coalesced array frame counts as its
 * messages, in order) and lets a test wait for the next one, or the next that matches, with a deadline.
 */
export class WsClient {
  readonly messages: WsMessage[] = [];
  /** Raw text frames, for tests of framing (coalescing). */
  readonly frames: string[] = [];
  readonly closed: Promise<Closed>;
  /** Messages before this index have all been read; `read` holds the read ones after it. */
  private readCursor = 0;
  private readonly read = new Set<number>();
  private waiters: (() => void)[] = [];
  private nextId = 1;
  private isClosed = false;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      const text = isBinary ? '' : data.toString('utf8');
      this.frames.push(text);
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed)) for (const m of parsed) this.messages.push(m as WsMessage);
      else this.messages.push(parsed as WsMessage);
      this.wake();
    });
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.isClosed = true;
        this.wake();
        resolve({ code, reason: reason.toString() });
      });
    });
    ws.on('error', () => {});
  }

  static open(url: string): Promise<WsClient> {
    const ws = new WebSocket(url);
    const client = new WsClient(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(client));
      ws.once('error', reject);
    });
  }

  /** Opens a connection and authenticates; resolves once auth_ok arrived. */
  static async authenticated(url: string, token: string): Promise<WsClient> {
    const client = await WsClient.open(url);
    client.send({ type: 'auth', access_token: token });
    const required = await client.next();
    if (required.type !== 'auth_required') throw new Error(`expected auth_required, got ${JSON.stringify(required)}`);
    const ok = await client.next();
    if (ok.type !== 'auth_ok') throw new Error(`expected auth_ok, got ${JSON.stringify(ok)}`);
    return client;
  }

  get isOpen(): boolean {
    return !this.isClosed;
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The id the next `command` uses (ids must increase). */
  takeId(): number {
    return this.nextId++;
  }

  /** Sends a command with the next id and resolves with the reply of that id. */
  async command(type: string, fields: Record<string, unknown> = {}, deadlineMs = DEFAULT_DEADLINE_MS): Promise<WsMessage> {
    const id = this.takeId();
    this.send({ id, type, ...fields });
    return this.waitFor((m) => m.id === id && m.type !== 'event', deadlineMs, `reply to ${type} #${id}`);
  }

  /** The next unread message. */
  next(deadlineMs = DEFAULT_DEADLINE_MS): Promise<WsMessage> {
    return this.waitFor(() => true, deadlineMs, 'the next message');
  }

  /**
   * The first unread message that matches; it is marked read, the ones before it stay unread (so waiting
   * for a command's reply does not lose events that arrived first).
   */
  async waitFor(match: (m: WsMessage) => boolean, deadlineMs = DEFAULT_DEADLINE_MS, what = 'a matching message'): Promise<WsMessage> {
    const deadline = Date.now() + deadlineMs;
    let scanned = this.readCursor;
    for (;;) {
      for (; scanned < this.messages.length; scanned++) {
        if (this.read.has(scanned)) continue;
        const m = this.messages[scanned] as WsMessage;
        if (match(m)) {
          this.read.add(scanned);
          while (this.read.has(this.readCursor)) this.read.delete(this.readCursor++);
          return m;
        }
      }
      if (this.isClosed) throw new Error(`connection closed while waiting for ${what}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${what} within ${deadlineMs} ms`);
      await this.arrival(left);
    }
  }

  /** Resolves when `count` messages matching `match` have arrived in total (counting already read ones). */
  async waitForCount(match: (m: WsMessage) => boolean, count: number, deadlineMs = DEFAULT_DEADLINE_MS): Promise<WsMessage[]> {
    const deadline = Date.now() + deadlineMs;
    for (;;) {
      const found = this.messages.filter(match);
      if (found.length >= count) return found;
      if (this.isClosed) throw new Error(`connection closed with ${found.length} of ${count} messages`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`only ${found.length} of ${count} messages within ${deadlineMs} ms`);
      await this.arrival(left);
    }
  }

  /** Resolves with the close, or rejects after the deadline. */
  waitClosed(deadlineMs = DEFAULT_DEADLINE_MS): Promise<Closed> {
    return withDeadline(this.closed, deadlineMs, 'the connection to close');
  }

  close(): void {
    if (!this.isClosed) this.ws.close();
  }

  private arrival(maxMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, maxMs);
      const waiter = done;
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.waiters.push(waiter);
    });
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

export function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The status a WebSocket upgrade is answered with: an HTTP status when the hub refuses it (403 for a banned
 * address), 101 when it switched protocols.
 */
export function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return withDeadline(
    new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(url, { headers });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => {
        ws.close();
        resolve(101);
      });
      ws.on('error', reject);
    }),
    3000,
    'the upgrade answer',
  );
}

export interface WsOnlyServer {
  readonly core: Core;
  readonly auth: AuthStore;
  readonly api: WebSocketApi;
  readonly wsUrl: string;
  readonly token: string;
}

/**
 * A uWS server with only the WebSocket API and custom limits (the hub uses the defaults), over a bare
 * core with no drivers; stopped at teardown.
 */
export async function startWsOnly(t: Teardown, limits: Partial<WsLimits>, log: Logger = silentLogger): Promise<WsOnlyServer> {
  const server = await openWsOnly({ limits, log });
  t.teardown(server.close);
  return server;
}

/**
 * The server of `startWsOnly`, closed by the caller: over a given core (a benchmark prepares its
 * entities first) or a new one.
 */
export async function openWsOnly(options: {
  readonly limits: Partial<WsLimits>;
  readonly core?: Core;
  readonly log?: Logger;
  readonly owner?: string;
}): Promise<WsOnlyServer & { close(): Promise<void> }> {
  const log = options.log ?? silentLogger;
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-ws-'));
  const config = parseConfigText(MINIMAL_CONFIG, null, SECTION_VALIDATORS);
  const core = options.core ?? new Core({ log });
  const registries = await Registries.start({ core, dataDir, sections: config.sections, log });
  const auth = await AuthStore.open(dataDir, log);
  const server = new HttpServer(log);
  const ctx: ApiContext = {
    core,
    auth,
    registries,
    guard: LoginGuard.inert(),
    config,
    log,
    errorLog: new ErrorLog(),
    components: () => [],
  };
  const api = registerWebSocketApi(server, ctx, options.limits);
  server.finish();
  const port = await server.listen('127.0.0.1', 0);
  const close = async (): Promise<void> => {
    api.close();
    server.close();
    await auth.close();
    await registries.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  const owner = await auth.ensureOwner(options.owner ?? 'Test Owner');
  const token = await auth.createToken(owner.id, 'ws-only');
  return { core, auth, api, wsUrl: `ws://127.0.0.1:${port}/api/websocket`, token, close };
}

export interface LogLine {
  readonly level: string;
  readonly obj: Record<string, unknown>;
  readonly msg: string;
}

/** A logger that keeps its lines, for asserting what the hub logged, and can wait for one. */
export function recordingLogger(): Logger & {
  readonly lines: LogLine[];
  waitFor(pattern: RegExp, deadlineMs?: number): Promise<LogLine>;
} {
  const lines: LogLine[] = [];
  let waiters: (() => void)[] = [];
  const at =
    (level: string) =>
    (obj: object | string, msg?: string, ...values: unknown[]): void => {
      if (typeof obj === 'string') lines.push({ level, obj: {}, msg: obj });
      else lines.push({ level, obj: obj as Record<string, unknown>, msg: formatLogMessage(msg ?? '', values) });
      const w = waiters;
      waiters = [];
      for (const fn of w) fn();
    };
  const logger = {
    lines,
    trace() {},
    debug() {},
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    fatal: at('fatal'),
    child: () => logger,
    waitFor(pattern: RegExp, deadlineMs = DEFAULT_DEADLINE_MS): Promise<LogLine> {
      return withDeadline(
        new Promise<LogLine>((resolve) => {
          const check = (): void => {
            const found = lines.find((l) => pattern.test(l.msg));
            if (found) resolve(found);
            else waiters.push(check);
          };
          check();
        }),
        deadlineMs,
        `a log line matching ${pattern}`,
      );
    },
  };
  return logger;
}

/** A state as the official JS client rebuilds it from the compressed format. */
export interface ClientState {
  entity_id: string;
  state: string;
  attributes: Record<string, unknown>;
  context: { id: string; parent_id: string | null; user_id: string | null };
  last_changed: string;
  last_updated: string;
}

interface CompressedState {
  s: string;
  a: Record<string, unknown>;
  c: string | ClientState['context'];
  lc: number;
  lu?: number;
}

interface EntityEvent {
  a?: Record<string, CompressedState>;
  r?: string[];
  c?: Record<string, { '+'?: Partial<CompressedState> & { c?: string | Partial<ClientState['context']> }; '-'?: { a: string[] } }>;
}

/** home-assistant-js-websocket's entities.ts processEvent, applied to a plain map: a, then r, then c. */
export function applyEntityEvent(store: Map<string, ClientState>, event: EntityEvent): void {
  const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
  for (const [id, s] of Object.entries(event.a ?? {})) {
    const lc = iso(s.lc);
    store.set(id, {
      entity_id: id,
      state: s.s,
      attributes: s.a,
      context: typeof s.c === 'string' ? { id: s.c, parent_id: null, user_id: null } : s.c,
      last_changed: lc,
      last_updated: s.lu ? iso(s.lu) : lc,
    });
  }
  for (const id of event.r ?? []) store.delete(id);
  for (const [id, diff] of Object.entries(event.c ?? {})) {
    const old = store.get(id);
    if (old === undefined) throw new Error(`diff for unknown entity ${id}`);
    const next: ClientState = { ...old, attributes: { ...old.attributes }, context: { ...old.context } };
    const add = diff['+'];
    if (add !== undefined) {
      if (add.s !== undefined) next.state = add.s;
      if (add.c !== undefined) next.context = typeof add.c === 'string' ? { ...next.context, id: add.c } : { ...next.context, ...add.c };
      if (add.lc) next.last_updated = next.last_changed = iso(add.lc);
      else if (add.lu) next.last_updated = iso(add.lu);
      if (add.a) Object.assign(next.attributes, add.a);
    }
    for (const key of diff['-']?.a ?? []) delete next.attributes[key];
    store.set(id, next);
  }
}
