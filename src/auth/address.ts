import { isIP, isIPv4, isIPv6 } from 'node:net';

/** Longest text taken as an address; anything longer is cut (it cannot be one). */
const MAX_ADDRESS = 64;

/**
 * One spelling per client address, so a ban on `::1` matches what uWS reports as
 * `0000:0000:0000:0000:0000:0000:0000:0001`, and an IPv4 client of a dual-stack socket
 * (`::ffff:7f00:1`) is the same as `127.0.0.1`. Text that is not an IP address is returned trimmed.
 */
export function normalizeAddress(text: string): string {
  const raw = text.trim().slice(0, MAX_ADDRESS);
  if (isIPv4(raw)) return raw;
  const unbracketed = raw.startsWith('[') && raw.endsWith(']') ? raw.slice(1, -1) : raw;
  if (!isIPv6(unbracketed)) return raw.toLowerCase();
  // WHATWG URL parsing prints IPv6 in its canonical compressed form.
  const canonical = new URL(`http://[${unbracketed}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (mapped !== null) {
    const hi = Number.parseInt(mapped[1] as string, 16);
    const lo = Number.parseInt(mapped[2] as string, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return canonical;
}

/** Whether text names an IP address (either family, any spelling). */
export function isIpAddress(text: string): boolean {
  const t = text.trim();
  return isIPv4(t) || isIPv6(t.startsWith('[') && t.endsWith(']') ? t.slice(1, -1) : t);
}

/** An address or a network in CIDR notation (`192.168.1.10`, `10.0.0.0/8`, `fd00::/8`); undefined when neither. */
export function parseNetwork(text: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | undefined {
  const slash = text.indexOf('/');
  const address = slash === -1 ? text : text.slice(0, slash);
  const family = isIP(address);
  if (family === 0) return undefined;
  const max = family === 4 ? 32 : 128;
  const prefixText = slash === -1 ? String(max) : text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) return undefined;
  return { address, prefix: Number(prefixText), family: family === 4 ? 'ipv4' : 'ipv6' };
}
