import { describe, expect, it } from '@jest/globals';
import { NOT_PUBLIC_ADDRESS_MESSAGE, assertPublicWebhookUrl, classifyAddress, PrivateHostAllowlist, UnsafeWebhookUrlError, ValidationError } from '../../src/index.js';
import type { HostResolver } from '../../src/index.js';

const refused: Array<[string, string]> = [
  // IPv4
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', '"this network"'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['100.64.0.1', 'carrier-grade NAT'],
  ['100.127.255.254', 'carrier-grade NAT'],
  ['127.0.0.1', 'loopback'],
  ['127.255.0.9', 'loopback'],
  ['169.254.169.254', 'link-local (cloud metadata)'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.0.0.8', 'IETF protocol assignments'],
  ['192.0.2.10', 'documentation TEST-NET-1'],
  ['192.88.99.1', '6to4 relay'],
  ['192.168.1.1', 'private'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.1', 'benchmarking'],
  ['198.51.100.7', 'documentation TEST-NET-2'],
  ['203.0.113.9', 'documentation TEST-NET-3'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  // IPv6
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback (hex form)'],
  ['::ffff:10.1.2.3', 'IPv4-mapped private'],
  ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
  ['::ffff:100.64.1.1', 'IPv4-mapped CGNAT'],
  ['::127.0.0.1', 'IPv4-compatible'],
  ['64:ff9b::7f00:1', 'NAT64 of loopback'],
  ['64:ff9b::a00:1', 'NAT64 of private'],
  ['64:ff9b:1::1', 'local-use NAT64'],
  ['100::1', 'discard-only'],
  ['2001::1', 'Teredo'],
  ['2001:2::1', 'benchmarking'],
  ['2001:db8::1', 'documentation'],
  ['2001:db8:ffff::1', 'documentation'],
  ['3fff::1', 'documentation'],
  ['2002:7f00:1::1', '6to4'],
  ['fc00::1', 'unique local'],
  ['fd12:3456::1', 'unique local'],
  ['fe80::1', 'link-local'],
  ['febf::1', 'link-local'],
  ['fec0::1', 'site-local'],
  ['ff02::1', 'multicast'],
  ['ff0e::1', 'multicast'],
  ['4000::1', 'outside global unicast'],
  ['[::1]', 'bracketed loopback'],
  ['fe80::1%eth0', 'zoned link-local'],
  ['0x7f.0.0.1', 'non-canonical IPv4 text'],
  ['example.com', 'not an address'],
];

const allowed = ['93.184.215.14', '8.8.8.8', '1.1.1.1', '100.63.255.255', '100.128.0.1', '172.32.0.1', '192.169.0.1', '::ffff:8.8.8.8', '64:ff9b::808:808', '2606:4700:4700::1111', '2a00:1450:4001:82a::200e'];

describe('classifyAddress', () => {
  it.each(refused)('refuses %s (%s)', (address) => {
    const verdict = classifyAddress(address);
    expect(verdict.public).toBe(false);
    expect(verdict.reason).toEqual(expect.any(String));
  });

  it.each(allowed)('accepts public %s', (address) => {
    expect(classifyAddress(address)).toEqual({ address, public: true, reason: null });
  });
});

describe('PrivateHostAllowlist', () => {
  it('exempts named hosts (case-insensitive, trailing dot) and IPs/CIDRs of both families', () => {
    const list = new PrivateHostAllowlist(['Receiver.Internal', '10.1.0.0/16', '127.0.0.1', 'fd00::/8']);
    expect(list.allowsHost('receiver.internal')).toBe(true);
    expect(list.allowsHost('receiver.internal.')).toBe(true);
    expect(list.allowsHost('other.internal')).toBe(false);
    expect(list.allowsAddress('10.1.200.3')).toBe(true);
    expect(list.allowsAddress('10.2.0.1')).toBe(false);
    expect(list.allowsAddress('127.0.0.1')).toBe(true);
    expect(list.allowsAddress('127.0.0.2')).toBe(false);
    expect(list.allowsAddress('::ffff:10.1.0.5')).toBe(true);
    expect(list.allowsAddress('fd00::1')).toBe(true);
    expect(list.allowsAddress('fe80::1')).toBe(false);
  });

  it('rejects a malformed CIDR', () => {
    expect(() => new PrivateHostAllowlist(['10.0.0.0/abc'])).toThrow(/WEBHOOK_ALLOW_PRIVATE_HOSTS/);
    expect(() => new PrivateHostAllowlist(['nonsense/8'])).toThrow(/WEBHOOK_ALLOW_PRIVATE_HOSTS/);
  });
});

const resolveTo = (...addresses: string[]): HostResolver => async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(UnsafeWebhookUrlError);
    expect(error).toBeInstanceOf(ValidationError);
    return (error as UnsafeWebhookUrlError).reason;
  }
  throw new Error('expected the URL to be refused');
}

describe('assertPublicWebhookUrl (save-time check)', () => {
  it('accepts an https URL whose host resolves only to public addresses', async () => {
    const url = await assertPublicWebhookUrl('https://hooks.example.com:8443/in?x=1', { lookup: resolveTo('93.184.215.14', '2606:4700::1') });
    expect(url.hostname).toBe('hooks.example.com');
  });

  it('refuses http://, other schemes, garbage and credentials', async () => {
    const lookup = resolveTo('93.184.215.14');
    expect(await reasonOf(assertPublicWebhookUrl('http://hooks.example.com/in', { lookup }))).toBe('not_https');
    expect(await reasonOf(assertPublicWebhookUrl('ftp://hooks.example.com/in', { lookup }))).toBe('not_https');
    expect(await reasonOf(assertPublicWebhookUrl('not a url', { lookup }))).toBe('invalid_url');
    expect(await reasonOf(assertPublicWebhookUrl('https://user:pw@hooks.example.com/', { lookup }))).toBe('credentials_in_url');
  });

  it('refuses `localhost`, which resolves to 127.0.0.1 (real system resolver)', async () => {
    expect(await reasonOf(assertPublicWebhookUrl('https://localhost/hook'))).toBe('private_address');
  });

  it('says only that the host is not public: neither the address it resolved to nor what kind of address it is', async () => {
    const refusal = assertPublicWebhookUrl('https://internal.example/hook', { lookup: resolveTo('10.20.30.40') });
    await expect(refusal).rejects.toMatchObject({ message: NOT_PUBLIC_ADDRESS_MESSAGE, fields: { url: [NOT_PUBLIC_ADDRESS_MESSAGE] } });
    const local = (await assertPublicWebhookUrl('https://localhost/hook').catch((error: unknown) => error)) as UnsafeWebhookUrlError;
    expect(JSON.stringify({ message: local.message, fields: local.fields })).not.toMatch(/127\.0\.0\.1|::1|loopback/);
  });

  it('refuses IP literals in private ranges, IPv4-mapped IPv6 included', async () => {
    for (const url of ['https://127.0.0.1/', 'https://[::1]/', 'https://[::ffff:127.0.0.1]/', 'https://169.254.169.254/latest', 'https://[fd00::1]/', 'https://10.0.0.1/']) {
      expect(await reasonOf(assertPublicWebhookUrl(url))).toBe('private_address');
    }
  });

  it('refuses a host when ANY of its addresses is private', async () => {
    expect(await reasonOf(assertPublicWebhookUrl('https://mixed.example.com/', { lookup: resolveTo('93.184.215.14', '10.0.0.5') }))).toBe('private_address');
    expect(await reasonOf(assertPublicWebhookUrl('https://mapped.example.com/', { lookup: resolveTo('::ffff:192.168.0.1') }))).toBe('private_address');
  });

  it('refuses a host that does not resolve', async () => {
    const failing: HostResolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    expect(await reasonOf(assertPublicWebhookUrl('https://nowhere.invalid/', { lookup: failing }))).toBe('unresolvable');
    expect(await reasonOf(assertPublicWebhookUrl('https://empty.example/', { lookup: resolveTo() }))).toBe('unresolvable');
  });

  it('reports the error on the field the service names, as a ValidationError', async () => {
    await expect(assertPublicWebhookUrl('http://x.example/', { field: 'webhook_url' })).rejects.toMatchObject({
      fields: { webhook_url: ['Must be an https URL.'] },
    });
  });

  it('WEBHOOK_ALLOW_PRIVATE_HOSTS exempts a named host or a CIDR, nothing else', async () => {
    await expect(assertPublicWebhookUrl('https://localhost/hook', { allowPrivateHosts: ['localhost'] })).resolves.toBeInstanceOf(URL);
    await expect(assertPublicWebhookUrl('https://localhost/hook', { allowPrivateHosts: ['127.0.0.0/8'] })).resolves.toBeInstanceOf(URL);
    await expect(assertPublicWebhookUrl('https://[::1]/hook', { allowPrivateHosts: ['::1'] })).resolves.toBeInstanceOf(URL);
    await expect(
      assertPublicWebhookUrl('https://svc.internal/', { allowPrivateHosts: ['10.1.0.0/16'], lookup: resolveTo('10.1.2.3') }),
    ).resolves.toBeInstanceOf(URL);
    expect(await reasonOf(assertPublicWebhookUrl('https://svc.internal/', { allowPrivateHosts: ['10.1.0.0/16'], lookup: resolveTo('10.2.0.1') }))).toBe('private_address');
    expect(await reasonOf(assertPublicWebhookUrl('https://localhost/hook', { allowPrivateHosts: ['other.host', '10.0.0.0/8'] }))).toBe('private_address');
    // The exemption does not lift the https rule.
    expect(await reasonOf(assertPublicWebhookUrl('http://localhost/hook', { allowPrivateHosts: ['localhost'] }))).toBe('not_https');
  });
});
