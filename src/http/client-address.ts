import { BlockList, isIP } from 'node:net';
import { normalizeAddress, parseNetwork } from '../auth/address.js';
import type { Logger } from '../core/log.js';

/**
 * Who a request comes from behind reverse proxies (Home Assistant's `use_x_forwarded_for` with
 * `trusted_proxies`): when the peer is a trusted proxy, X-Forwarded-For is walked from the right past the
 * trusted hops, and the first hop that is not trusted is the client. From any other peer the header is
 * ignored (anyone can send it), so a client cannot pick the address its failed logins count against, and
 * a proxy's own address never collects everyone's failures.
 */
export class ForwardedFor {
  private readonly trusted = new BlockList();
  private readonly untrustedSenders = new Set<string>();

  /** @param networks validated by parseNetwork; @param onUntrusted called once per peer that sends the header untrusted. */
  constructor(
    networks: readonly string[],
    private readonly onUntrusted: (peer: string) => void = () => {},
  ) {
    for (const n of networks) {
      const net = parseNetwork(n);
      if (net !== undefined) this.trusted.addSubnet(net.address, net.prefix, net.family);
    }
  }

  isTrusted(address: string): boolean {
    const family = isIP(address);
    return family !== 0 && this.trusted.check(address, family === 4 ? 'ipv4' : 'ipv6');
  }

  /**
   * Whether a trusted proxy says the client came over HTTPS: X-Forwarded-Proto is `https` at every hop
   * it lists. (Unsure means no: a cookie marked Secure on a plain-HTTP page would never come back.)
   */
  httpsOf(peerText: string, protoHeader: string): boolean {
    if (protoHeader === '' || !this.isTrusted(normalizeAddress(peerText))) return false;
    return protoHeader.split(',').every((p) => p.trim().toLowerCase() === 'https');
  }

  /** The client's address, from the peer's and the X-Forwarded-For header ('' if none); normalised. */
  clientOf(peerText: string, header: string): string {
    const peer = normalizeAddress(peerText);
    if (header === '') return peer;
    if (!this.isTrusted(peer)) {
      // Bounded: a scan from many addresses must not grow this set without end.
      if (this.untrustedSenders.size < 64 && !this.untrustedSenders.has(peer)) {
        this.untrustedSenders.add(peer);
        this.onUntrusted(peer);
      }
      return peer;
    }
    const hops = header.split(',');
    let client = peer;
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = normalizeAddress(hops[i] as string);
      // A hop that is no address: the chain cannot be trusted past it; the last trusted proxy is the answer.
      if (isIP(hop) === 0) return client;
      client = hop;
      if (!this.isTrusted(hop)) return hop;
    }
    return client;
  }
}

/** The resolver for `http.trusted_proxies` (undefined when none are configured), warning once per peer that sends the header untrusted. */
export function forwardedFor(trustedProxies: readonly string[] | undefined, log: Logger): ForwardedFor | undefined {
  if (trustedProxies === undefined) return undefined;
  return new ForwardedFor(trustedProxies, (peer) =>
    log.warn(
      { peer },
      '%s sent X-Forwarded-For but is not in http.trusted_proxies: the header is ignored and %s counts as the client',
      peer,
      peer,
    ),
  );
}
