/**
 * The WebSocket API's limits in one place. Defaults follow Home Assistant where it has a number
 * (websocket_api/const.py, aiohttp defaults); the rest are hearth's own and say why.
 */
export interface WsLimits {
  /** Inbound frames larger than this close the socket (aiohttp's default max_msg_size, kept by HA). */
  readonly maxInboundBytes: number;
  /** A connection that has not authenticated by then is closed (HA: 10 s). */
  readonly authTimeoutMs: number;
  /** Pending outbound messages at which the peak timer starts (HA PENDING_MSG_PEAK). */
  readonly pendingPeak: number;
  /** How long the queue may stay at or above `pendingPeak` before the client is dropped (HA PENDING_MSG_PEAK_TIME). */
  readonly pendingPeakMs: number;
  /** Pending messages that drop the client at once (HA MAX_PENDING_MSG = MAX_EXPECTED_ENTITY_IDS). */
  readonly maxPending: number;
  /**
   * Pending bytes (string length, which is the UTF-8 size for the ASCII JSON the hub sends) that drop the
   * client at once. HA counts only messages; hearth also bounds bytes so a few huge replies cannot hold
   * hundreds of MB. One message larger than this is still accepted into an empty queue, so a big
   * `get_states` always goes out.
   */
  readonly maxPendingBytes: number;
  /**
   * Bytes uWS may hold for a socket (its backpressure buffer) before hearth stops handing it frames and
   * waits for `drain`. Beyond the kernel's socket buffer this is all a slow reader costs in native memory;
   * everything else waits in the bounded JS queue, where diffs can still collapse. Kept small: uWS never
   * gives a socket's buffer capacity back while it is open, so a client that lagged once keeps what it used.
   */
  readonly sendHighWater: number;
  /** With coalescing, one frame carries at most this many messages... */
  readonly maxFrameMessages: number;
  /** ...and stops growing once it is this long (a single larger message still goes out alone). */
  readonly maxFrameBytes: number;
  /** Subscriptions one connection may hold; their ids are client-chosen keys, so they are bounded. */
  readonly maxSubscriptions: number;
  /**
   * Flushes run at most this often. 0 (the default) sends on the next turn of the event loop, when the
   * current burst of events is done, as Home Assistant's writer does. A few ms would make a steady stream
   * go out as one write (one frame when coalescing) per client per interval instead of one per event,
   * trading that much latency for CPU: the writes are most of what fan-out costs.
   */
  readonly flushIntervalMs: number;
  /** render_template subscriptions one connection may hold: each re-renders on changes, so they cost CPU. */
  readonly maxTemplateSubscriptions: number;
  /** A render_template subscription that reads single entities renders at most this often... */
  readonly templateEntityIntervalMs: number;
  /** ...and one that iterates a domain or every state at most this often (Home Assistant: 1 s and 60 s). */
  readonly templateWideIntervalMs: number;
  /** A template that reads the time (now()) renders again at each such boundary (Home Assistant: each minute). */
  readonly templateTimeTickMs: number;
}

export const DEFAULT_WS_LIMITS: WsLimits = {
  maxInboundBytes: 4 * 1024 * 1024,
  authTimeoutMs: 10_000,
  pendingPeak: 1024,
  pendingPeakMs: 5_000,
  maxPending: 16_384,
  maxPendingBytes: 16 * 1024 * 1024,
  sendHighWater: 16 * 1024,
  maxFrameMessages: 256,
  // Within uWS's 16 KB cork buffer: a larger frame would go through the socket's backpressure buffer (outbox.ts).
  maxFrameBytes: 15 * 1024,
  maxSubscriptions: 4096,
  flushIntervalMs: 0,
  // A dashboard holds one per template card (Mushroom's, say), so a hundred is ordinary; a change costs only the
  // subscriptions that read the entity (bench/automations.ts), and their re-renders are coalesced below.
  maxTemplateSubscriptions: 512,
  templateEntityIntervalMs: 250,
  templateWideIntervalMs: 1000,
  templateTimeTickMs: 60_000,
};

/**
 * uWS's own per-socket cap (`maxBackpressure`). hearth never sends while more than `sendHighWater` is
 * buffered, so the buffer peaks at `sendHighWater` plus one frame (a whole `get_states` can be tens of MB on
 * a large install). This is a safety net far above that: with `closeOnBackpressureLimit` a socket that
 * somehow gets there is closed instead of uWS silently dropping messages, which would desynchronise a
 * `subscribe_entities` client without either side knowing.
 */
export const UWS_MAX_BACKPRESSURE = 64 * 1024 * 1024;

/**
 * uWS closes a socket that neither sent nor received for this many seconds. It must be 0 or >= 8 (uWS
 * aborts the process otherwise). With `sendPingsAutomatically` a live client answers uWS's pings, so only
 * a dead peer (or one that stopped reading so long that pongs cannot come back) is dropped; 60 s is close to
 * HA's 55 s heartbeat.
 */
export const UWS_IDLE_TIMEOUT_S = 60;
