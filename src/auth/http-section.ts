import { accessSync, constants, statSync } from 'node:fs';
import type { SectionValidator } from '../config/load.js';
import { ConfigReader } from '../config/reader.js';
import type { HubConfig } from '../config/types.js';
import { parseNetwork } from './address.js';

/** PEM files to serve HTTPS and WSS with, instead of plain HTTP. */
export interface TlsFiles {
  readonly certificate: string;
  readonly key: string;
}

/** What the login guard reads of `http:` (components/http/ban.py). */
export interface BanSettings {
  /** Enforce bans from ip_bans.yaml and add new ones (default true, as in Home Assistant). */
  readonly ip_ban_enabled: boolean;
  /** Failed attempts from one address before it is banned; below 1 (the default, -1) never bans. */
  readonly login_attempts_threshold: number;
}

/**
 * The `http:` section: Home Assistant's options for failed logins and IP bans (components/http/ban.py),
 * for HTTPS (`ssl_certificate`, `ssl_key`) and for reverse proxies (`use_x_forwarded_for`, `trusted_proxies`).
 */
export interface HttpSettings extends BanSettings {
  /** Serve HTTPS with these files; undefined: plain HTTP. */
  readonly tls?: TlsFiles;
  /**
   * Reverse proxies (addresses or CIDR networks) whose X-Forwarded-For names the client; undefined (the
   * default): the header is ignored and the peer is the client.
   */
  readonly trustedProxies?: readonly string[];
  /** Origins whose cross-origin requests the API and pages answer with CORS headers (Home Assistant's default: its Cast app). */
  readonly corsOrigins: readonly string[];
}

/** Home Assistant's default `cors_allowed_origins` (its Cast app). */
export const DEFAULT_CORS_ORIGINS: readonly string[] = ['https://cast.home-assistant.io'];

export const DEFAULT_HTTP_SETTINGS: HttpSettings = {
  ip_ban_enabled: true,
  login_attempts_threshold: -1,
  corsOrigins: DEFAULT_CORS_ORIGINS,
};

/** A readable regular file, as Home Assistant's `cv.isfile` checks; reports why not. */
function readableFile(r: ConfigReader, key: string): string | undefined {
  const file = r.string(key);
  if (file === undefined) return undefined;
  try {
    if (!statSync(file).isFile()) {
      r.problem(key, `${JSON.stringify(file)} is not a file: expected the path of a PEM file`);
      return undefined;
    }
    accessSync(file, constants.R_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'does not exist' : code === 'EACCES' ? 'is not readable by this user' : `cannot be read (${code})`;
    r.problem(
      key,
      `${JSON.stringify(file)} ${why}: expected the path of a PEM file (absolute, or relative to the directory hearth runs in)`,
    );
    return undefined;
  }
  return file;
}

function readTls(r: ConfigReader): TlsFiles | undefined {
  const certificate = readableFile(r, 'ssl_certificate');
  const key = readableFile(r, 'ssl_key');
  r.inclusive('ssl_certificate', 'ssl_key', 'ssl_certificate and ssl_key (PEM files) go together to serve HTTPS');
  return certificate !== undefined && key !== undefined ? { certificate, key } : undefined;
}

/** `use_x_forwarded_for` with `trusted_proxies`: the networks whose X-Forwarded-For is believed. */
function readProxies(r: ConfigReader): readonly string[] | undefined {
  const use = r.boolean('use_x_forwarded_for', false);
  const listed = r.stringList('trusted_proxies');
  const valid: string[] = [];
  listed?.forEach((text, i) => {
    if (parseNetwork(text) !== undefined) valid.push(text);
    else
      r.issues.push({
        path: [...r.path, 'trusted_proxies', ...(Array.isArray(r.value.trusted_proxies) ? [i] : [])],
        message: `${JSON.stringify(text)} is not allowed: expected an IP address or a network in CIDR notation (e.g. 172.30.33.0/24 or fd00::/8)`,
      });
  });
  r.inclusive(
    'use_x_forwarded_for',
    'trusted_proxies',
    'use_x_forwarded_for and trusted_proxies go together (the proxies whose X-Forwarded-For is believed)',
  );
  return use && valid.length > 0 ? valid : undefined;
}

/**
 * Home Assistant's other `http:` keys. server_port and server_host are where the hub listens (the loader reads them
 * into the hub settings; `hub: port` and `host` are their aliases); the rest are accepted, and those hearth does not
 * honour are named with a warning.
 */
function readServerKeys(r: ConfigReader): void {
  r.number('server_port', { integer: true, min: 1, max: 65535 });
  const host = r.raw('server_host');
  if (host !== undefined && typeof host !== 'string' && !(Array.isArray(host) && host.every((h) => typeof h === 'string')))
    r.problem('server_host', 'expected an address or a list of addresses, e.g. 0.0.0.0 or ::');
  if (r.has('ssl_peer_certificate'))
    r.warn('ssl_peer_certificate', 'accepted and not honoured: hearth does not ask clients for certificates');
  r.oneOf('ssl_profile', ['modern', 'intermediate'] as const);
  if (r.boolean('use_x_frame_options', true) === false)
    r.warn('use_x_frame_options', "accepted and not honoured: hearth's pages are never shown in another site's frame");
  if (r.has('base_url')) r.warn('base_url', 'Home Assistant removed base_url; use external_url and internal_url under homeassistant:');
}

function read(r: ConfigReader): HttpSettings {
  const settings: HttpSettings = {
    tls: readTls(r),
    trustedProxies: readProxies(r),
    ip_ban_enabled: r.boolean('ip_ban_enabled', DEFAULT_HTTP_SETTINGS.ip_ban_enabled),
    login_attempts_threshold: r.number('login_attempts_threshold', {
      integer: true,
      min: -1,
      max: 1_000_000,
      default: DEFAULT_HTTP_SETTINGS.login_attempts_threshold,
    }),
    // One origin without a list is one origin, as Home Assistant's cv.ensure_list reads it.
    corsOrigins: r.stringList('cors_allowed_origins') ?? DEFAULT_CORS_ORIGINS,
  };
  readServerKeys(r);
  r.rejectUnknown();
  return settings;
}

/** Validates `http:` for check-config and the loader (register it as `http` in SECTION_VALIDATORS). */
export const HTTP_SECTION_VALIDATOR: SectionValidator = (value, path, issues) => {
  // `http:` with nothing under it is an empty section, as in Home Assistant.
  read(value === null ? new ConfigReader({}, path, issues) : ConfigReader.of(value, path, issues));
};

/** The settings of a validated configuration (defaults when it has no `http:` section). */
export function readHttpSettings(config: HubConfig): HttpSettings {
  const value = config.sections.http;
  if (value === undefined || value === null || Array.isArray(value)) return DEFAULT_HTTP_SETTINGS;
  return read(new ConfigReader(value as ConfigReader['value'], ['http'], []));
}
