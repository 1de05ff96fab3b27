// The walkthrough as one test: a merchant registers an HTTPS endpoint, a shopper completes checkout over HTTP,
// and bnpl's own worker delivers a signed loan.authorized to a real local HTTPS receiver; then the operator lists the
// delivery and re-sends it with the admin commands. Everything real: PostgreSQL, a Temporal server, HTTP, TLS.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { createLogger, generateSecretBoxKey, openWorkflowOutbox } from '@tributary/kit';
import { startHttpsReceiver, waitFor, type HttpsReceiver } from '@tributary/kit/testing';
import { startTimeSkippingEnvironment } from '@tributary/workflows/testing';
import { runAdminCommand } from '../src/admin/commands.js';
import { Loan } from '../src/modules/loans/index.js';
import { startWorker, type RunningWorker } from '../src/worker.js';
import { createMerchant, createWidgetSession, startHarness, type Harness } from './helpers.js';

type TimeSkippingEnvironment = Awaited<ReturnType<typeof startTimeSkippingEnvironment>>;

const KEY = generateSecretBoxKey();
const PRIVATE_HOSTS = ['localhost', '127.0.0.1'];

let env: TimeSkippingEnvironment;
let h: Harness;
let receiver: HttpsReceiver;
let worker: RunningWorker;

beforeAll(async () => {
  env = await startTimeSkippingEnvironment();
  h = await startHarness({ env: { WEBHOOK_ALLOW_PRIVATE_HOSTS: PRIVATE_HOSTS.join(','), SECRETS_ENCRYPTION_KEY: KEY, TEMPORAL_ADDRESS: env.address } });
  receiver = await startHttpsReceiver();
  worker = await startWorker({
    orm: h.orm,
    logger: createLogger({ service: 'bnpl', level: 'silent' }),
    config: { TEMPORAL_ADDRESS: env.address, TEMPORAL_NAMESPACE: env.namespace ?? 'default', WEBHOOK_ALLOW_PRIVATE_HOSTS: PRIVATE_HOSTS },
    env: { SECRETS_ENCRYPTION_KEY: KEY },
  });
}, 180_000);

afterAll(async () => {
  await worker?.shutdown();
  await env?.teardown();
  await receiver?.close();
  await h?.close();
});

const hooksAt = (path: string) => receiver.requests.filter((r) => r.path === path);

describe('checkout → signed loan.authorized at the merchant', () => {
  it('a completed checkout reaches the registered endpoint once, signed with its secret, and the operator can re-send it', async () => {
    const url = h.service.url;
    const shop = await createMerchant(h, 'Walkthrough Shop');
    const registered = await fetch(`${url}/api/v1/merchant/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shop.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${receiver.url}/hook`, events: ['loan.authorized'] }),
    });
    expect(registered.status).toBe(201);
    const { secret } = (await registered.json()) as { secret: string };

    const session = await createWidgetSession(h, shop, { amountCents: 20_000, orderReference: 'order-42' });
    expect((await fetch(`${url}/checkout/${session.token}`)).status).toBe(200);
    const confirmed = await fetch(`${url}/checkout/${session.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ plan_id: 'pay_in_4', email: 'jo@example.com', terms: 'accepted' }).toString(),
      redirect: 'manual',
    });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe(session.successUrl);

    const [hook] = await waitFor(async () => hooksAt('/hook'), (requests) => requests.length >= 1, 30_000);
    const loan = await h.orm.em.fork().findOneOrFail(Loan, { session: session.id });
    expect(hook!.headers['x-service-event']).toBe('loan.authorized');
    expect(hook!.headers['content-type']).toMatch(/^application\/json/);
    expect(hook!.headers['x-service-signature']).toBe(createHmac('sha256', secret).update(hook!.body).digest('hex'));
    const envelope = JSON.parse(hook!.body.toString('utf8')) as { event: string; timestamp: string; data: Record<string, unknown> };
    expect(envelope).toEqual({
      event: 'loan.authorized',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: {
        loan_id: loan.id,
        loan_number: loan.loanNumber,
        merchant_id: shop.merchant.id,
        principal_cents: 20_000,
        total_cents: 20_000,
        currency: 'USD',
        status: 'approved',
        purchase_reference: 'order-42',
        disbursed_at: null,
      },
    });

    // The operator's view: the delivery, delivered on its first attempt with a 200.
    type Listed = { deliveries: Array<{ id: string; event: string; status: string; attempts: Array<{ status_code: number | null }> }> };
    const deliveries = async () => (await runAdminCommand(['deliveries', '--merchant', shop.merchant.id], { em: h.orm.em.fork() })).json as Listed;
    const listed = await waitFor(deliveries, (l) => l.deliveries[0]?.status === 'delivered', 10_000);
    expect(listed.deliveries).toHaveLength(1);
    expect(listed.deliveries[0]).toMatchObject({ event: 'loan.authorized', attempts: [expect.objectContaining({ status_code: 200 })] });

    // A re-send: the same bytes again, dispatched right after its commit through the outbox.
    const temporal = openWorkflowOutbox({ em: h.orm.em, config: { TEMPORAL_ADDRESS: env.address, TEMPORAL_NAMESPACE: env.namespace ?? 'default' }, logger: createLogger({ service: 'bnpl', level: 'silent' }) });
    try {
      const resent = (await runAdminCommand(['redeliver', listed.deliveries[0]!.id], { em: h.orm.em.fork(), outbox: () => temporal.outbox })).json as { redelivery_of: string; event: string };
      expect(resent).toMatchObject({ redelivery_of: listed.deliveries[0]!.id, event: 'loan.authorized' });
      const both = await waitFor(async () => hooksAt('/hook'), (requests) => requests.length >= 2, 30_000);
      expect(both[1]!.body.equals(hook!.body)).toBe(true);
      expect(both[1]!.headers['x-service-signature']).toBe(hook!.headers['x-service-signature']);
    } finally {
      await temporal.close();
    }
    await expect(runAdminCommand(['deliveries', '--limit', 'x'], { em: h.orm.em.fork() })).rejects.toThrow(/--limit must be a number/);
    await expect(runAdminCommand(['redeliver', 'not-a-delivery'], { em: h.orm.em.fork() })).rejects.toThrow(/No webhook delivery/);
  }, 120_000);
});
