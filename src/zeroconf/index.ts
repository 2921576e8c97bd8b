// Announces the hub as Home Assistant does (`_home-assistant._tcp` with HA's TXT keys), so the Companion apps find
// it on the LAN. On by default (HA's default_config loads zeroconf); `zeroconf: {announce: false}` turns it off.
import type { ConfigIssue, ConfigPath } from '../config/reader.js';
import type { Component } from '../core/component.js';
import { isJsonObject, type JsonValue } from '../core/json.js';
import type { Logger } from '../core/log.js';
import { parseDefaultConfig } from '../integration/default-config.js';
import { type Integration, type IntegrationContext, optionalSection, type SectionParser } from '../integration/integration.js';
import { HA_VERSION } from '../version.js';
import { instanceId } from './instance-id.js';

export interface ZeroconfConfig {
  readonly announce: boolean;
  /** Interfaces (names or addresses) to announce on; all by default. */
  readonly interfaces?: readonly string[];
}

const KEYS = new Set(['announce', 'interfaces', 'default_interface', 'ipv6']);

export function parseZeroconf(value: JsonValue, path: ConfigPath, issues: ConfigIssue[]): ZeroconfConfig {
  if (value === null) return { announce: true };
  if (!isJsonObject(value)) {
    issues.push({ path, message: 'expected a mapping (announce: true|false, interfaces: [...])' });
    return { announce: true };
  }
  for (const key of Object.keys(value)) {
    if (!KEYS.has(key)) issues.push({ path: [...path, key], message: `unknown key; allowed: ${[...KEYS].join(', ')}` });
  }
  const announce = value.announce ?? true;
  if (typeof announce !== 'boolean') issues.push({ path: [...path, 'announce'], message: 'expected true or false' });
  const interfaces = value.interfaces;
  if (interfaces !== undefined && (!Array.isArray(interfaces) || !interfaces.every((i) => typeof i === 'string'))) {
    issues.push({ path: [...path, 'interfaces'], message: 'expected a list of interface names or addresses' });
  }
  return {
    announce: announce !== false,
    interfaces: Array.isArray(interfaces) ? interfaces.filter((i): i is string => typeof i === 'string') : undefined,
  };
}

interface CiaoService {
  advertise(): Promise<void>;
  destroy(): Promise<void>;
}
interface CiaoResponder {
  createService(options: { name: string; type: string; port: number; txt: Record<string, string>; hostname?: string }): CiaoService;
  shutdown(): Promise<void>;
}
interface Ciao {
  getResponder(options?: { interface?: string | string[] }): CiaoResponder;
}

/** HA's service name: the location name, as a DNS label (at most 63 bytes). */
export function serviceName(locationName: string): string {
  // Dots separate DNS labels and control characters have no place in one.
  const clean =
    [...locationName]
      .map((ch) => (ch === '.' || ch.charCodeAt(0) < 32 ? ' ' : ch))
      .join('')
      .trim() || 'Home';
  let out = '';
  for (const ch of clean) {
    if (Buffer.byteLength(out + ch) > 63) break;
    out += ch;
  }
  return out;
}

/** HA's TXT record for `_home-assistant._tcp` (homeassistant/components/zeroconf: its `params`). */
export function txtRecord(o: { readonly locationName: string; readonly uuid: string; readonly baseUrl: string }): Record<string, string> {
  return {
    location_name: o.locationName,
    uuid: o.uuid,
    version: HA_VERSION,
    external_url: '',
    internal_url: o.baseUrl,
    base_url: o.baseUrl,
    requires_api_password: 'True',
  };
}

export class ZeroconfAnnouncer implements Component {
  readonly name = 'zeroconf';
  private responder: CiaoResponder | undefined;
  private service: CiaoService | undefined;
  private stopped = false;

  constructor(
    private readonly ctx: IntegrationContext,
    private readonly config: ZeroconfConfig,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    const port = this.ctx.httpPort?.() ?? this.ctx.hub.port;
    const uuid = await instanceId(this.ctx.dataDir, this.log);
    const ciao = (await import('@homebridge/ciao')) as unknown as Ciao & { default?: Ciao };
    const lib = ciao.default ?? ciao;
    // A stop during the awaits above found nothing to shut down: open no sockets after it.
    if (this.stopped) return;
    this.responder = lib.getResponder(this.config.interfaces === undefined ? undefined : { interface: [...this.config.interfaces] });
    const name = serviceName(this.ctx.hub.name);
    this.service = this.responder.createService({
      name,
      type: 'home-assistant',
      port,
      txt: txtRecord({ locationName: this.ctx.hub.name, uuid, baseUrl: '' }),
    });
    // Announcing can take seconds (probing); the hub does not wait for it.
    this.service.advertise().then(
      () => this.log.info({ name, port }, 'announced on the LAN as %s._home-assistant._tcp.local', name),
      (err: unknown) => this.log.warn({ err }, 'could not announce the hub on the LAN (zeroconf)'),
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.service?.destroy().catch(() => {});
    await this.responder?.shutdown().catch(() => {});
    this.service = undefined;
    this.responder = undefined;
  }
}

/**
 * Announces with `zeroconf:` or Home Assistant's `default_config:` in the configuration (and not with neither, so
 * tests and hand-made configurations stay off the network unless asked).
 */
export const zeroconfIntegration: Integration<
  { zeroconf: SectionParser<ZeroconfConfig | undefined>; default_config: typeof parseDefaultConfig },
  ZeroconfAnnouncer
> = {
  name: 'zeroconf',
  sections: { zeroconf: optionalSection(parseZeroconf), default_config: parseDefaultConfig },
  create(ctx, config) {
    const settings = config.zeroconf ?? (config.default_config ? { announce: true } : undefined);
    return settings?.announce === true ? new ZeroconfAnnouncer(ctx, settings, ctx.log) : undefined;
  },
};
