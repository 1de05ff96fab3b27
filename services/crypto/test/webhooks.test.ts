// Crypto's webhooks end to end: a real HTTP service and database, payments recorded through the operator's `pay`
// command (its command layer, with a real Temporal client), the kit's delivery workflow on a real (time-skipping)
// Temporal server with crypto's signing-secret resolver, and a real local HTTPS receiver.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import { Client, Connection } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { WebhookDelivery, WorkflowOutboxEntry, verifySignature, type SecretBox, type WorkflowOutbox } from '@tributary/kit';
import type { HttpsReceiver, ReceivedRequest } from '@tributary/kit/testing';
import { runAdminCommand, type AdminDeps } from '../src/admin/commands.js';
import { main } from '../src/admin/run.js';
import { LATE_PAYMENT_WEBHOOK_FIELDS, PAYMENT_WEBHOOK_FIELDS, WebhookDeliveryService } from '../src/modules/webhooks/index.js';
import { PaymentRequest } from '../src/modules/payment-requests/index.js';
import { gql, type Harness } from './helpers.js';
import { startWebhookTestbed, type WebhookTestbed } from './webhook-testbed.js';

let bed: WebhookTestbed;
let KEY: string;
let box: SecretBox;
let h: Harness;
let env: TestWorkflowEnvironment;
let receiver: HttpsReceiver;
let outbox: WorkflowOutbox;
let apiKey: string;
let accountId: number;
let signingSecret: string;

beforeAll(async () => {
  bed = await startWebhookTestbed();
  ({ encryptionKey: KEY, box, h, env, receiver, outbox } = bed);
  ({ apiKey, accountId, signingSecret } = bed.merchant);
}, 180_000);

afterAll(async () => {
  await bed?.close();
});

const deps = (): AdminDeps => ({ em: h.orm.em.fork(), box, outbox: async () => outbox });

async function pay(slug: string, amount: string, ...extra: string[]) {
  const result = await runAdminCommand(['pay', slug, amount, ...extra], deps());
  // The command's deliveries are dispatched after its commit in the background (the command line waits for them too).
  await outbox.idle();
  return result.json as { payment: Record<string, unknown>; payment_request: Record<string, unknown>; events: string[]; credited: boolean };
}

async function createInvoice(path: string, body: Record<string, unknown> = {}): Promise<{ id: number; slug: string; address: string }> {
  const res = await fetch(`${h.service.url}/api/merchant/v1/payment-requests`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ asset_id: 1, title: 'Order', amount: '0.015', reference: 'order-42', webhook_url: `${receiver.url}${path}`, ...body }),
  });
  expect(res.status).toBe(201);
  const created = (await res.json()) as { payment_request: { id: string; address: string } };
  const id = Number(res.headers.get('location')!.split('/').at(-1));
  return { id, slug: created.payment_request.id, address: created.payment_request.address };
}

const deliveriesOf = (requestId: number) => new WebhookDeliveryService(h.orm.em.fork()).forPaymentRequest(requestId);
const result = (delivery: WebhookDelivery) => env.client.workflow.getHandle(delivery.workflowId).result();
const forPath = (path: string): ReceivedRequest[] => receiver.requests.filter((r) => r.path === path);
const pick = (object: Record<string, unknown>, fields: string[]) => Object.fromEntries(fields.map((field) => [field, object[field]]));
/** The outbox entry that starts a delivery's workflow. */
const startOf = (delivery: WebhookDelivery) => h.orm.em.fork().findOneOrFail(WorkflowOutboxEntry, { workflowId: delivery.workflowId, kind: 'start' });

function expectSigned(request: ReceivedRequest, event: string): Record<string, unknown> {
  expect(request.method).toBe('POST');
  expect(request.headers['content-type']).toBe('application/json');
  expect(request.headers['x-gateway-event']).toBe(event);
  const signature = String(request.headers['x-gateway-signature']);
  expect(signature).toMatch(/^[0-9a-f]{64}$/);
  expect(verifySignature(signingSecret, request.body, signature)).toBe(true);
  const body = JSON.parse(request.body.toString('utf8')) as Record<string, unknown>;
  // The spec's fields in its order; a payment.late adds the late payment's own fields after them (additive).
  expect(Object.keys(body)).toEqual(event === 'payment.late' ? [...PAYMENT_WEBHOOK_FIELDS, ...LATE_PAYMENT_WEBHOOK_FIELDS] : [...PAYMENT_WEBHOOK_FIELDS]);
  expect(body.event).toBe(event);
  return body;
}

describe('crypto webhooks (pay → queued delivery → Temporal → HTTPS receiver)', () => {
  let paidDelivery: WebhookDelivery;
  let paidBody: Buffer;

  it('an exact payment sends exactly one payment.paid: spec body in order, X-Gateway headers, HMAC of the raw bytes', async () => {
    receiver.setResponder(() => ({ status: 200 }));
    const invoice = await createInvoice('/paid');
    const paid = await pay(invoice.slug, '0.015');
    expect(paid.payment_request).toMatchObject({ id: invoice.slug, status: 'paid', amount_paid: '0.015', amount_outstanding: '0' });
    expect(paid.payment).toMatchObject({ chain: 'bitcoin', index: 0, amount: '0.015', confirmations: 2, counted: true, txid: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(paid.events).toEqual(['payment.paid']);

    const deliveries = await deliveriesOf(invoice.id);
    expect(deliveries).toHaveLength(1);
    paidDelivery = deliveries[0]!.delivery;
    expect(paidDelivery).toMatchObject({ eventName: 'payment.paid', endpointUrl: `${receiver.url}/paid`, signingSecretRef: `account:${accountId}` });
    // Started after the commit, through the outbox by pay's own dispatch.
    expect(await startOf(paidDelivery)).toMatchObject({ dispatchedAt: expect.any(Date) });

    await expect(result(paidDelivery)).resolves.toEqual({ outcome: 'delivered', attempts: 1 });
    const received = forPath('/paid');
    expect(received).toHaveLength(1);
    const body = expectSigned(received[0]!, 'payment.paid');
    const stored = await h.orm.em.fork().findOneOrFail(PaymentRequest, { id: invoice.id });
    expect(body).toEqual({
      event: 'payment.paid',
      id: invoice.slug,
      type: 'invoice',
      status: 'paid',
      asset: 'BTC',
      chain: 'bitcoin',
      amount_requested: '0.015',
      amount_paid: '0.015',
      reference: 'order-42',
      address: invoice.address,
      paid_at: stored.paidAt!.toISOString(),
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    paidBody = received[0]!.body;
    expect(paidBody.toString('utf8')).toBe(paidDelivery.body);

    // A payment below the threshold and a repeat of a counted one send nothing more.
    const txid = String(paid.payment.txid);
    expect((await pay(invoice.slug, '0.015', '--txid', txid)).events).toEqual([]);
    expect(await deliveriesOf(invoice.id)).toHaveLength(1);
  }, 60_000);

  it('a payment after expiry sends payment.expired then payment.late, never payment.paid', async () => {
    receiver.setResponder(() => ({ status: 204 }));
    const invoice = await createInvoice('/late', { amount: '0.5' });
    await h.orm.em.fork().nativeUpdate(PaymentRequest, { id: invoice.id }, { expiresAt: new Date(Date.now() - 1000) });
    const late = await pay(invoice.slug, '0.5');
    expect(late.events).toEqual(['payment.expired', 'payment.late']);
    expect(late.payment_request).toMatchObject({ status: 'expired', amount_paid: '0.5', paid_at: null });

    const deliveries = await deliveriesOf(invoice.id);
    expect(deliveries.map((d) => d.delivery.eventName)).toEqual(['payment.expired', 'payment.late']);
    for (const { delivery } of deliveries) await expect(result(delivery)).resolves.toEqual({ outcome: 'delivered', attempts: 1 });
    const received = forPath('/late');
    expect(received.map((r) => r.headers['x-gateway-event']).sort()).toEqual(['payment.expired', 'payment.late']);
    const lateBody = expectSigned(received.find((r) => r.headers['x-gateway-event'] === 'payment.late')!, 'payment.late');
    expect(lateBody).toMatchObject({ id: invoice.slug, status: 'expired', amount_paid: '0.5', paid_at: null });

    // A second late payment is a new occurrence: its own event id, that of its payment (retries/re-fires share one).
    const secondLate = await pay(invoice.slug, '0.1');
    expect(secondLate.events).toEqual(['payment.late']);
    const all = await deliveriesOf(invoice.id);
    const lates = all.filter((d) => d.delivery.eventName === 'payment.late');
    expect(lates).toHaveLength(2);
    expect(lates.map((d) => d.delivery.eventId)).toEqual([`${invoice.slug}-payment.late-${String(late.payment.txid)}:0`, `${invoice.slug}-payment.late-${String(secondLate.payment.txid)}:0`]);
    await expect(result(lates[1]!.delivery)).resolves.toEqual({ outcome: 'delivered', attempts: 1 });
    expect(forPath('/late').some((r) => r.headers['x-gateway-event'] === 'payment.paid')).toBe(false);
  }, 60_000);

  it('"The pair id plus event ... identifies a repeat": two late payments are two deliveries a receiver tells apart by the late payment; a retry of one keeps its identity', async () => {
    const invoice = await createInvoice('/late-twice', { amount: '0.5' });
    await h.orm.em.fork().nativeUpdate(PaymentRequest, { id: invoice.id }, { expiresAt: new Date(Date.now() - 1000) });
    let lateCalls = 0;
    // The first payment.late to arrive fails once, so it is retried.
    receiver.setResponder((req) => ({ status: req.headers['x-gateway-event'] === 'payment.late' && (lateCalls += 1) === 1 ? 500 : 200 }));
    const first = await pay(invoice.slug, '0.2');
    const second = await pay(invoice.slug, '0.3');
    expect([first.events, second.events]).toEqual([['payment.expired', 'payment.late'], ['payment.late']]);

    const all = await deliveriesOf(invoice.id);
    expect(all.map((d) => d.delivery.eventName)).toEqual(['payment.expired', 'payment.late', 'payment.late']);
    // One at a time: the time-skipping server skips time for one waiting client.
    const attempts: number[] = [];
    for (const { delivery } of all) attempts.push((await result(delivery)).attempts);
    expect(attempts.slice(1).sort()).toEqual([1, 2]);

    const received = forPath('/late-twice').filter((r) => r.headers['x-gateway-event'] === 'payment.late');
    expect(received).toHaveLength(3);
    const bodies = received.map((r) => expectSigned(r, 'payment.late'));
    // id + event alone are the same for both late payments; the late payment's fields tell them apart.
    expect(new Set(bodies.map((b) => `${String(b.id)}|${String(b.event)}`)).size).toBe(1);
    const identity = (b: Record<string, unknown>) => `${String(b.id)}|${String(b.event)}|${String(b.payment_txid)}|${String(b.payment_output_index)}`;
    const byIdentity = new Map<string, Array<Record<string, unknown>>>();
    for (const body of bodies) byIdentity.set(identity(body), [...(byIdentity.get(identity(body)) ?? []), body]);
    expect([...byIdentity.values()].map((group) => group.length).sort()).toEqual([1, 2]);
    const payments = [first.payment, second.payment].map((p) => ({ payment_txid: p.txid, payment_output_index: p.index, payment_amount: p.amount }));
    expect([...byIdentity.values()].map((group) => pick(group[0]!, ['payment_txid', 'payment_output_index', 'payment_amount']))).toEqual(expect.arrayContaining(payments));
    // The retry is the same delivery sent again: the same identity and the same timestamp.
    const retried = [...byIdentity.values()].find((group) => group.length === 2)!;
    expect(retried[1]!.timestamp).toBe(retried[0]!.timestamp);
  }, 60_000);

  it('a failed attempt is retried with identical bytes (same timestamp), and `deliveries` lists the status codes', async () => {
    let calls = 0;
    receiver.setResponder(() => ({ status: (calls += 1) === 1 ? 500 : 200 }));
    const invoice = await createInvoice('/retry', { amount: '1' });
    await pay(invoice.slug, '1');
    const [only] = await deliveriesOf(invoice.id);
    await expect(result(only!.delivery)).resolves.toEqual({ outcome: 'delivered', attempts: 2 });
    const received = forPath('/retry');
    expect(received).toHaveLength(2);
    expect(received[1]!.body.equals(received[0]!.body)).toBe(true);
    expectSigned(received[1]!, 'payment.paid');

    const listed = (await runAdminCommand(['deliveries', '--account', String(accountId)], deps())).json as { deliveries: Array<Record<string, unknown>> };
    const row = listed.deliveries.find((d) => d.id === only!.delivery.id)!;
    expect(row).toMatchObject({ event: 'payment.paid', status: 'delivered', attempt_count: 2, last_status_code: 200 });
    expect((row.attempts as Array<Record<string, unknown>>).map((a) => [a.attempt, a.outcome, a.status_code])).toEqual([
      [1, 'failed', 500],
      [2, 'delivered', 200],
    ]);
    expect(listed.deliveries.length).toBeGreaterThanOrEqual(5);
    const text = (await runAdminCommand(['deliveries'], deps())).text;
    expect(text).toContain(`${only!.delivery.id}  payment.paid`);
    expect(text).toContain('[500,200]');
  }, 60_000);

  it('"status at the moment of sending": a retry after a status change carries the new status; same id, event and timestamp, signed over the bytes sent', async () => {
    const invoice = await createInvoice('/fresh', { amount: '1' });
    let calls = 0;
    receiver.setResponder(async () => {
      calls += 1;
      if (calls > 1) return { status: 200 };
      // Between the first attempt and the retry, a further payment makes the paid invoice overpaid.
      await pay(invoice.slug, '0.25');
      return { status: 500 };
    });
    await pay(invoice.slug, '1');
    const [only] = await deliveriesOf(invoice.id);
    await expect(result(only!.delivery)).resolves.toEqual({ outcome: 'delivered', attempts: 2 });
    const [first, retry] = forPath('/fresh');
    const sent = [expectSigned(first!, 'payment.paid'), expectSigned(retry!, 'payment.paid')];
    expect(sent[0]).toMatchObject({ id: invoice.slug, status: 'paid', amount_paid: '1' });
    // The request's state as that attempt was sent (status, with the total behind it); the rest, timestamp included, as generated.
    expect(sent[1]).toEqual({ ...sent[0], status: 'overpaid', amount_paid: '1.25' });
    // The dashboard shows the bytes the receiver got last, so they verify against its signature.
    const [listed] = await deliveriesOf(invoice.id);
    expect(listed!.delivery.body).toBe(retry!.body.toString('utf8'));
  }, 60_000);

  it('`redeliver` queues a new delivery of the same event with the same bytes and sends it', async () => {
    receiver.setResponder(() => ({ status: 200 }));
    const before = forPath('/paid').length;
    const out = (await runAdminCommand(['redeliver', paidDelivery.id], deps())).json as Record<string, unknown>;
    await outbox.idle();
    expect(out).toEqual({ delivery_id: expect.any(String), workflow_id: `webhook-crypto-${paidDelivery.eventId}-2`, redelivery_of: paidDelivery.id, event: 'payment.paid' });
    const again = await h.orm.em.fork().findOneOrFail(WebhookDelivery, { id: out.delivery_id as string });
    await expect(result(again)).resolves.toEqual({ outcome: 'delivered', attempts: 1 });
    const received = forPath('/paid');
    expect(received).toHaveLength(before + 1);
    expect(received.at(-1)!.body.equals(paidBody)).toBe(true);
    expectSigned(received.at(-1)!, 'payment.paid');

    await expect(runAdminCommand(['redeliver', '00000000-0000-4000-8000-000000000000'], deps())).rejects.toThrow(/No webhook delivery/);
  }, 60_000);

  it('GraphQL: PaymentRequest.webhookDeliveries lists the request\'s deliveries with attempts', async () => {
    const [first] = await deliveriesOf(Number(paidDelivery.endpointId!.split(':')[1]));
    const requestId = Number(paidDelivery.endpointId!.split(':')[1]);
    const res = await gql(
      h.service.url,
      'query($id: ID!) { paymentRequest(id: $id) { slug webhookDeliveries { id event deliveryNumber redeliveryOf status attemptCount lastStatusCode body attempts { attemptNumber outcome statusCode } } } }',
      { authorization: `Bearer ${apiKey}` },
      { id: String(requestId) },
    );
    expect(res.body.errors).toBeUndefined();
    const deliveries = (res.body.data as { paymentRequest: { webhookDeliveries: Array<Record<string, unknown>> } }).paymentRequest.webhookDeliveries;
    expect(deliveries).toHaveLength(2);
    expect(deliveries[0]).toMatchObject({ id: first!.delivery.id, event: 'payment.paid', deliveryNumber: 1, redeliveryOf: null, status: 'delivered', attemptCount: 1, lastStatusCode: 200, body: paidBody.toString('utf8') });
    expect(deliveries[0]!.attempts).toEqual([{ attemptNumber: 1, outcome: 'delivered', statusCode: 200 }]);
    expect(deliveries[1]).toMatchObject({ deliveryNumber: 2, redeliveryOf: first!.delivery.id });
  }, 30_000);

  describe('the process entry (admin run.ts): Temporal client from TEMPORAL_ADDRESS', () => {
    async function runMain(temporalAddress: string, ...argv: string[]) {
      let stdout = '';
      const out = new Writable({ write: (chunk, _enc, done) => ((stdout += String(chunk)), done()) });
      const err = new Writable({ write: (_chunk, _enc, done) => done() });
      const code = await main(argv, { env: { DATABASE_URL: h.db.url, SECRETS_ENCRYPTION_KEY: KEY, TEMPORAL_ADDRESS: temporalAddress }, stdout: out, stderr: err });
      const lines = stdout.trim().split('\n');
      expect(lines).toHaveLength(1);
      return { code, body: JSON.parse(lines[0]!) as Record<string, unknown> };
    }

    it('starts the delivery workflow on the configured server after the commit', async () => {
      const address = process.env.TEMPORAL_ADDRESS;
      if (!address) throw new Error('TEMPORAL_ADDRESS is not set (a Temporal dev server)');
      const invoice = await createInvoice('/cli');
      const { code, body } = await runMain(address, 'pay', invoice.slug, '0.015', '--json');
      expect(code).toBe(0);
      expect(body).toMatchObject({ payment_request: { id: invoice.slug, status: 'paid' }, events: ['payment.paid'] });
      const [only] = await deliveriesOf(invoice.id);
      expect(await startOf(only!.delivery)).toMatchObject({ dispatchedAt: expect.any(Date) });
      const connection = await Connection.connect({ address });
      try {
        const handle = new Client({ connection }).workflow.getHandle(only!.delivery.workflowId);
        expect((await handle.describe()).type).toBe('webhookDeliveryWorkflow');
        await handle.terminate('test cleanup: no crypto worker for this database on the dev server');
      } finally {
        await connection.close();
      }
    }, 60_000);

    it('with Temporal unreachable the payment is still recorded and the sweeper starts the queued delivery', async () => {
      receiver.setResponder(() => ({ status: 200 }));
      const invoice = await createInvoice('/swept');
      const { code, body } = await runMain('127.0.0.1:1', 'pay', invoice.slug, '0.015', '--json');
      expect(code).toBe(0);
      expect(body).toMatchObject({ payment_request: { status: 'paid' }, events: ['payment.paid'] });
      const [only] = await deliveriesOf(invoice.id);
      const start = await startOf(only!.delivery);
      expect(start).toMatchObject({ dispatchedAt: null, attempts: 0 });
      expect(forPath('/swept')).toHaveLength(0);
      const swept = await outbox.sweep({ olderThanMs: 0 });
      expect(swept.dispatched).toContain(start.id);
      await expect(result(only!.delivery)).resolves.toEqual({ outcome: 'delivered', attempts: 1 });
      expectSigned(forPath('/swept')[0]!, 'payment.paid');
    }, 60_000);

    it('`redeliver` with Temporal unreachable queues the re-send and the sweeper sends it', async () => {
      receiver.setResponder(() => ({ status: 200 }));
      const invoice = await createInvoice('/resent');
      await pay(invoice.slug, '0.015');
      const [original] = await deliveriesOf(invoice.id);
      await expect(result(original!.delivery)).resolves.toEqual({ outcome: 'delivered', attempts: 1 });
      const { code, body } = await runMain('127.0.0.1:1', 'redeliver', original!.delivery.id, '--json');
      expect(code).toBe(0);
      expect(body).toMatchObject({ redelivery_of: original!.delivery.id, event: 'payment.paid' });
      const again = await h.orm.em.fork().findOneOrFail(WebhookDelivery, { id: body.delivery_id as string });
      const start = await startOf(again);
      expect(start).toMatchObject({ dispatchedAt: null, attempts: 0 });
      expect(forPath('/resent')).toHaveLength(1);
      expect((await outbox.sweep({ olderThanMs: 0 })).dispatched).toContain(start.id);
      await expect(result(again)).resolves.toEqual({ outcome: 'delivered', attempts: 1 });
      expect(forPath('/resent')).toHaveLength(2);
    }, 60_000);
  });
});
