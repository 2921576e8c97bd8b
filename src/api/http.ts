import type { AddressGate } from '../auth/bans.js';
import { HubError, toClientError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
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
}

/** Headers every response carries, as Home Assistant's headers middleware adds them. */
const COMMON_HEADERS: readonly [string, string][] = [
  ['Referrer-Policy', 'no-referrer'],
  ['X-Content-Type-Options', 'nosniff'],
];

export const JSON_TYPE = 'application/json';
export const TEXT_TYPE = 'text/plain; charset=utf-8';

/** A response that is safe to use after an await: it knows whether the client went away and corks writes. */
export class Reply {
  private aborted = false;
  private done = false;
  private bodyReader: ((chunk: ArrayBuffer, isLast: boolean) => void) | undefined;
  private remote: string | undefined;

  constructor(
    private readonly res: HttpResponse,
    private readonly log: Logger,
  ) {
    res.onAborted(() => {
      this.aborted = true;
    });
  }

  get finished(): boolean {
    return this.aborted || this.done;
  }

  /** The client's address as text (for logs and, later, login throttling). */
  remoteAddress(): string {
    if (this.remote === undefined) this.remote = this.aborted ? '' : decoder.decode(this.res.getRemoteAddressAsText());
    return this.remote;
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
    this.res.cork(() => {
      this.res.writeStatus(statusLine(status));
      for (const [k, v] of COMMON_HEADERS) this.res.writeHeader(k, v);
      this.res.writeHeader('Content-Type', contentType);
      if (headers) for (const [k, v] of headers) this.res.writeHeader(k, v);
      this.res.end(body, closeConnection);
    });
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
    if (this.bodyReader !== undefined) throw new Error('body already read');
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let failed = false;
      this.bodyReader = (chunk, isLast) => {
        if (failed) return;
        size += chunk.byteLength;
        if (size > limit) {
          failed = true;
          reject(new HubError('payload_too_large', `Request body is larger than ${limit} bytes.`));
          return;
        }
        // uWS neuters the chunk when this callback returns, so copy it.
        chunks.push(Buffer.from(chunk.slice(0)));
        if (isLast) resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
      };
      this.res.onData(this.bodyReader);
    });
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
 * Wraps a handler for uWS: attaches onAborted before anything else (uWS aborts the process if a handler
 * returns without responding or attaching one), copies the request out, and turns every throw or
 * rejection into an error response.
 */
export function route(handler: Handler, log: Logger, options: RouteOptions = {}): (res: HttpResponse, req: HttpRequest) => void {
  const paramCount = options.params ?? 0;
  const extra = options.headers ?? [];
  return (res, uwsReq) => {
    const reply = new Reply(res, log);
    const gate = options.gate;
    if (gate?.active && gate.isBanned(reply.remoteAddress())) {
      reply.text(403, '403: Forbidden');
      return;
    }
    let request: Request;
    try {
      request = capture(uwsReq, paramCount, extra);
    } catch (err) {
      reply.error(err);
      return;
    }
    try {
      const p = handler(request, reply);
      if (p !== undefined) p.catch((err: unknown) => reply.error(err));
    } catch (err) {
      reply.error(err);
    }
  };
}

function capture(req: HttpRequest, paramCount: number, extra: readonly string[]): Request {
  const params: string[] = [];
  for (let i = 0; i < paramCount; i++) params.push(req.getParameter(i));
  const headers = new Map<string, string>();
  for (const name of extra) headers.set(name, req.getHeader(name));
  return {
    method: req.getMethod(),
    url: req.getUrl(),
    query: req.getQuery() ?? '',
    params,
    authorization: req.getHeader('authorization'),
    header: (name) => headers.get(name) ?? '',
  };
}

/** Whether the query string has a key, whatever its value (as `?return_response` works in Home Assistant). */
export function hasQueryKey(query: string, key: string): boolean {
  if (query === '') return false;
  for (const part of query.split('&')) {
    const eq = part.indexOf('=');
    if (decodeURIComponentSafe(eq === -1 ? part : part.slice(0, eq)) === key) return true;
  }
  return false;
}

export function queryValue(query: string, key: string): string | undefined {
  if (query === '') return undefined;
  for (const part of query.split('&')) {
    const eq = part.indexOf('=');
    const k = decodeURIComponentSafe(eq === -1 ? part : part.slice(0, eq));
    if (k === key) return eq === -1 ? '' : decodeURIComponentSafe(part.slice(eq + 1).replace(/\+/g, ' '));
  }
  return undefined;
}

export function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new HubError('invalid_format', `Malformed percent-encoding in ${JSON.stringify(text.slice(0, 60))}`);
  }
}
