// @ts-check
/**
 * A small client for the hub's WebSocket API (Home Assistant's protocol): auth with an access token,
 * numbered commands with promised results, subscriptions that survive reconnects, coalesced frames.
 */

/** @typedef {{ code: string, message: string }} HubErrorInfo */
/** @typedef {(event: any) => void} EventHandler */
/** @typedef {'connecting' | 'live' | 'offline' | 'auth-failed'} LinkState */

export class CommandError extends Error {
  /** @param {HubErrorInfo} error */
  constructor(error) {
    super(error.message);
    this.code = error.code;
  }
}

const MAX_BACKOFF_MS = 30_000;

export class HubConnection {
  /**
   * @param {object} options
   * @param {string} options.url the WebSocket URL
   * @param {() => Promise<string>} options.token a fresh access token (throws when the session is gone)
   * @param {(state: LinkState) => void} options.onState
   */
  constructor({ url, token, onState }) {
    this.url = url;
    this.token = token;
    this.onState = onState;
    /** @type {WebSocket | undefined} */
    this.ws = undefined;
    this.nextId = 1;
    /** @type {Map<number, { resolve: (v: any) => void, reject: (e: Error) => void }>} */
    this.pending = new Map();
    /** Subscriptions by a stable key; each gets a new id per connection. @type {Map<string, { message: object, handler: EventHandler, onStart?: () => void }>} */
    this.subscriptions = new Map();
    /** @type {Map<number, EventHandler>} */
    this.handlers = new Map();
    this.backoffMs = 1000;
    this.authFailures = 0;
    this.stopped = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.retryTimer = undefined;
  }

  async connect() {
    this.onState('connecting');
    let token;
    try {
      token = await this.token();
    } catch (err) {
      if (/** @type {any} */ (err)?.authLost) {
        this.onState('auth-failed');
        return;
      }
      this.scheduleRetry();
      return;
    }
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onmessage = (ev) => {
      const data = JSON.parse(String(ev.data));
      if (Array.isArray(data)) for (const m of data) this.onMessage(ws, m, token);
      else this.onMessage(ws, data, token);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = undefined;
      for (const p of this.pending.values()) p.reject(new Error('connection lost'));
      this.pending.clear();
      this.handlers.clear();
      if (!this.stopped) this.scheduleRetry();
    };
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.ws?.close();
  }

  scheduleRetry() {
    this.onState('offline');
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), this.backoffMs);
    this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
  }

  /**
   * @param {WebSocket} ws
   * @param {any} msg
   * @param {string} token
   */
  onMessage(ws, msg, token) {
    switch (msg.type) {
      case 'auth_required':
        ws.send(JSON.stringify({ type: 'auth', access_token: token }));
        return;
      case 'auth_invalid':
        // A fresh token was refused: once may be a race with its expiry, twice means this page cannot get in
        // (and every failure counts toward a ban of this address), so stop instead of retrying.
        this.authFailures++;
        if (this.authFailures >= 2) {
          this.stopped = true;
          this.onState('auth-failed');
        }
        return;
      case 'auth_ok':
        this.authFailures = 0;
        this.backoffMs = 1000;
        this.onState('live');
        this.sendRaw({ type: 'supported_features', features: { coalesce_messages: 1 } });
        for (const [key, sub] of this.subscriptions) this.startSubscription(key, sub);
        return;
      case 'result': {
        const p = this.pending.get(msg.id);
        if (p === undefined) return;
        this.pending.delete(msg.id);
        if (msg.success) p.resolve(msg.result);
        else p.reject(new CommandError(msg.error ?? { code: 'unknown_error', message: 'Unknown error' }));
        return;
      }
      case 'event':
        this.handlers.get(msg.id)?.(msg.event);
        return;
      default:
    }
  }

  /** @param {object} message */
  sendRaw(message) {
    const id = this.nextId++;
    this.ws?.send(JSON.stringify({ ...message, id }));
    return id;
  }

  /**
   * A command and its result.
   * @param {object} message
   * @returns {Promise<any>}
   */
  command(message) {
    if (this.ws === undefined || this.ws.readyState !== WebSocket.OPEN) return Promise.reject(new Error('not connected'));
    return new Promise((resolve, reject) => {
      const id = this.sendRaw(message);
      this.pending.set(id, { resolve, reject });
    });
  }

  /**
   * Keeps a subscription for as long as the page lives; it is made again on every reconnect.
   * @param {string} key
   * @param {object} message
   * @param {EventHandler} handler
   * @param {() => void} [onStart] called each time it is (re)made, before its first event
   */
  subscribe(key, message, handler, onStart) {
    const sub = { message, handler, onStart };
    this.subscriptions.set(key, sub);
    if (this.ws?.readyState === WebSocket.OPEN) this.startSubscription(key, sub);
  }

  /**
   * @param {string} _key
   * @param {{ message: object, handler: EventHandler, onStart?: () => void }} sub
   */
  startSubscription(_key, sub) {
    const id = this.nextId;
    this.handlers.set(id, sub.handler);
    sub.onStart?.();
    this.command(sub.message).catch(() => this.handlers.delete(id));
  }

  /**
   * @param {string} domain
   * @param {string} service
   * @param {string} entityId
   * @param {object} [data]
   */
  callService(domain, service, entityId, data = {}) {
    return this.command({ type: 'call_service', domain, service, service_data: data, target: { entity_id: entityId } });
  }
}
