// Home Assistant's client-id and redirect-URI rules (homeassistant/components/auth/indieauth.py): which apps may
// sign in, and where the authorization code may be sent.
import { isIP } from 'node:net';

/**
 * The Companion apps' fixed client ids and the callbacks they may use without the hub fetching the client-id page.
 * Home Assistant lists these so phones can sign in without reaching the internet.
 */
const APP_REDIRECTS: ReadonlyMap<string, readonly string[]> = new Map([
  ['https://home-assistant.io/iOS', ['homeassistant://auth-callback']],
  ['https://home-assistant.io/iOS/dev-auth', ['homeassistant-dev://auth-callback']],
  [
    'https://home-assistant.io/android',
    [
      'homeassistant://auth-callback',
      'https://wear.googleapis.com/3p_auth/io.homeassistant.companion.android',
      'https://wear.googleapis-cn.com/3p_auth/io.homeassistant.companion.android',
    ],
  ],
]);

/** The URL of a client id, or undefined when Home Assistant would refuse it. */
function parseClientId(clientId: string): URL | undefined {
  if (clientId.length > 2048) return undefined;
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return undefined;
  }
  // MUST have an https or http scheme.
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  // MUST NOT contain single-dot or double-dot path segments (checked on the raw text: URL resolves them away).
  const rawPath = clientId.replace(/^[a-z]+:\/\/[^/?#]*/i, '').split(/[?#]/)[0] ?? '';
  if (rawPath.split('/').some((s) => s === '.' || s === '..' || s.toLowerCase() === '%2e' || s.toLowerCase() === '%2e%2e')) {
    return undefined;
  }
  // MUST NOT contain a fragment, a username or a password.
  if (clientId.includes('#') || url.username !== '' || url.password !== '') return undefined;
  // Hostnames MUST be domain names or, as Home Assistant relaxes IndieAuth, an address on a local network.
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (isIP(host) !== 0 && !isLocalAddress(host)) return undefined;
  return url;
}

/** True for a client id Home Assistant accepts (IndieAuth's rules, with local network addresses allowed). */
export function verifyClientId(clientId: string): boolean {
  return parseClientId(clientId) !== undefined;
}

/**
 * True when the authorization code may be sent to `redirectUri` for `clientId`: same scheme and host as the client
 * id, or one of the Companion apps' registered callbacks. Home Assistant would also fetch the client-id page for
 * `<link rel="redirect_uri">` tags; the hub does not go out to the internet for that, so such clients are refused.
 */
export function verifyRedirectUri(clientId: string, redirectUri: string): boolean {
  const client = parseClientId(clientId);
  if (client === undefined) return false;
  let redirect: URL;
  try {
    redirect = new URL(redirectUri);
  } catch {
    return false;
  }
  if (client.protocol === redirect.protocol && client.host === redirect.host) return true;
  return APP_REDIRECTS.get(clientId)?.includes(redirectUri) === true;
}

/** Loopback, private (RFC 1918), link-local, CGNAT and unique-local addresses: Home Assistant's `is_local`. */
export function isLocalAddress(address: string): boolean {
  const kind = isIP(address);
  if (kind === 4) {
    const [a = 0, b = 0] = address.split('.').map(Number);
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
  }
  if (kind === 6) {
    const lower = address.toLowerCase();
    if (lower === '::1') return true;
    const mapped = lower.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
    if (mapped?.[1] !== undefined) return isLocalAddress(mapped[1]);
    return /^f[cd][0-9a-f]{2}:/.test(lower) || /^fe[89ab][0-9a-f]:/.test(lower);
  }
  return false;
}
