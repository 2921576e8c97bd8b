// A bound on what one HomeKit client can make the bridge hold: hap-nodejs 1.2 buffers each request's body whole
// before it looks at it (HAPServer.handleRequestOnHAPConnection), with no limit, so a client on the LAN that announces
// a gigabyte and keeps sending would grow the hub's memory until the Pi runs out. HAP's largest requests (pair-setup's
// M3, a write of many characteristics) are a few kB; a request body past MAX_REQUEST_BYTES closes that client's
// connection, and only that one. Garbage and oversized headers need nothing here: Node's HTTP parser, behind each
// HAPConnection, answers 400 or 431 and hap-nodejs closes the connection; a request left half sent holds only its own
// connection (and hap-nodejs's hourly idle sweep ends it once 16 connections are open).
import type * as HAP from 'hap-nodejs';

export const MAX_REQUEST_BYTES = 64 * 1024;

interface Closable {
  close(): void;
}
interface Readable {
  on(event: 'data', fn: (chunk: Buffer) => void): unknown;
}
interface RequestSource {
  on(event: 'request', fn: (connection: Closable, request: Readable) => void): unknown;
}

/**
 * Closes a client's connection when one request's body passes MAX_REQUEST_BYTES. Returns false (and changes
 * nothing) when hap-nodejs's server is not the one this was written for.
 */
export function limitRequests(bridge: HAP.Bridge): boolean {
  const server = (bridge._server as unknown as { httpServer?: RequestSource } | undefined)?.httpServer;
  if (server === undefined || typeof server.on !== 'function') return false;
  server.on('request', (connection, request) => {
    let bytes = 0;
    request.on('data', (chunk) => {
      bytes += chunk.length;
      if (bytes > MAX_REQUEST_BYTES) connection.close();
    });
  });
  return true;
}
