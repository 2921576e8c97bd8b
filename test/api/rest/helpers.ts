import { connect } from 'node:net';
import type { EventBus, HubEvent } from '../../../src/core/event-bus.js';

export interface RawResponse {
  /** The status of the first response, or 0 when none came before the connection closed. */
  readonly status: number;
  readonly text: string;
  /** True when the server closed the connection (rather than the deadline passing). */
  readonly closed: boolean;
}

/**
 * Sends raw bytes to 127.0.0.1:port and collects what comes back until the server closes the connection
 * or the deadline passes. `end` half-closes after writing, for requests the server may never answer.
 */
export function rawHttp(port: number, data: string | Buffer, options: { end?: boolean; deadlineMs?: number } = {}): Promise<RawResponse> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (closed: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3}) /.exec(text);
      resolve({ status: m ? Number(m[1]) : 0, text, closed });
    };
    const timer = setTimeout(() => finish(false), options.deadlineMs ?? 3000);
    socket.on('data', (d) => chunks.push(d));
    // A reset after the server answered is fine: what was received is the result.
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
    if (options.end) socket.end(data);
    else socket.write(data);
  });
}

/** The body of a raw response (after the blank line). */
export function rawBody(res: RawResponse): string {
  const i = res.text.indexOf('\r\n\r\n');
  return i === -1 ? '' : res.text.slice(i + 4);
}

/** Records every event of a type on the bus (dispatch is synchronous, so a request's events are in once it is answered). */
export function recordEvents<T extends string>(t: { teardown(fn: () => unknown): void }, bus: EventBus, type: T): HubEvent<T>[] {
  const events: HubEvent<T>[] = [];
  const off = bus.on('test-recorder', type, (e) => {
    events.push(e as HubEvent<T>);
  });
  t.teardown(off);
  return events;
}

export function jsonPost(body: unknown): RequestInit {
  return { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' } };
}
