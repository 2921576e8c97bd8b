import type { SectionValidator } from '../config/load.js';
import { ConfigReader } from '../config/reader.js';
import type { HubConfig } from '../config/types.js';

/** The `http:` section: Home Assistant's options for failed logins and IP bans (components/http/ban.py). */
export interface HttpSettings {
  /** Enforce bans from ip_bans.yaml and add new ones (default true, as in Home Assistant). */
  readonly ip_ban_enabled: boolean;
  /** Failed attempts from one address before it is banned; below 1 (the default, -1) never bans. */
  readonly login_attempts_threshold: number;
}

export const DEFAULT_HTTP_SETTINGS: HttpSettings = { ip_ban_enabled: true, login_attempts_threshold: -1 };

function read(r: ConfigReader): HttpSettings {
  const settings: HttpSettings = {
    ip_ban_enabled: r.boolean('ip_ban_enabled', DEFAULT_HTTP_SETTINGS.ip_ban_enabled),
    login_attempts_threshold: r.number('login_attempts_threshold', {
      integer: true,
      min: -1,
      max: 1_000_000,
      default: DEFAULT_HTTP_SETTINGS.login_attempts_threshold,
    }),
  };
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
