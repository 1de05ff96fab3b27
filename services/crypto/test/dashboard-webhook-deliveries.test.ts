// The dashboard's view of webhook deliveries through the subgraph (spec delivery rule 7: "recent deliveries and
// status codes are listed in the dashboard"): CryptoAccount.webhookDeliveries, the request a delivery is about, and
// redeliverWebhookDelivery, whose new delivery the service starts itself and the worker sends to a real receiver.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { WebhookDelivery, WorkflowOutboxEntry, verifySignature } from '@tributary/kit';
import { waitFor } from '@tributary/kit/testing';
import { runAdminCommand } from '../src/admin/commands.js';
import { WebhookDeliveryService } from '../src/modules/webhooks/index.js';
import { gql } from './helpers.js';
import { startWebhookTestbed, type TestMerchant, type WebhookTestbed } from './webhook-testbed.js';

let bed: WebhookTestbed;
let stranger: TestMerchant;

beforeAll(async () => {
  bed = await startWebhookTestbed({ serviceOnTestServer: true });
  stranger = await bed.createMerchant('Someone else');
}, 180_000);
afterAll(async () => {
  await bed?.close();
});

const auth = (merchant: TestMerchant) => ({ authorization: `Bearer ${merchant.apiKey}` });

/** An invoice with a webhook_url on the receiver, paid in full, whose payment.paid delivery has completed. */
async function paidInvoice(path: string): Promise<{ id: number; slug: string; deliveryId: string }> {
  const res = await fetch(`${bed.h.service.url}/api/merchant/v1/payment-requests`, {
    method: 'POST',
    headers: { ...auth(bed.merchant), 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ asset_id: 1, title: 'Order', amount: '0.25', reference: 'ord-7', webhook_url: `${bed.receiver.url}${path}` }),
  });
  expect(res.status).toBe(201);
  const slug = ((await res.json()) as { payment_request: { id: string } }).payment_request.id;
  const id = Number(res.headers.get('location')!.split('/').at(-1));
  // The operator's `pay` (as in webhooks.test.ts): queues payment.paid in the payment's transaction, then dispatches.
  await runAdminCommand(['pay', slug, '0.25'], { em: bed.h.orm.em.fork(), box: bed.box, outbox: async () => bed.outbox });
  await bed.outbox.idle();
  const [delivery] = await new WebhookDeliveryService(bed.h.orm.em.fork()).forPaymentRequest(id);
  await bed.env.client.workflow.getHandle(delivery!.delivery.workflowId).result();
  return { id, slug, deliveryId: delivery!.delivery.id };
}

const LIST = `query($limit: Int) { cryptoAccount { webhookDeliveries(limit: $limit) {
  id event deliveryNumber redeliveryOf status attemptCount lastStatusCode attempts { attemptNumber outcome statusCode } paymentRequest { id slug status }
} } }`;
const REDELIVER = `mutation($id: ID!) { redeliverWebhookDelivery(id: $id) { id event deliveryNumber redeliveryOf status body attempts { attemptNumber } } }`;

describe('webhook deliveries in the dashboard (GraphQL)', () => {
  it("lists the account's recent deliveries, newest first, with status codes and the request they are about", async () => {
    const first = await paidInvoice('/dash/1');
    const second = await paidInvoice('/dash/2');
    const { body } = await gql(bed.h.service.url, LIST, auth(bed.merchant));
    expect(body.errors).toBeUndefined();
    const deliveries = (body.data as { cryptoAccount: { webhookDeliveries: Array<Record<string, unknown>> } }).cryptoAccount.webhookDeliveries;
    expect(deliveries.map((d) => d.id).slice(0, 2)).toEqual([second.deliveryId, first.deliveryId]);
    expect(deliveries[0]).toEqual({
      id: second.deliveryId,
      event: 'payment.paid',
      deliveryNumber: 1,
      redeliveryOf: null,
      status: 'delivered',
      attemptCount: 1,
      lastStatusCode: 200,
      attempts: [{ attemptNumber: 1, outcome: 'delivered', statusCode: 200 }],
      paymentRequest: { id: String(second.id), slug: second.slug, status: 'PAID' },
    });

    const limited = await gql(bed.h.service.url, LIST, auth(bed.merchant), { limit: 1 });
    expect((limited.body.data as { cryptoAccount: { webhookDeliveries: unknown[] } }).cryptoAccount.webhookDeliveries).toHaveLength(1);
    // Another account sees none of them.
    const theirs = await gql(bed.h.service.url, LIST, auth(stranger));
    expect(theirs.body).toEqual({ data: { cryptoAccount: { webhookDeliveries: [] } } });
  });

  it('refuses a limit outside 1..100 with BAD_USER_INPUT', async () => {
    for (const limit of [0, 101, -5]) {
      const { body } = await gql(bed.h.service.url, LIST, auth(bed.merchant), { limit });
      expect(body.data).toEqual({ cryptoAccount: null });
      expect(body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', fields: { limit: ['Must be an integer between 1 and 100.'] } }) })]);
    }
  });

  it('re-sends a delivery: a new delivery with the same body bytes, started by the service and received again, validly signed', async () => {
    const paid = await paidInvoice('/dash/redeliver');
    const before = bed.receiver.requests.filter((r) => r.path === '/dash/redeliver');
    expect(before).toHaveLength(1);

    const { body } = await gql(bed.h.service.url, REDELIVER, auth(bed.merchant), { id: paid.deliveryId });
    expect(body.errors).toBeUndefined();
    const fresh = (body.data as { redeliverWebhookDelivery: { id: string; event: string; deliveryNumber: number; redeliveryOf: string; body: string } }).redeliverWebhookDelivery;
    expect(fresh).toMatchObject({ event: 'payment.paid', deliveryNumber: 2, redeliveryOf: paid.deliveryId, attempts: [] });
    expect(fresh.id).not.toBe(paid.deliveryId);

    // The service's own outbox dispatched it after the commit (no sweep, no test dispatch): wait for that, then for the
    // workflow and the receiver.
    const stored = await bed.h.orm.em.fork().findOneOrFail(WebhookDelivery, { id: fresh.id });
    const start = await waitFor(
      () => bed.h.orm.em.fork().findOneOrFail(WorkflowOutboxEntry, { workflowId: stored.workflowId, kind: 'start' }),
      (entry) => entry.dispatchedAt != null,
    );
    expect(start.dispatchedAt).toBeInstanceOf(Date);
    await bed.env.client.workflow.getHandle(stored.workflowId).result();
    const after = bed.receiver.requests.filter((r) => r.path === '/dash/redeliver');
    expect(after).toHaveLength(2);
    expect(after[1]!.body.equals(after[0]!.body)).toBe(true);
    expect(after[1]!.body.toString('utf8')).toBe(fresh.body);
    expect(verifySignature(bed.merchant.signingSecret, after[1]!.body, String(after[1]!.headers['x-gateway-signature']))).toBe(true);
  });

  it("another account's delivery or an unknown id is NOT_FOUND, and nothing is queued", async () => {
    const paid = await paidInvoice('/dash/foreign');
    const count = async () => (await new WebhookDeliveryService(bed.h.orm.em.fork()).forPaymentRequest(paid.id)).length;
    const before = await count();
    for (const [merchant, id] of [[stranger, paid.deliveryId], [bed.merchant, '00000000-0000-4000-8000-000000000000'], [bed.merchant, 'not-a-uuid']] as const) {
      const { body } = await gql(bed.h.service.url, REDELIVER, auth(merchant), { id });
      expect(body.data).toEqual({ redeliverWebhookDelivery: null });
      expect(body.errors).toEqual([expect.objectContaining({ message: 'Not found.', extensions: expect.objectContaining({ code: 'NOT_FOUND' }) })]);
    }
    expect(await count()).toBe(before);
    // Without credentials: UNAUTHENTICATED, nothing read.
    const anonymous = await gql(bed.h.service.url, REDELIVER, {}, { id: paid.deliveryId });
    expect(anonymous.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }) })]);
  });
});
