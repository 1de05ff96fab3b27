import ipaddr from 'ipaddr.js';

/**
 * Which destinations a webhook may reach. Only globally routable unicast addresses are public; loopback,
 * private, link-local, CGNAT, multicast, unspecified, broadcast, benchmarking, documentation and other
 * IANA special-purpose ranges are refused for IPv4 and IPv6. IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible
 * and NAT64 (64:ff9b::/96) IPv6 addresses are judged by the IPv4 address they embed.
 */

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];
const cidr = (text: string): Cidr => ipaddr.parseCIDR(text);

/** IANA IPv4 special-purpose registry (plus multicast and the reserved class E). */
const BLOCKED_V4: ReadonlyArray<[string, Cidr]> = [
  ['"this network" / unspecified', cidr('0.0.0.0/8')],
  ['private', cidr('10.0.0.0/8')],
  ['carrier-grade NAT', cidr('100.64.0.0/10')],
  ['loopback', cidr('127.0.0.0/8')],
  ['link-local', cidr('169.254.0.0/16')],
  ['private', cidr('172.16.0.0/12')],
  ['IETF protocol assignments', cidr('192.0.0.0/24')],
  ['documentation', cidr('192.0.2.0/24')],
  ['AS112', cidr('192.31.196.0/24')],
  ['AMT', cidr('192.52.193.0/24')],
  ['6to4 relay anycast', cidr('192.88.99.0/24')],
  ['private', cidr('192.168.0.0/16')],
  ['AS112', cidr('192.175.48.0/24')],
  ['benchmarking', cidr('198.18.0.0/15')],
  ['documentation', cidr('198.51.100.0/24')],
  ['documentation', cidr('203.0.113.0/24')],
  ['multicast', cidr('224.0.0.0/4')],
  ['reserved', cidr('240.0.0.0/4')],
  ['broadcast', cidr('255.255.255.255/32')],
];

/** IANA IPv6 special-purpose registry. Anything outside 2000::/3 (global unicast) is refused as well. */
const BLOCKED_V6: ReadonlyArray<[string, Cidr]> = [
  ['unspecified', cidr('::/128')],
  ['loopback', cidr('::1/128')],
  ['discard-only', cidr('100::/64')],
  ['local-use NAT64', cidr('64:ff9b:1::/48')],
  ['IETF protocol assignments (Teredo, benchmarking, ORCHID...)', cidr('2001::/23')],
  ['documentation', cidr('2001:db8::/32')],
  ['6to4', cidr('2002::/16')],
  ['documentation', cidr('3fff::/20')],
  ['segment routing SIDs', cidr('5f00::/16')],
  ['unique local', cidr('fc00::/7')],
  ['link-local', cidr('fe80::/10')],
  ['site-local (deprecated)', cidr('fec0::/10')],
  ['multicast', cidr('ff00::/8')],
];
const GLOBAL_UNICAST_V6 = cidr('2000::/3');
const NAT64_WELL_KNOWN = cidr('64:ff9b::/96');
const IPV4_COMPATIBLE = cidr('::/96');

export interface AddressVerdict {
  /** The address checked, normalized (IPv4-mapped IPv6 shown as written). */
  address: string;
  public: boolean;
  /** Why it is not public (e.g. "loopback"), or null. */
  reason: string | null;
}

function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  // Zone ids (fe80::1%eth0) are link-local by definition.
  const withoutZone = bare.split('%')[0] ?? bare;
  if (!ipaddr.isValid(withoutZone)) return null;
  // ipaddr.parse accepts legacy forms such as "0x7f.1"; only the canonical dotted quad / IPv6 text is an IP here.
  if (ipaddr.IPv4.isValid(withoutZone) && !ipaddr.IPv4.isValidFourPartDecimal(withoutZone)) return null;
  return ipaddr.parse(withoutZone);
}

function classifyV4(ip: ipaddr.IPv4): string | null {
  for (const [reason, range] of BLOCKED_V4) if (ip.match(range)) return reason;
  const range = ip.range();
  return range === 'unicast' ? null : range;
}

function classifyV6(ip: ipaddr.IPv6): string | null {
  if (ip.isIPv4MappedAddress()) {
    const reason = classifyV4(ip.toIPv4Address());
    return reason ? `IPv4-mapped ${reason}` : null;
  }
  if (ip.match(NAT64_WELL_KNOWN)) {
    const bytes = ip.toByteArray().slice(12);
    const reason = classifyV4(new ipaddr.IPv4(bytes));
    return reason ? `NAT64-embedded ${reason}` : null;
  }
  for (const [reason, range] of BLOCKED_V6) if (ip.match(range)) return reason;
  if (ip.match(IPV4_COMPATIBLE)) return 'IPv4-compatible (deprecated)';
  if (!ip.match(GLOBAL_UNICAST_V6)) return 'reserved';
  const range = ip.range();
  return range === 'unicast' ? null : range;
}

/** Classifies one IP address. A string that is not an IP address is never public. */
export function classifyAddress(address: string): AddressVerdict {
  const ip = parseAddress(address);
  if (!ip) return { address, public: false, reason: 'not an IP address' };
  if (address.includes('%')) return { address, public: false, reason: 'link-local (zone id)' };
  const reason = ip.kind() === 'ipv4' ? classifyV4(ip as ipaddr.IPv4) : classifyV6(ip as ipaddr.IPv6);
  return { address, public: reason === null, reason };
}

export function isPublicAddress(address: string): boolean {
  return classifyAddress(address).public;
}

/** True when `host` is an IP literal (IPv6 may be bracketed as in URLs). */
export function isIpLiteral(host: string): boolean {
  return parseAddress(host) !== null;
}

/**
 * The operator's exemptions (`WEBHOOK_ALLOW_PRIVATE_HOSTS`): host names (matched exactly, case-insensitive)
 * and IP addresses or CIDRs (matched against every resolved address). An exempt host may resolve anywhere.
 */
export class PrivateHostAllowlist {
  private readonly hosts = new Set<string>();
  private readonly ranges: Cidr[] = [];

  constructor(entries: readonly string[] = []) {
    for (const raw of entries) {
      const entry = raw.trim().toLowerCase();
      if (!entry) continue;
      if (entry.includes('/')) {
        const [address = '', prefix = ''] = entry.split('/');
        const ip = parseAddress(address);
        if (!ip || !/^\d+$/.test(prefix)) throw new Error(`WEBHOOK_ALLOW_PRIVATE_HOSTS: invalid CIDR "${raw}"`);
        this.ranges.push(ipaddr.parseCIDR(`${ip.toString()}/${prefix}`));
        continue;
      }
      const ip = parseAddress(entry);
      if (ip) this.ranges.push([ip, ip.kind() === 'ipv4' ? 32 : 128]);
      else this.hosts.add(normalizeHost(entry));
    }
  }

  get isEmpty(): boolean {
    return this.hosts.size === 0 && this.ranges.length === 0;
  }

  allowsHost(host: string): boolean {
    return this.hosts.has(normalizeHost(host));
  }

  allowsAddress(address: string): boolean {
    const ip = parseAddress(address);
    if (!ip) return false;
    const candidates: Array<ipaddr.IPv4 | ipaddr.IPv6> = [ip];
    if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) candidates.push((ip as ipaddr.IPv6).toIPv4Address());
    return candidates.some((candidate) =>
      this.ranges.some(([base, bits]) => base.kind() === candidate.kind() && candidate.match(base, bits)),
    );
  }
}

/** Lowercase, without IPv6 brackets and without a trailing dot. */
export function normalizeHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.')) h = h.slice(0, -1);
  return h;
}

/** Parses the comma-separated `WEBHOOK_ALLOW_PRIVATE_HOSTS` value. */
export function parseAllowPrivateHosts(value: string | undefined): string[] {
  return (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}
