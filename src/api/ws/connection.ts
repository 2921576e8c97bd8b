import type { Principal } from '../../auth/types.js';
import { toClientError, type WsErrorCode } from '../../core/errors.js';
import { isJsonObject, type JsonObject, tryParseJson } from '../../core/json.js';
import type { Logger } from '../../core/log.js';
import type { ApiContext } from '../../http/context.js';
import { readAuthMessage } from './auth-message.js';
import type { EntityMessageCache } from './compressed-state.js';
import type { WsLimits } from './limits.js';
import {
  AUTH_OK,
  AUTH_REQUIRED,
  authInvalid,
  bareResultMessage,
  type EchoedId,
  type EventMessageCache,
  errorMessage,
  resultMessage,
} from './messages.js';
import { type FlushScheduler, type FrameSink, Outbox, type SlowConsumer } from './outbox.js';
import { describe } from './schema.js';
import type { SnapshotCache, Subscription } from './subscriptions.js';

/** The uWS WebSocket as a connection uses it. */
export interface WsSocket extends FrameSink {
  /** Graceful close: queued data, then a close frame. Calls the close handler synchronously. */
  end(code?: number, shortMessage?: string): void;
  /** Immediate close, no close frame. Calls the close handler synchronously. */
  close(): void;
}

/** Everything the connections of one WebSocket API share. */
export interface WsEnv {
  readonly ctx: ApiContext;
  readonly limits: WsLimits;
  readonly log: Logger;
  readonly scheduler: FlushScheduler;
  readonly events: EventMessageCache;
  readonly entities: EntityMessageCache;
  readonly snapshots: SnapshotCache;
  readonly commands: ReadonlyMap<string, Command>;
}

/** A command-phase handler. It may answer now or later; a throw or rejection becomes an error result. */
export interface Command {
  run(conn: Connection, message: JsonObject, id: number): void | Promise<void>;
}

type Phase = 'auth' | 'command' | 'closed';

const decoder = new TextDecoder();
let nextConnectionId = 1;

/**
 * One WebSocket client: the auth phase, then commands with increasing ids, its subscriptions, and its
 * outbox. A client's mistakes get error results and never close the connection once it is authenticated;
 * what closes it is a failed auth, the auth timeout, a revoked token, or falling too far behind.
 */
export class Connection {
  readonly id = nextConnectionId++;
  /** The bus owner key for this connection's listeners. */
  readonly owner: string;
  readonly outbox: Outbox;
  private phase: Phase = 'auth';
  private who: Principal | undefined;
  private lastId = 0;
  private readonly subscriptions = new Map<number, Subscription>();
  private authTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly socket: WsSocket,
    readonly remoteAddress: string,
    readonly env: WsEnv,
    private readonly onClosed: (conn: Connection) => void,
  ) {
    this.owner = `websocket:${this.id}`;
    this.outbox = new Outbox(socket, env.limits, env.scheduler, {
      onSlowConsumer: (info) => this.dropSlow(info),
      onDrained: () => {
        for (const sub of this.subscriptions.values()) sub.onDrained?.();
      },
    });
  }

  get principal(): Principal | undefined {
    return this.who;
  }

  /** Sends auth_required and starts the auth timer. */
  open(): void {
    // Sent straight to uWS (HA sends it outside the queue too): the socket is fresh, nothing can be waiting.
    this.socket.send(AUTH_REQUIRED, false);
    this.authTimer = setTimeout(() => {
      this.authTimer = undefined;
      if (this.phase !== 'auth') return;
      this.env.log.warn(this.logFields(), `Did not receive auth message within ${this.env.limits.authTimeoutMs / 1000} seconds`);
      this.end(1008, 'Authentication timed out');
    }, this.env.limits.authTimeoutMs);
    this.authTimer.unref();
  }

  /** One inbound frame. The buffer is valid only during this call (uWS neuters it on return). */
  onFrame(data: ArrayBuffer, isBinary: boolean): void {
    if (this.phase === 'closed') return;
    if (this.phase === 'auth') {
      this.onAuthFrame(isBinary ? undefined : decoder.decode(data));
      return;
    }
    if (isBinary) {
      this.sendError(null, 'invalid_format', 'Message incorrectly formatted: binary frames are not supported; send JSON text.');
      return;
    }
    const parsed = tryParseJson(decoder.decode(data));
    if (!parsed.ok) {
      // Home Assistant closes the connection here; hearth answers and keeps it (a decided deviation).
      this.sendError(null, 'invalid_format', 'Message incorrectly formatted: the frame is not valid JSON.');
      return;
    }
    if (Array.isArray(parsed.value)) {
      for (const message of parsed.value as unknown[]) {
        if (this.phase !== 'command') return;
        this.onMessage(message);
      }
    } else this.onMessage(parsed.value);
  }

  /** uWS drained its buffer for this socket. */
  onDrain(): void {
    if (this.phase !== 'closed') this.outbox.onDrain();
  }

  /** uWS closed the socket (any reason); after this the socket must not be touched. */
  onSocketClosed(): void {
    if (this.phase === 'closed') return;
    this.phase = 'closed';
    if (this.authTimer !== undefined) clearTimeout(this.authTimer);
    this.authTimer = undefined;
    for (const sub of this.subscriptions.values()) sub.stop();
    this.subscriptions.clear();
    this.outbox.close();
    this.onClosed(this);
  }

  /** Closes gracefully (queued data already handed to uWS still goes out, then a close frame). */
  end(code: number, reason: string): void {
    if (this.phase === 'closed') return;
    try {
      this.socket.end(code, reason);
    } catch {
      // Already closed on the uWS side; the close handler ran or will run.
    }
    this.onSocketClosed();
  }

  // ---- replies ------------------------------------------------------------------------------------

  send(message: string): void {
    this.outbox.push(message);
  }

  sendResult(id: number, resultJson: string): void {
    this.outbox.push(resultMessage(id, resultJson));
  }

  sendBareResult(id: number): void {
    this.outbox.push(bareResultMessage(id));
  }

  sendError(id: EchoedId, code: WsErrorCode, message: string): void {
    this.outbox.push(errorMessage(id, code, message));
  }

  /** Turns anything a command threw into its error result; unexpected errors are logged, not shown. */
  sendFailure(id: number, err: unknown): void {
    const { code, message } = toClientError(err);
    if (code === 'unknown_error') this.env.log.error({ err, ...this.logFields() }, 'WebSocket command failed');
    this.sendError(id, code, message);
  }

  // ---- subscriptions ------------------------------------------------------------------------------

  get subscriptionCount(): number {
    return this.subscriptions.size;
  }

  addSubscription(id: number, sub: Subscription): void {
    this.subscriptions.set(id, sub);
  }

  /** Stops a subscription; false when this connection has none with that id. */
  removeSubscription(id: number): boolean {
    const sub = this.subscriptions.get(id);
    if (sub === undefined) return false;
    sub.stop();
    this.subscriptions.delete(id);
    return true;
  }

  /** Who this is, for log lines: address, user and how much is waiting. */
  logFields(): Record<string, unknown> {
    return {
      connection: this.id,
      address: this.remoteAddress,
      user: this.who?.user.name ?? null,
      pending: this.outbox.pending,
    };
  }

  // ---- internals ----------------------------------------------------------------------------------

  private onAuthFrame(text: string | undefined): void {
    if (this.authTimer !== undefined) clearTimeout(this.authTimer);
    this.authTimer = undefined;
    const auth = readAuthMessage(text);
    if (!auth.ok) {
      this.rejectAuth(`Auth message incorrectly formatted: ${auth.problem}`);
      return;
    }
    const principal = auth.token === undefined ? undefined : this.env.ctx.auth.authenticate(auth.token);
    if (principal === undefined) {
      this.env.ctx.guard.recordFailure(this.remoteAddress, '/api/websocket');
      this.rejectAuth('Invalid access token or password');
      return;
    }
    this.env.ctx.guard.recordSuccess(this.remoteAddress);
    this.who = principal;
    this.phase = 'command';
    this.outbox.push(AUTH_OK);
    this.env.log.debug(this.logFields(), 'WebSocket client authenticated');
  }

  private rejectAuth(message: string): void {
    this.env.log.warn({ ...this.logFields(), reason: message }, 'WebSocket authentication failed');
    // auth_invalid goes straight to uWS before the close frame: end() sends what is buffered first.
    try {
      this.socket.send(authInvalid(message), false);
    } catch {
      // Closed meanwhile.
    }
    this.end(1000, 'Authentication failed');
  }

  private onMessage(message: unknown): void {
    if (!isJsonObject(message)) {
      this.sendError(0, 'invalid_format', `Message incorrectly formatted: expected a JSON object. Got ${describe(message)}`);
      return;
    }
    const id = message.id;
    const type = message.type;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
      const shown = id === undefined ? 'None' : describe(id);
      this.sendError(echo(id), 'invalid_format', `Message incorrectly formatted: id must be a positive integer. Got ${shown}`);
      return;
    }
    if (typeof type !== 'string' || type === '') {
      const shown = type === undefined ? 'None' : describe(type);
      this.sendError(id, 'invalid_format', `Message incorrectly formatted: type must be a non-empty string. Got ${shown}`);
      return;
    }
    if (id <= this.lastId) {
      this.sendError(id, 'id_reuse', 'Identifier values have to increase.');
      return;
    }
    const command = this.env.commands.get(type);
    if (command === undefined) {
      this.sendError(id, 'unknown_command', 'Unknown command.');
      return;
    }
    this.lastId = id;
    try {
      const pending = command.run(this, message, id);
      if (pending !== undefined) pending.catch((err: unknown) => this.sendFailure(id, err));
    } catch (err) {
      this.sendFailure(id, err);
    }
  }

  private dropSlow(info: SlowConsumer): void {
    this.env.log.warn(
      { ...this.logFields(), pending: info.pending, pendingBytes: info.pendingBytes },
      "%s. Disconnecting WebSocket client %s (user %s, %d pending messages). The system's load is too high or the client is not reading.",
      info.reason,
      this.remoteAddress,
      this.who?.user.name ?? 'unauthenticated',
      info.pending,
    );
    if (this.phase === 'closed') return;
    // Forceful: a client that does not read would never take a close frame either.
    try {
      this.socket.close();
    } catch {
      // Already closed.
    }
    this.onSocketClosed();
  }
}

/** The client's id as HA echoes it in an invalid_format error: plain values only, never large ones. */
function echo(id: unknown): EchoedId {
  if (typeof id === 'number' && Number.isFinite(id)) return id;
  if (typeof id === 'boolean') return id;
  if (typeof id === 'string' && id.length <= 64) return id;
  return null;
}
