import uWS from 'uWebSockets.js';
import { createRequire } from 'node:module';

export type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket, WebSocket } from 'uWebSockets.js';
export { uWS };

/**
 * The uWS package falls back silently to a slow JavaScript shim (no pub/sub, no backpressure, no drain)
 * when its native binary does not load, for example on a Node version it has no binary for. hearth
 * refuses to run on the shim; this tells which one loaded.
 */
export function isNativeUws(): boolean {
  return typeof (uWS as unknown as { SSLApp?: unknown }).SSLApp === 'function';
}

/** The path of the native binary in use, or undefined on the fallback. */
export function nativeBinaryPath(): string | undefined {
  const require = createRequire(import.meta.url);
  return Object.keys(require.cache).find((p) => /uws_[^/]+\.node$/.test(p));
}

export function nativeUwsProblem(): string | undefined {
  if (isNativeUws()) return undefined;
  return [
    `uWebSockets.js could not load its native binary for Node ${process.version} (ABI ${process.versions.modules}, ${process.platform}-${process.arch}) and fell back to a slow JavaScript shim.`,
    'hearth needs the native build: run it on Node 20 (the package ships binaries for Node 16, 18 and 20 only),',
    'and make sure UWS_USE_FALLBACK is not set. Then run `npm ci` again.',
  ].join('\n');
}

/** `app.close()` exists in the 20.30 binary but not in its typings: it closes the listen socket and every connection. */
export function closeApp(app: uWS.TemplatedApp): void {
  (app as unknown as { close(): void }).close();
}
