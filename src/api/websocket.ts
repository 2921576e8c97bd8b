import type { ApiContext } from '../http/context.js';
import type { HttpServer } from '../http/server.js';
import { uWS } from '../http/uws.js';
import { COMMANDS } from './ws/commands.js';
import { EntityMessageCache } from './ws/compressed-state.js';
import { Connection, type WsEnv } from './ws/connection.js';
import { DEFAULT_WS_LIMITS, UWS_IDLE_TIMEOUT_S, UWS_MAX_BACKPRESSURE, type WsLimits } from './ws/limits.js';
import { EventMessageCache } from './ws/messages.js';
import { FlushScheduler } from './ws/outbox.js';
import { SnapshotCache } from './ws/subscriptions.js';

/** Handle for stopping the WebSocket API. */
export interface WebSocketApi {
  /** Closes every connection (1001 going away) and stops listening for revocations. */
  close(): void;
  /** Open connections, authenticated or not. */
  readonly connectionCount: number;
  /** One line per open connection, for diagnostics: who it is and how far behind. */
  clients(): WsClientInfo[];
}

export interface WsClientInfo {
  readonly connection: number;
  readonly address: string;
  readonly user: string | null;
  readonly pending: number;
  readonly pendingBytes: number;
  readonly subscriptions: number;
}

interface SocketData {
  /** The client's address, resolved at the upgrade (X-Forwarded-For is only readable then). */
  address?: string;
  conn?: Connection;
}

const decoder = new TextDecoder();

/**
 * Home Assistant's WebSocket API at /api/websocket, on the same uWS app and event loop as REST.
 * `limits` exists for tests; the hub uses the defaults.
 */
export function registerWebSocketApi(server: HttpServer, ctx: ApiContext, limits: Partial<WsLimits> = {}): WebSocketApi {
  const log = ctx.log.child({ module: 'websocket' });
  const allLimits: WsLimits = { ...DEFAULT_WS_LIMITS, ...limits };
  const scheduler = new FlushScheduler(allLimits.flushIntervalMs, allLimits.maxPending);
  const connections = new Set<Connection>();
  const env: WsEnv = {
    ctx,
    limits: allLimits,
    log,
    scheduler,
    events: new EventMessageCache(scheduler.heads, scheduler.log),
    entities: new EntityMessageCache(scheduler.heads),
    snapshots: new SnapshotCache(),
    commands: COMMANDS,
  };

  server.app.ws<SocketData>('/api/websocket', {
    compression: uWS.DISABLED,
    // Bigger inbound frames make uWS close that socket (code 1006 "Received too big message"); others carry on.
    maxPayloadLength: env.limits.maxInboundBytes,
    idleTimeout: UWS_IDLE_TIMEOUT_S,
    sendPingsAutomatically: true,
    maxBackpressure: UWS_MAX_BACKPRESSURE,
    // Typed as a number in the 20.30 typings; 1 = close a socket whose buffer passes maxBackpressure
    // rather than drop messages from the middle of the stream.
    closeOnBackpressureLimit: 1,
    maxLifetime: 0,

    upgrade(res, req, context) {
      const peer = decoder.decode(res.getRemoteAddressAsText());
      const address = server.forwarded === undefined ? peer : server.forwarded.clientOf(peer, req.getHeader('x-forwarded-for'));
      // Banned addresses get 403 before the upgrade, as from Home Assistant's ban middleware.
      if (ctx.guard.active && ctx.guard.isBanned(address)) {
        res.writeStatus('403 Forbidden').end('403: Forbidden');
        return;
      }
      res.upgrade<SocketData>(
        { address },
        req.getHeader('sec-websocket-key'),
        req.getHeader('sec-websocket-protocol'),
        req.getHeader('sec-websocket-extensions'),
        context,
      );
    },

    open(ws) {
      // Every uWS callback is guarded: a throw escaping into uWS must never take the process down.
      try {
        const data = ws.getUserData();
        const address = data.address ?? decoder.decode(ws.getRemoteAddressAsText());
        const conn = new Connection(ws, address, env, (c) => connections.delete(c));
        data.conn = conn;
        connections.add(conn);
        conn.open();
      } catch (err) {
        log.error({ err }, 'WebSocket open failed');
        // A socket without a connection would never be answered; close it (1011: internal error).
        try {
          ws.end(1011, 'Internal error');
        } catch {
          // Already closed.
        }
      }
    },
    message(ws, data, isBinary) {
      try {
        ws.getUserData().conn?.onFrame(data, isBinary);
      } catch (err) {
        log.error({ err }, 'WebSocket message handling failed');
      }
    },
    drain(ws) {
      try {
        ws.getUserData().conn?.onDrain();
      } catch (err) {
        log.error({ err }, 'WebSocket drain handling failed');
      }
    },
    close(ws, code) {
      const conn = ws.getUserData().conn;
      if (conn === undefined) return;
      try {
        log.debug({ ...conn.logFields(), code }, 'WebSocket closed');
        conn.onSocketClosed();
      } catch (err) {
        log.error({ err }, 'WebSocket close handling failed');
      }
    },
  });

  // Revoking a token closes the sockets it opened, as HA does when a refresh token is deleted.
  const stopRevokeListener = ctx.auth.onRevoke((tokenId) => {
    for (const conn of [...connections]) {
      if (conn.principal?.tokenId === tokenId) {
        log.info(conn.logFields(), 'Access token revoked: closing its WebSocket');
        conn.end(1008, 'Access token revoked');
      }
    }
  });

  return {
    close() {
      stopRevokeListener();
      for (const conn of [...connections]) {
        // What is queued (a command's answer: an execute_script run stopped by the shutdown) goes out before the close frame.
        conn.outbox.flush();
        conn.end(1001, 'Server shutting down');
      }
      connections.clear();
      scheduler.stop();
    },
    get connectionCount() {
      return connections.size;
    },
    clients() {
      return [...connections].map((c) => ({
        connection: c.id,
        address: c.remoteAddress,
        user: c.principal?.user.name ?? null,
        pending: c.outbox.pending,
        pendingBytes: c.outbox.pendingBytes,
        subscriptions: c.subscriptionCount,
      }));
    },
  };
}
