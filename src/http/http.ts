import type { AddressGate } from '../auth/bans.js';
import { HubError, toClientError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { ForwardedFor } from './client-address.js';
import type { HttpRequest, HttpResponse } from './uws.js';

/** Request bodies above this get 413 (Home Assistant allows 16 MiB; nothing hearth accepts needs more than 1). */
export const MAX_BODY_BYTES = 1024 * 1024;

const decoder = new TextDecoder();

/**
 * What a handler may read of a request. uWS's HttpRequest is valid only until the handler returns, so the
 * parts a route needs are copied out first.
 */
export interface Request {
  readonly method: string;
  readonly url: string;
  readonly query: string;
  readonly params: readonly string[];
  readonly authorization: string;
  header(name: string): string;
}

export interface RouteOptions {
  /** How many `:param` segments the route pattern has. */
  readonly params?: number;
  /** Further headers the handler reads (lower case); authorization is always captured. */
  readonly headers?: readonly string[];
  /** Answers 403 to banned addresses before the handler runs. */
  readonly gate?: AddressGate;
  /** Behind trusted reverse proxies, the client's address comes from X-Forwarded-For. */
  readonly forwarded?: ForwardedFor;
  /**
   * False for a handler that reads the request only before it returns (it may still answer later, from its
   * body callback): nothing is copied out of uWS's request for it then. Reading it later throws (a 500).
   */
  readonly readsLater?: boolean;
  /** Cross-origin requests from the origins it allows get Access-Control-Allow-Origin on their answer (src/http/cors.ts). */
  readonly cors?: { allows(origin: string): boolean };
}

/** Headers every response carries, as Home Assistant's headers middleware adds them. */
const COMMON_HEADERS: readonly [string, string][] = [
  ['Referrer-Policy', 'no-referrer'],
  ['X-Content-Type-Options', 'nosniff'],
];

export const JSON_TYPE = 'application/json';
export const TEXT_TYPE = 'text/plain; charset=utf-8';

/**
 * The common headers and the content type as one writeHeader call: uWS writes `key: value\r\n` as given, so a
 * value that carries the next lines puts the same bytes on the wire as three calls, for one crossing into
 * native code (each converts its strings to UTF-8) instead of three. Only for the fixed texts below, never
 * for anything a request supplies.
 */
function headerBlock(contentType: string): readonly [string, string] {
  const [first, ...rest] = [...COMMON_HEADERS, ['Content-Type', contentType] as const];
  const [key, value] = first as readonly [string, string];
  return [key, [value, ...rest.map(([k, v]) => `${k}: ${v}`)].join('\r\n')];
}
const JSON_BLOCK = headerBlock(JSON_TYPE);
const TEXT_BLOCK = headerBlock(TEXT_TYPE);

/** A response that is safe to use after an await: it knows whether the client went away and corks writes. */
export class Reply {
  private aborted = false;
  private done = false;
  /**
   * True while the route's handler runs synchronously inside uWS's request callback, or a body reader inside
   * its data callback: uWS has corked the socket then, so writes go straight out without a cork callback of their own.
   */
  inline = false;
  private bodyRead = false;
  private remote: string | undefined;
  /** The request's Origin when CORS allows it: echoed in Access-Control-Allow-Origin. */
  allowOrigin: string | undefined;

  constructor(
    private readonly res: HttpResponse,
    private readonly log: Logger,
    /** With reverse proxies configured: they and the request's X-Forwarded-For/-Proto headers, read in the request callback. */
    private readonly forwarded?: { readonly proxies: ForwardedFor; readonly header: string; readonly proto: string },
  ) {}

  /**
   * Called when the handler returned without answering: from then on an abort must be noticed (uWS
   * aborts the process if the request callback returns with neither an answer nor this handler). A
   * handler that answers at once never needs it, which saves a native call and a closure per request.
   */
  watchAbort(): void {
    this.res.onAborted(() => {
      this.aborted = true;
    });
  }

  get finished(): boolean {
    return this.aborted || this.done;
  }

  /** The client's address (for bans, login throttling and logs): the peer, or the client behind trusted proxies. */
  remoteAddress(): string {
    if (this.remote === undefined) {
      if (this.aborted) this.remote = '';
      else {
        const peer = decoder.decode(this.res.getRemoteAddressAsText());
        this.remote = this.forwarded === undefined ? peer : this.forwarded.proxies.clientOf(peer, this.forwarded.header);
      }
    }
    return this.remote;
  }

  /** Whether a trusted reverse proxy reports that the client reached it over HTTPS. */
  forwardedHttps(): boolean {
    const f = this.forwarded;
    if (f === undefined || this.aborted) return false;
    return f.proxies.httpsOf(decoder.decode(this.res.getRemoteAddressAsText()), f.proto);
  }

  send(
    status: number,
    body: string | Uint8Array,
    contentType: string,
    headers?: readonly [string, string][],
    closeConnection = false,
  ): void {
    if (this.finished) return;
    this.done = true;
    if (this.inline) this.write(status, body, contentType, headers, closeConnection);
    else this.res.cork(() => this.write(status, body, contentType, headers, closeConnection));
  }

  private write(
    status: number,
    body: string | Uint8Array,
    contentType: string,
    headers: readonly [string, string][] | undefined,
    closeConnection: boolean,
  ): void {
    const res = this.res;
    res.writeStatus(statusLine(status));
    const block = contentType === JSON_TYPE ? JSON_BLOCK : contentType === TEXT_TYPE ? TEXT_BLOCK : undefined;
    if (block !== undefined) res.writeHeader(block[0], block[1]);
    else {
      for (let i = 0; i < COMMON_HEADERS.length; i++) {
        const h = COMMON_HEADERS[i] as [string, string];
        res.writeHeader(h[0], h[1]);
      }
      res.writeHeader('Content-Type', contentType);
    }
    if (headers) for (const [k, v] of headers) res.writeHeader(k, v);
    if (this.allowOrigin !== undefined) res.writeHeader('Access-Control-Allow-Origin', this.allowOrigin);
    res.end(body, closeConnection);
  }

  json(status: number, json: string, headers?: readonly [string, string][]): void {
    this.send(status, json, JSON_TYPE, headers);
  }

  message(status: number, message: string, headers?: readonly [string, string][]): void {
    this.json(status, JSON.stringify({ message }), headers);
  }

  text(status: number, text: string, headers?: readonly [string, string][]): void {
    this.send(status, text, TEXT_TYPE, headers);
  }

  /** Answers with the right status for any error; unexpected ones are logged and never shown to the client. */
  error(err: unknown): void {
    const { status, message } = toClientError(err);
    if (status >= 500) this.log.error({ err }, 'request failed');
    if (err instanceof HubError && err.kind === 'payload_too_large') {
      // The rest of the body is not read; close so it is not taken for the next request.
      this.send(status, JSON.stringify({ message }), JSON_TYPE, undefined, true);
      return;
    }
    this.message(status, status >= 500 ? 'Internal server error' : message);
  }

  /** Reads the whole body, up to `limit` bytes; a larger one rejects with payload_too_large. */
  body(limit = MAX_BODY_BYTES): Promise<Buffer> {
    return new Promise((resolve, reject) =>
      this.readBody((bytes) => resolve(bytes instanceof Buffer ? bytes : Buffer.from(bytes)), reject, limit),
    );
  }

  /**
   * `body` without a promise: `onBody` runs inside uWS's data callback once the last chunk is in, and
   * `onError` with payload_too_large for a body over `limit`. The REST service call reads its body this
   * way: a promise and an async frame per request were a tenth of what the hot path allocated.
   * A body that came in one chunk (nearly all do) is handed over as a view of uWS's own bytes, valid only
   * until `onBody` returns: copy what must outlive it. A body of several chunks is a Buffer of its own.
   */
  readBody(onBody: (bytes: Uint8Array) => void, onError: (err: HubError) => void, limit = MAX_BODY_BYTES): void {
    if (this.bodyRead) throw new Error('body already read');
    this.bodyRead = true;
    let first: Buffer | undefined;
    let chunks: Buffer[] | undefined;
    let size = 0;
    let failed = false;
    // Passed straight to uWS, never assigned to a field: V8's parser takes a function literal assigned to a property
    // for a method, and the interpreter allocates it in the old generation, where it kept this request's objects
    // alive through young collections. Until TurboFan had compiled this path (the first 1-2 s of a burst) every
    // request's objects were promoted, 40-50 KB per scavenge (test/architecture/closure-assignments.test.ts).
    this.res.onData((chunk, isLast) => {
      if (failed) return;
      size += chunk.byteLength;
      if (size > limit) {
        failed = true;
        onError(new HubError('payload_too_large', `Request body is larger than ${limit} bytes.`));
        return;
      }
      if (isLast && first === undefined) {
        // The whole body in one chunk: read in place, before uWS neuters it when this callback returns.
        this.answerBody(onBody, new Uint8Array(chunk));
        return;
      }
      // uWS neuters the chunk when this callback returns, so copy it (into Node's pool: no ArrayBuffer per chunk).
      const copy = Buffer.from(new Uint8Array(chunk));
      if (first === undefined) first = copy;
      else if (chunks === undefined) chunks = [first, copy];
      else chunks.push(copy);
      if (!isLast) return;
      this.answerBody(onBody, chunks === undefined ? first : Buffer.concat(chunks, size));
    });
  }

  private answerBody(onBody: (bytes: Uint8Array) => void, bytes: Uint8Array): void {
    // uWS corks the socket for its whole data callback (as for the request callback): an answer written
    // from here goes out without a cork callback of its own.
    this.inline = true;
    try {
      onBody(bytes);
    } finally {
      this.inline = false;
    }
  }
}

const STATUS_TEXT: Record<number, string> = {
  200: '200 OK',
  201: '201 Created',
  204: '204 No Content',
  302: '302 Found',
  400: '400 Bad Request',
  401: '401 Unauthorized',
  403: '403 Forbidden',
  404: '404 Not Found',
  405: '405 Method Not Allowed',
  413: '413 Payload Too Large',
  429: '429 Too Many Requests',
  500: '500 Internal Server Error',
  503: '503 Service Unavailable',
  504: '504 Gateway Timeout',
  507: '507 Insufficient Storage',
};

export function statusLine(status: number): string {
  return STATUS_TEXT[status] ?? String(status);
}

export type Handler = (req: Request, reply: Reply) => void | Promise<void>;

/**
 * Wraps a handler for uWS: copies out what the handler reads of the request, turns every throw or
 * rejection into an error response, and attaches onAborted when the handler did not answer at once (uWS
 * aborts the process if a handler returns without responding or attaching one).
 */
export function route(handler: Handler, log: Logger, options: RouteOptions = {}): (res: HttpResponse, req: HttpRequest) => void {
  const paramCount = options.params ?? 0;
  const extra = options.headers ?? [];
  const gate = options.gate;
  const proxies = options.forwarded;
  const readsLater = options.readsLater !== false;
  const cors = options.cors;
  return (res, uwsReq) => {
    // The headers are only readable now; without proxies configured they are never read.
    const reply = new Reply(
      res,
      log,
      proxies === undefined
        ? undefined
        : { proxies, header: uwsReq.getHeader('x-forwarded-for'), proto: uwsReq.getHeader('x-forwarded-proto') },
    );
    reply.inline = true;
    if (cors !== undefined) {
      const origin = uwsReq.getHeader('origin');
      if (cors.allows(origin)) reply.allowOrigin = origin;
    }
    if (gate?.active && gate.isBanned(reply.remoteAddress())) {
      reply.text(403, '403: Forbidden');
      return;
    }
    const request = new LiveRequest(uwsReq, paramCount, extra);
    try {
      const p = handler(request, reply);
      if (p !== undefined) p.catch((err: unknown) => reply.error(err));
    } catch (err) {
      reply.error(err);
    }
    reply.inline = false;
    if (!reply.finished) {
      // The handler answers later: uWS's request object dies when this callback returns.
      if (readsLater) request.detach();
      else request.release();
      reply.watchAbort();
    }
  };
}

/**
 * A Request that reads uWS's HttpRequest only for the parts a handler asks for while the request callback
 * runs, and copies out everything a handler may still read (`detach`) before the callback returns when
 * the handler goes on asynchronously. A GET answered at once reads just its token and parameters.
 */
class LiveRequest implements Request {
  private live: HttpRequest | undefined;
  private methodText: string | undefined;
  private urlText: string | undefined;
  private queryText: string | undefined;
  private paramValues: string[] | undefined;
  private authorizationText: string | undefined;
  private extraValues: string[] | undefined;

  constructor(
    req: HttpRequest,
    private readonly paramCount: number,
    private readonly extra: readonly string[],
  ) {
    this.live = req;
  }

  get method(): string {
    this.methodText ??= this.req().getMethod();
    return this.methodText;
  }

  get url(): string {
    this.urlText ??= this.req().getUrl();
    return this.urlText;
  }

  get query(): string {
    this.queryText ??= this.req().getQuery() ?? '';
    return this.queryText;
  }

  get params(): readonly string[] {
    if (this.paramValues === undefined) {
      const req = this.req();
      const values: string[] = [];
      for (let i = 0; i < this.paramCount; i++) values.push(req.getParameter(i));
      this.paramValues = values;
    }
    return this.paramValues;
  }

  get authorization(): string {
    this.authorizationText ??= this.req().getHeader('authorization');
    return this.authorizationText;
  }

  header(name: string): string {
    const i = this.extra.indexOf(name);
    if (i === -1) return '';
    if (this.extraValues === undefined) {
      const req = this.req();
      this.extraValues = this.extra.map((h) => req.getHeader(h));
    }
    return this.extraValues[i] as string;
  }

  /** Copies out every part not read yet; after this, uWS's request is never touched again. */
  detach(): void {
    if (this.live === undefined) return;
    void this.method;
    void this.url;
    void this.query;
    void this.params;
    void this.authorization;
    this.header(this.extra[0] ?? '');
    this.release();
  }

  /** Lets go of uWS's request without copying anything (RouteOptions.readsLater false). */
  release(): void {
    this.live = undefined;
  }

  private req(): HttpRequest {
    if (this.live === undefined) throw new Error('the uWS request was read after its callback returned');
    return this.live;
  }
}
