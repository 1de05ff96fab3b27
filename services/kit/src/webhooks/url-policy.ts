import { lookup as dnsLookup } from 'node:dns/promises';
import { ValidationError } from '../errors/index.js';
import { classifyAddress, isIpLiteral, normalizeHost, PrivateHostAllowlist } from './address-policy.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address it has (the system resolver by default). Injectable for tests. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export interface WebhookDestinationOptions {
  /** Hosts, IPs or CIDRs exempted from the public-address rule (`WEBHOOK_ALLOW_PRIVATE_HOSTS`). */
  allowPrivateHosts?: readonly string[] | PrivateHostAllowlist;
  lookup?: HostResolver;
}

export type UnsafeWebhookUrlReason = 'invalid_url' | 'not_https' | 'credentials_in_url' | 'unresolvable' | 'private_address';

/**
 * The 422 for a host that resolves to an address that is not public. It names neither the address nor its kind
 * (loopback, private, …): what a host resolves to inside our network is not the client's to learn.
 */
export const NOT_PUBLIC_ADDRESS_MESSAGE = 'Must resolve to a public address.';

/**
 * A webhook URL that may not be used. It is a ValidationError (422 in every service's format) on the field
 * named by `field` (default `url`); `reason` is machine-readable.
 */
export class UnsafeWebhookUrlError extends ValidationError {
  readonly reason: UnsafeWebhookUrlReason;
  readonly field: string;

  constructor(reason: UnsafeWebhookUrlReason, message: string, field = 'url') {
    super({ [field]: [message] }, message);
    this.reason = reason;
    this.field = field;
  }
}

export function toAllowlist(value: WebhookDestinationOptions['allowPrivateHosts']): PrivateHostAllowlist {
  return value instanceof PrivateHostAllowlist ? value : new PrivateHostAllowlist(value ?? []);
}

/** Syntax rules every webhook URL must meet: absolute https URL, a host, no user:password. */
export function parseWebhookUrl(url: string, field = 'url'): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UnsafeWebhookUrlError('invalid_url', 'Must be a valid absolute URL.', field);
  }
  if (parsed.protocol !== 'https:') throw new UnsafeWebhookUrlError('not_https', 'Must be an https URL.', field);
  if (parsed.username || parsed.password) {
    throw new UnsafeWebhookUrlError('credentials_in_url', 'Must not contain credentials.', field);
  }
  if (!parsed.hostname) throw new UnsafeWebhookUrlError('invalid_url', 'Must name a host.', field);
  return parsed;
}

/**
 * Every address `host` resolves to must be public (or exempted); returns them. A host that is an IP literal
 * is checked as is. Throws UnsafeWebhookUrlError.
 */
export async function resolvePublicAddresses(
  host: string,
  options: WebhookDestinationOptions & { field?: string } = {},
): Promise<ResolvedAddress[]> {
  const allowlist = toAllowlist(options.allowPrivateHosts);
  const hostname = normalizeHost(host);
  let addresses: ResolvedAddress[];
  if (isIpLiteral(hostname)) {
    addresses = [{ address: hostname, family: hostname.includes(':') ? 6 : 4 }];
  } else {
    try {
      addresses = await (options.lookup ?? systemResolver)(hostname);
    } catch {
      throw new UnsafeWebhookUrlError('unresolvable', 'Host name does not resolve.', options.field);
    }
    if (addresses.length === 0) throw new UnsafeWebhookUrlError('unresolvable', 'Host name does not resolve.', options.field);
  }
  const problem = findForbiddenAddress(hostname, addresses, allowlist);
  if (problem) {
    throw new UnsafeWebhookUrlError('private_address', NOT_PUBLIC_ADDRESS_MESSAGE, options.field);
  }
  return addresses;
}

/** The first resolved address that is neither public nor exempted, or null when all may be contacted. */
export function findForbiddenAddress(
  hostname: string,
  addresses: readonly ResolvedAddress[],
  allowlist: PrivateHostAllowlist,
): { address: string; reason: string } | null {
  if (allowlist.allowsHost(hostname)) return null;
  for (const { address } of addresses) {
    const verdict = classifyAddress(address);
    if (!verdict.public && !allowlist.allowsAddress(address)) return { address, reason: verdict.reason ?? 'not public' };
  }
  return null;
}

/**
 * Save-time check of a webhook URL: https only, and the host must resolve (now) only to public addresses
 * unless exempted by `allowPrivateHosts`. The send-time check in the sender repeats this against the address
 * actually connected to. Throws UnsafeWebhookUrlError (a ValidationError on `field`); returns the parsed URL.
 */
export async function assertPublicWebhookUrl(
  url: string,
  options: WebhookDestinationOptions & { field?: string } = {},
): Promise<URL> {
  const parsed = parseWebhookUrl(url, options.field);
  await resolvePublicAddresses(parsed.hostname, options);
  return parsed;
}
