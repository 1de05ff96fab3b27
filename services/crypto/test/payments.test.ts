// The one payment entry point against real PostgreSQL: idempotency on (chain, txid, index), confirmation
// thresholds, the status engine's effects on the stored request, and the events it hands to the sink.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ConflictError, NotFoundError, ValidationError } from '@tributary/kit';
import { PaymentRequest, PaymentRequestService, type PaymentDomainEvent, type PaymentEventSink } from '../src/modules/payment-requests/index.js';
import { Payment, PaymentService } from '../src/modules/payments/index.js';
import { createMerchant, createRequest, startHarness, type Harness } from './helpers.js';

let h: Harness;
let accountId: number;
const emitted: PaymentDomainEvent[] = [];
const sink: PaymentEventSink = { emit: async (_tx, _request, events) => void emitted.push(...events) };
const principal = () => ({ accountId, apiKeyId: 0 });
const payments = () => new PaymentService(h.orm.em.fork(), { events: sink });
const requests = () => new PaymentRequestService(h.orm.em.fork(), { events: sink });
let txCounter = 0;
const txid = () => `tx${(txCounter += 1).toString(16).padStart(8, '0')}`;

beforeAll(async () => {
  h = await startHarness();
  accountId = (await createMerchant(h, 'Payee')).accountId;
});
afterAll(async () => {
  await h?.close();
});

async function invoice(amount: string, assetId = 1): Promise<PaymentRequest> {
  return createRequest(requests(), principal(), { asset_id: assetId, title: 'inv', amount });
}
const reload = (id: number) => h.orm.em.fork().findOneOrFail(PaymentRequest, { id });
const eventsFor = (id: number) => emitted.filter((e) => e.paymentRequestId === id).map((e) => e.event);

describe('PaymentService.record', () => {
  it('credits a confirmed payment once: the same (chain, txid, index) again changes nothing', async () => {
    const request = await invoice('1');
    const tx = txid();
    const first = await payments().record({ chain: 'bitcoin', txid: tx, index: 0, amount: '0.4', confirmations: 2, to: { slug: request.slug } });
    expect({ credited: first.credited, duplicate: first.duplicate, status: first.paymentRequest.status }).toEqual({ credited: true, duplicate: false, status: 'partial' });
    const again = await payments().record({ chain: 'bitcoin', txid: tx, index: 0, amount: '0.4', confirmations: 5, to: { slug: request.slug } });
    expect({ credited: again.credited, duplicate: again.duplicate, events: again.events }).toEqual({ credited: false, duplicate: true, events: [] });
    const stored = await reload(request.id);
    expect({ status: stored.status, paid: stored.amountPaid.toString() }).toEqual({ status: 'partial', paid: '0.4' });
    expect(await h.orm.em.fork().count(Payment, { paymentRequest: request.id })).toBe(1);
  });

  it('concurrent reports of the same payment credit it exactly once', async () => {
    const request = await invoice('1');
    const tx = txid();
    const results = await Promise.all(Array.from({ length: 8 }, () => payments().record({ chain: 'bitcoin', txid: tx, index: 1, amount: '1', confirmations: 3, to: { address: request.address } })));
    expect(results.filter((r) => r.credited)).toHaveLength(1);
    const stored = await reload(request.id);
    expect({ status: stored.status, paid: stored.amountPaid.toString() }).toEqual({ status: 'paid', paid: '1' });
    expect(eventsFor(request.id)).toEqual(['payment.paid']);
  });

  it('another output index of the same transaction is another payment', async () => {
    const request = await invoice('1');
    const tx = txid();
    await payments().record({ chain: 'bitcoin', txid: tx, index: 0, amount: '0.5', confirmations: 2, to: { slug: request.slug } });
    await payments().record({ chain: 'bitcoin', txid: tx, index: 1, amount: '0.5', confirmations: 2, to: { slug: request.slug } });
    expect((await reload(request.id)).status).toBe('paid');
  });

  it('below the asset threshold: recorded, not counted; counted when reported again with enough confirmations', async () => {
    const request = await invoice('2', 2); // ETH: 12 confirmations
    const tx = txid();
    const early = await payments().record({ chain: 'ethereum', txid: tx, index: 3, amount: '2', confirmations: 11, to: { slug: request.slug } });
    expect({ credited: early.credited, events: early.events }).toEqual({ credited: false, events: [] });
    expect((await reload(request.id)).amountPaid.toString()).toBe('0');
    const row = await h.orm.em.fork().findOneOrFail(Payment, { txid: tx });
    expect({ counted: row.counted, confirmations: row.confirmations }).toEqual({ counted: false, confirmations: 11 });
    const later = await payments().record({ chain: 'ethereum', txid: tx, index: 3, amount: '2', confirmations: 12, to: { slug: request.slug } });
    expect({ credited: later.credited, duplicate: later.duplicate, events: later.events.map((e) => e.event) }).toEqual({ credited: true, duplicate: true, events: ['payment.paid'] });
    const stored = await reload(request.id);
    expect({ status: stored.status, paid: stored.amountPaid.toString(), paidAt: stored.paidAt instanceof Date }).toEqual({ status: 'paid', paid: '2', paidAt: true });
  });

  it('overpaid: paid_at set, payment.paid sent, excess = paid - requested', async () => {
    const request = await invoice('1');
    const result = await payments().record({ chain: 'bitcoin', txid: txid(), index: 0, amount: '1.25', confirmations: 2, to: { slug: request.slug } });
    expect(result.events.map((e) => e.event)).toEqual(['payment.paid']);
    const stored = await reload(request.id);
    expect({ status: stored.status, outstanding: stored.amountOutstanding?.toString() }).toEqual({ status: 'overpaid', outstanding: '0' });
  });

  it('a payment after the deadline: payment.expired then payment.late, status expired, paid_at null', async () => {
    const request = await invoice('1');
    await h.orm.em.fork().nativeUpdate(PaymentRequest, { id: request.id }, { expiresAt: new Date(Date.now() - 1000) });
    const result = await payments().record({ chain: 'bitcoin', txid: txid(), index: 0, amount: '1', confirmations: 2, to: { slug: request.slug } });
    expect(result.events.map((e) => e.event)).toEqual(['payment.expired', 'payment.late']);
    const stored = await reload(request.id);
    expect({ status: stored.status, paid: stored.amountPaid.toString(), paidAt: stored.paidAt ?? null }).toEqual({ status: 'expired', paid: '1', paidAt: null });
  });

  it('expireIfDue stores expired once and reports payment.expired once', async () => {
    const request = await invoice('1');
    expect((await requests().expireIfDue(request.id)).events).toEqual([]);
    await h.orm.em.fork().nativeUpdate(PaymentRequest, { id: request.id }, { expiresAt: new Date(Date.now() - 1000) });
    expect((await requests().expireIfDue(request.id)).events.map((e) => e.event)).toEqual(['payment.expired']);
    expect((await requests().expireIfDue(request.id)).events).toEqual([]);
    expect((await reload(request.id)).status).toBe('expired');
  });

  it('a donation becomes paid on its first payment and stays paid', async () => {
    const donation = await createRequest(requests(), principal(), { asset_id: 4, title: 'tips', type: 'donation' });
    const first = await payments().record({ chain: 'polygon', txid: txid(), index: 0, amount: '5', confirmations: 30, to: { slug: donation.slug } });
    const second = await payments().record({ chain: 'polygon', txid: txid(), index: 0, amount: '2.5', confirmations: 30, to: { slug: donation.slug } });
    expect([first.events.map((e) => e.event), second.events]).toEqual([['payment.paid'], []]);
    const stored = await reload(donation.id);
    expect({ status: stored.status, paid: stored.amountPaid.toString(), outstanding: stored.amountOutstanding }).toEqual({ status: 'paid', paid: '7.5', outstanding: null });
  });

  it('refuses bad input, unknown targets, a different amount for a recorded payment, and the wrong chain', async () => {
    const request = await invoice('1');
    await expect(payments().record({ chain: 'bitcoin', txid: 'x y', index: -1, amount: '0', confirmations: -1, to: { slug: request.slug } })).rejects.toBeInstanceOf(ValidationError);
    await expect(payments().record({ chain: 'bitcoin', txid: txid(), index: 0, amount: '0.000000001', confirmations: 2, to: { slug: request.slug } })).rejects.toBeInstanceOf(ValidationError);
    await expect(payments().record({ chain: 'bitcoin', txid: txid(), index: 0, amount: '1', confirmations: 2, to: { slug: 'A'.repeat(24) } })).rejects.toBeInstanceOf(NotFoundError);
    const tx = txid();
    await payments().record({ chain: 'bitcoin', txid: tx, index: 0, amount: '0.1', confirmations: 2, to: { slug: request.slug } });
    await expect(payments().record({ chain: 'bitcoin', txid: tx, index: 0, amount: '0.2', confirmations: 2, to: { slug: request.slug } })).rejects.toBeInstanceOf(ConflictError);
    await expect(payments().record({ chain: 'litecoin', txid: txid(), index: 0, amount: '0.1', confirmations: 6, to: { slug: request.slug } })).rejects.toMatchObject({ kind: 'business_rule' });
    expect((await reload(request.id)).amountPaid.toString()).toBe('0.1');
  });
});
