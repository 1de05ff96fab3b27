import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { assertPublicWebhookUrl, createWebhookSender, signPayload, verifySignature } from '../../src/index.js';
import type { HostResolver } from '../../src/index.js';
import { startHttpsReceiver } from '../../src/testing/index.js';
import type { HttpsReceiver } from '../../src/testing/index.js';

const body = Buffer.from('{"event":"payment.paid","id":"pr_1","timestamp":"2025-01-01T00:00:00Z","note":"ünïcode"}');
const PUBLIC = '93.184.215.14';

let receiver: HttpsReceiver;

beforeAll(async () => {
  receiver = await startHttpsReceiver();
});
afterAll(async () => {
  await receiver.close();
});
beforeEach(() => {
  receiver.reset();
  receiver.setResponder(() => ({ status: 200 }));
});

const send = (sender: ReturnType<typeof createWebhookSender>, url: string, timeoutMs = 5_000) =>
  sender.send({ url, body, timeoutMs, headers: { 'X-Gateway-Event': 'payment.paid', 'X-Gateway-Signature': signPayload('whsec_a', body) } });

describe('createWebhookSender against a real HTTPS receiver', () => {
  it('POSTs the exact bytes with the event and signature headers when the host is allowlisted', async () => {
    const sender = createWebhookSender({ allowPrivateHosts: ['localhost'] });
    const result = await send(sender, `${receiver.url}/hooks/in?x=1`);
    expect(result).toMatchObject({ ok: true, statusCode: 200, error: null, errorKind: null, remoteAddress: '127.0.0.1' });
    expect(receiver.requests).toHaveLength(1);
    const [request] = receiver.requests;
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/hooks/in?x=1');
    expect(request!.body.equals(body)).toBe(true);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['x-gateway-event']).toBe('payment.paid');
    expect(verifySignature('whsec_a', request!.body, String(request!.headers['x-gateway-signature']))).toBe(true);
  });

  it('counts any 2xx as delivered and anything else as failed', async () => {
    const sender = createWebhookSender({ allowPrivateHosts: ['localhost'] });
    receiver.setResponder(() => ({ status: 204 }));
    expect(await send(sender, receiver.url)).toMatchObject({ ok: true, statusCode: 204 });
    receiver.setResponder(() => ({ status: 500, body: 'boom' }));
    expect(await send(sender, receiver.url)).toMatchObject({ ok: false, statusCode: 500, errorKind: 'http_status' });
    receiver.setResponder(() => ({ status: 404 }));
    expect(await send(sender, receiver.url)).toMatchObject({ ok: false, statusCode: 404, errorKind: 'http_status' });
  });

  it.each([301, 302, 303, 307, 308])('never follows a %i redirect: it is a failure', async (status) => {
    const sender = createWebhookSender({ allowPrivateHosts: ['localhost'] });
    receiver.setResponder((req) => (req.path === '/moved' ? { status: 200 } : { status, headers: { location: `${receiver.url}/moved` } }));
    const result = await send(sender, `${receiver.url}/start`);
    expect(result).toMatchObject({ ok: false, statusCode: status, errorKind: 'redirect' });
    expect(result.error).toContain('/moved');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.requests.map((r) => r.path)).toEqual(['/start']);
  });

  it('gives up after the per-attempt timeout', async () => {
    const sender = createWebhookSender({ allowPrivateHosts: ['localhost'] });
    receiver.setResponder(() => ({ status: 200, delayMs: 3_000 }));
    const started = Date.now();
    const result = await send(sender, receiver.url, 300);
    expect(result).toMatchObject({ ok: false, statusCode: null, errorKind: 'timeout' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it('reports a refused connection as a network failure', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const result = await send(createWebhookSender({ allowPrivateHosts: ['localhost'] }), `https://localhost:${port}/`);
    expect(result).toMatchObject({ ok: false, statusCode: null, errorKind: 'network' });
    expect(result.error).toContain('ECONNREFUSED');
  });
});

describe('SSRF refusals at send time (nothing reaches the receiver)', () => {
  it('refuses localhost (resolves to 127.0.0.1) without an exemption', async () => {
    const result = await send(createWebhookSender(), `${receiver.url}/hook`);
    expect(result).toMatchObject({ ok: false, errorKind: 'blocked', statusCode: null });
    // The error is shown to the endpoint's owner (delivery attempts): it names their host, never the address it resolved to.
    expect(result.error).toBe('destination refused: localhost does not resolve to a public address');
    expect(receiver.requests).toHaveLength(0);
  });

  it('refuses IP literals (127.0.0.1, ::1, ::ffff:127.0.0.1) without an exemption', async () => {
    const sender = createWebhookSender();
    for (const host of ['127.0.0.1', '[::1]', '[::ffff:127.0.0.1]']) {
      expect(await send(sender, `https://${host}:${receiver.port}/`)).toMatchObject({ ok: false, errorKind: 'blocked' });
    }
    expect(receiver.requests).toHaveLength(0);
  });

  it('refuses http:// without contacting the host, even when exempted', async () => {
    const plain = createServer((_req, res) => res.end('ok'));
    let hits = 0;
    plain.on('request', () => hits++);
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const { port } = plain.address() as AddressInfo;
    try {
      const result = await send(createWebhookSender({ allowPrivateHosts: ['localhost', '127.0.0.1'] }), `http://localhost:${port}/`);
      expect(result).toMatchObject({ ok: false, errorKind: 'blocked' });
      expect(hits).toBe(0);
    } finally {
      await new Promise<void>((resolve) => plain.close(() => resolve()));
    }
  });

  it('closes the DNS-rebinding gap: public at save time, private at send time is refused', async () => {
    let calls = 0;
    const rebinding: HostResolver = async () => {
      calls++;
      return calls === 1 ? [{ address: PUBLIC, family: 4 }] : [{ address: '127.0.0.1', family: 4 }];
    };
    // Saved: the name resolved to a public address then.
    await expect(assertPublicWebhookUrl(`${receiver.url}/hook`, { lookup: rebinding })).resolves.toBeInstanceOf(URL);
    // Sent: the connection-time lookup now answers 127.0.0.1, which is checked before connecting.
    const result = await send(createWebhookSender({ lookup: rebinding }), `${receiver.url}/hook`);
    expect(result).toMatchObject({ ok: false, errorKind: 'blocked', remoteAddress: null });
    expect(result.error).toContain('does not resolve to a public address');
    expect(result.error).not.toContain('127.0.0.1');
    expect(calls).toBe(2);
    expect(receiver.requests).toHaveLength(0);
  });

  it('refuses when any resolved address is private, and checks IPv4-mapped answers', async () => {
    const mixed: HostResolver = async () => [{ address: PUBLIC, family: 4 }, { address: '127.0.0.1', family: 4 }];
    expect(await send(createWebhookSender({ lookup: mixed }), `${receiver.url}/`)).toMatchObject({ errorKind: 'blocked' });
    const mapped: HostResolver = async () => [{ address: '::ffff:127.0.0.1', family: 6 }];
    expect(await send(createWebhookSender({ lookup: mapped }), `${receiver.url}/`)).toMatchObject({ errorKind: 'blocked' });
    expect(receiver.requests).toHaveLength(0);
  });

  it('connects to the address its guarded lookup validated, exactly once per attempt', async () => {
    const seen: string[] = [];
    const lookup: HostResolver = async (hostname) => {
      seen.push(hostname);
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const sender = createWebhookSender({ lookup, allowPrivateHosts: ['127.0.0.0/8'] });
    expect(await send(sender, `${receiver.url}/a`)).toMatchObject({ ok: true, remoteAddress: '127.0.0.1' });
    expect(await send(sender, `${receiver.url}/b`)).toMatchObject({ ok: true });
    expect(seen).toEqual(['localhost', 'localhost']);
    expect(receiver.requests.map((r) => r.path)).toEqual(['/a', '/b']);
  });

  it('WEBHOOK_ALLOW_PRIVATE_HOSTS by host and by CIDR lets exactly the named targets through', async () => {
    expect(await send(createWebhookSender({ allowPrivateHosts: ['localhost'] }), receiver.url)).toMatchObject({ ok: true });
    expect(await send(createWebhookSender({ allowPrivateHosts: ['127.0.0.0/8'] }), receiver.url)).toMatchObject({ ok: true });
    expect(await send(createWebhookSender({ allowPrivateHosts: ['127.0.0.1'] }), `https://127.0.0.1:${receiver.port}/`)).toMatchObject({ ok: true });
    expect(await send(createWebhookSender({ allowPrivateHosts: ['10.0.0.0/8', 'other.example'] }), receiver.url)).toMatchObject({ errorKind: 'blocked' });
    expect(await send(createWebhookSender({ allowPrivateHosts: ['127.0.0.2/32'] }), receiver.url)).toMatchObject({ errorKind: 'blocked' });
    expect(receiver.requests).toHaveLength(3);
  });
});
