import { DEFAULT_MAX_ENTITIES } from '../core/state-table.js';
import { isZoneName } from '../util/tzif.js';
import { type CoreExtras, readCoreExtras } from './core-section.js';
import type { ConfigReader } from './reader.js';
import type { HubSection, UnitSystemName } from './types.js';

const DEFAULTS = {
  name: 'Home',
  latitude: 52.3731,
  longitude: 4.8922,
  time_zone: 'UTC',
  currency: 'EUR',
  language: 'en',
  port: 8123,
  host: '0.0.0.0',
} as const;

/**
 * Reads the `hub:` section (or `homeassistant:`, its Home Assistant name, with the rest of Home Assistant's core
 * keys: customize, packages, allowlists...); every problem is collected in the reader, and defaults fill the gaps.
 */
export function readHubSection(r: ConfigReader): { hub: HubSection; core: CoreExtras } {
  const hub: HubSection = {
    name: nonEmpty(r, 'name') ?? DEFAULTS.name,
    latitude: r.number('latitude', { min: -90, max: 90, default: DEFAULTS.latitude }),
    longitude: r.number('longitude', { min: -180, max: 180, default: DEFAULTS.longitude }),
    // vol.Coerce(int), as Home Assistant: 2.5 m is 2.
    elevation: Math.trunc(r.number('elevation', { default: 0 })),
    unit_system: unitSystem(r),
    time_zone: timeZone(r) ?? DEFAULTS.time_zone,
    currency: currency(r) ?? DEFAULTS.currency,
    country: r.string('country', { pattern: /^[A-Z]{2}$/, patternText: 'an ISO 3166 two-letter country code such as NL or US' }) ?? null,
    language: language(r) ?? DEFAULTS.language,
    port: r.number('port', { integer: true, min: 1, max: 65535, default: DEFAULTS.port }),
    host: nonEmpty(r, 'host') ?? DEFAULTS.host,
    max_entities: r.number('max_entities', { integer: true, min: 1, max: 1_000_000, default: DEFAULT_MAX_ENTITIES }),
    external_url: url(r, 'external_url') ?? null,
    internal_url: url(r, 'internal_url') ?? null,
  };
  // Only when set, so a config without it reads as before.
  const restoreFlushS = r.number('restore_flush_s', { min: 0.1, max: 3600 });
  const reportFlushS = r.number('restore_report_flush_s', { min: 0.1, max: 3600 });
  const core = readCoreExtras(r);
  r.rejectUnknown();
  return {
    hub: {
      ...hub,
      ...(restoreFlushS === undefined ? {} : { restore_flush_s: restoreFlushS }),
      ...(reportFlushS === undefined ? {} : { restore_report_flush_s: reportFlushS }),
    },
    core,
  };
}

/** Home Assistant still reads `imperial`, its old name for us_customary (core_config.py validate_unit_system). */
function unitSystem(r: ConfigReader): UnitSystemName {
  const v = r.oneOf('unit_system', ['metric', 'us_customary', 'imperial'] as const, 'metric');
  return v === 'imperial' ? 'us_customary' : v;
}

function nonEmpty(r: ConfigReader, key: string): string | undefined {
  const s = r.string(key);
  if (s !== undefined && s.trim() === '') {
    r.problem(key, 'must not be empty');
    return undefined;
  }
  return s;
}

let zoneNames: Map<string, string> | undefined;

/**
 * An IANA time zone the runtime knows (checked with Intl). A name that differs only in case is corrected
 * to its canonical spelling, since clients compare zone names exactly.
 */
function timeZone(r: ConfigReader): string | undefined {
  const tz = r.string('time_zone');
  if (tz === undefined) return undefined;
  // The usual case, a canonical name, is settled by the list; only others need Intl.DateTimeFormat, whose
  // first use loads ICU's locale data (about 9 MB resident).
  if (isZoneName(tz)) return tz;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    zoneNames ??= new Map(Intl.supportedValuesOf('timeZone').map((z) => [z.toLowerCase(), z]));
    const near = [...zoneNames.values()].filter((z) => z.toLowerCase().endsWith(`/${tz.toLowerCase().split('/').pop()}`));
    const hint = near.length > 0 && near.length <= 5 ? ` (did you mean ${near.join(' or ')}?)` : '';
    r.problem(
      'time_zone',
      `${JSON.stringify(tz)} is not allowed: expected an IANA time zone name such as Europe/Amsterdam, America/New_York or UTC${hint}`,
    );
    return undefined;
  }
  return resolved.toLowerCase() === tz.toLowerCase() ? resolved : tz;
}

/**
 * The ISO 4217 codes in use: `Intl.supportedValuesOf('currency')` of Node 20's ICU, written out. Asking ICU reads
 * every locale's currency data, some 0.5 MB of the node binary that then stays resident for the life of the hub.
 */
const CURRENCIES: ReadonlySet<string> = new Set(
  (
    'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD ' +
    'CAD CDF CHF CLP CNY COP CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP ' +
    'GMD GNF GTQ GYD HKD HNL HRK HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD ' +
    'KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO ' +
    'NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL ' +
    'SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST ' +
    'XAF XCD XCG XDR XOF XPF XSU YER ZAR ZMW ZWG ZWL'
  ).split(' '),
);

function currency(r: ConfigReader): string | undefined {
  const c = r.string('currency', { pattern: /^[A-Z]{3}$/, patternText: 'an ISO 4217 currency code such as EUR or USD' });
  if (c === undefined) return undefined;
  if (!CURRENCIES.has(c)) {
    r.problem('currency', `${JSON.stringify(c)} is not allowed: expected an ISO 4217 currency code such as EUR or USD`);
    return undefined;
  }
  return c;
}

function language(r: ConfigReader): string | undefined {
  const lang = r.string('language');
  if (lang === undefined) return undefined;
  try {
    const [canonical] = Intl.getCanonicalLocales(lang);
    if (canonical !== undefined) return canonical;
  } catch {
    // Reported below.
  }
  r.problem('language', `${JSON.stringify(lang)} is not allowed: expected a language tag such as en, en-GB or nl`);
  return undefined;
}

function url(r: ConfigReader, key: string): string | undefined {
  const s = r.string(key);
  if (s === undefined) return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(s);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    r.problem(key, `${JSON.stringify(s)} is not allowed: expected an http:// or https:// URL such as http://hearth.local:8123`);
    return undefined;
  }
  // Home Assistant stores these without a trailing slash; clients append paths to them.
  return s.replace(/\/+$/, '');
}
