// Idempotent creates: POST /api/merchant/v1/payment-requests with an Idempotency-Key (and the GraphQL mutation's
// idempotencyKey) never makes a second request for a retry, over real HTTP against real PostgreSQL.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import { PaymentRequest } from '../src/modules/payment-requests/index.js';
import { PaymentService } from '../src/modules/payments/index.js';
import { AccountXpub } from '../src/modules/receive-addresses/index.js';
import { IDEMPOTENT_RETRY_BURST } from '@tributary/kit/testing';
import { createMerchant, gql, startHarness, type Harness, type TestMerchant } from './helpers.js';

const PATH = '/api/merchant/v1/payment-requests';
const REUSED = 'This Idempotency-Key was already used for a request with a different body.';
const INVALID_KEY = 'Must be 1 to 255 visible ASCII characters without spaces.';

let h: Harness;
let merchant: TestMerchant;

const newMerchant = () => createMerchant(h, `Idempotency ${randomUUID()}`);

beforeAll(async () => {
  h = await startHarness();
});
beforeEach(async () => {
  merchant = await newMerchant();
});
afterAll(async () => {
  await h?.close();
});

interface Created {
  status: number;
  body: Record<string, unknown>;
  location: string | null;
  replayed: string | null;
}

async function post(body: unknown, idempotencyKey?: string, key = merchant.key): Promise<Created> {
  const res = await fetch(`${h.service.url}${PATH}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      authorization: `Bearer ${key}`,
      ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, location: res.headers.get('location'), replayed: res.headers.get('idempotent-replayed') };
}

const rowsOf = (accountId: number) => h.orm.em.fork().count(PaymentRequest, { account: accountId });
const nextBtcIndex = async (accountId: number) => (await h.orm.em.fork().findOneOrFail(AccountXpub, { account: accountId, asset: 'BTC' })).nextIndex;
const invoice = { asset_id: 1, title: 'Order 42', amount: '0.015', reference: 'ord-42' };

describe('Idempotency-Key on create', () => {
  it('a retry with the same key and body answers 201 with the same request, marked replayed; one row, one address', async () => {
    const first = await post(invoice, 'order-42');
    expect(first.status).toBe(201);
    expect(first.replayed).toBeNull();
    const indexAfterFirst = await nextBtcIndex(merchant.accountId);

    const retry = await post(invoice, 'order-42');
    expect(retry).toEqual({ status: 201, body: first.body, location: first.location, replayed: 'true' });
    expect(await rowsOf(merchant.accountId)).toBe(1);
    expect(await nextBtcIndex(merchant.accountId)).toBe(indexAfterFirst);
  });

  it('without a key every POST is a new request (the spec behaviour)', async () => {
    const a = await post(invoice);
    const b = await post(invoice);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.location).not.toBe(b.location);
    expect(await rowsOf(merchant.accountId)).toBe(2);
  });

  it('compares the normalised body: "0.50" equals "0.5", an omitted default equals the default, key order is irrelevant', async () => {
    const first = await post({ asset_id: 1, title: 'T', amount: '0.5' }, 'norm');
    const retry = await post({ ttl_minutes: 60, amount: '0.50', type: 'invoice', title: 'T', asset_id: 1, description: null }, 'norm');
    expect(retry.status).toBe(201);
    expect(retry.replayed).toBe('true');
    expect(retry.location).toBe(first.location);
  });

  it('the same key with a different body is a 422 on the key, and nothing is created', async () => {
    await post(invoice, 'order-43');
    for (const changed of [{ ...invoice, amount: '0.016' }, { ...invoice, reference: 'ord-43' }, { ...invoice, ttl_minutes: 61 }, { asset_id: 1, title: 'Order 42', type: 'donation' }]) {
      const res = await post(changed, 'order-43');
      expect(res).toEqual({ status: 422, body: { message: REUSED, errors: { 'Idempotency-Key': [REUSED] } }, location: null, replayed: null });
    }
    expect(await rowsOf(merchant.accountId)).toBe(1);
  });

  it('keys are per account: another merchant may use the same key', async () => {
    const mine = await post(invoice, 'shared-key');
    const theirs = await newMerchant();
    const other = await post(invoice, 'shared-key', theirs.key);
    expect(other.status).toBe(201);
    expect(other.replayed).toBeNull();
    expect(other.location).not.toBe(mine.location);
  });

  it('concurrent retries with one key create exactly one request and all answer with it', async () => {
    const answers = await Promise.all(Array.from({ length: IDEMPOTENT_RETRY_BURST }, () => post(invoice, 'burst')));
    expect(answers.map((a) => a.status)).toEqual(Array(IDEMPOTENT_RETRY_BURST).fill(201));
    expect(new Set(answers.map((a) => a.location)).size).toBe(1);
    expect(answers.filter((a) => a.replayed === null)).toHaveLength(1);
    expect(await rowsOf(merchant.accountId)).toBe(1);
  });

  it('a malformed key is a 422 on Idempotency-Key, reported with the body problems; nothing is created', async () => {
    for (const bad of ['has space', 'x'.repeat(256), 'ünïcode']) {
      const res = await post({ asset_id: 1, title: 'T' }, bad);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: 'The given data was invalid.', errors: { 'Idempotency-Key': [INVALID_KEY], amount: ['An invoice requires an amount.'] } });
    }
    expect((await post(invoice, 'x'.repeat(255))).status).toBe(201);
    expect(await rowsOf(merchant.accountId)).toBe(1);
  });

  it('a refused create is not remembered: the corrected body under the same key creates the request', async () => {
    expect((await post({ asset_id: 1, title: 'T', amount: 0.5 }, 'fix-me')).status).toBe(422);
    const fixed = await post({ asset_id: 1, title: 'T', amount: '0.5' }, 'fix-me');
    expect(fixed.status).toBe(201);
    expect(fixed.replayed).toBeNull();
  });

  it('a replay shows the request as it is now (here: paid), not a copy of the first answer', async () => {
    const first = await post(invoice, 'then-paid');
    const slug = (first.body.payment_request as { id: string }).id;
    await new PaymentService(h.orm.em.fork()).record({ chain: 'bitcoin', txid: randomBytes(32).toString('hex'), index: 0, amount: '0.015', confirmations: 2, to: { slug } });
    const retry = await post(invoice, 'then-paid');
    expect(retry.status).toBe(201);
    expect(retry.replayed).toBe('true');
    expect(retry.body.payment_request).toMatchObject({ id: slug, status: 'paid', amount_paid: '0.015', amount_outstanding: '0' });
  });
});

describe('idempotencyKey on the GraphQL mutation', () => {
  const mutation = `mutation($input: CreatePaymentRequestInput!, $key: String) {
    createPaymentRequest(input: $input, idempotencyKey: $key) { id slug amountRequested }
  }`;
  const auth = () => ({ authorization: `Bearer ${merchant.key}` });

  it('returns the same request for a retry, shares its keys with REST, and refuses a different input', async () => {
    const input = { assetId: 1, title: 'Order 42', amount: '0.015', reference: 'ord-42' };
    const first = await gql(h.service.url, mutation, auth(), { input, key: 'gql-42' });
    const again = await gql(h.service.url, mutation, auth(), { input, key: 'gql-42' });
    expect(first.body.errors).toBeUndefined();
    expect(again.body).toEqual(first.body);

    // The same key on REST with the same body finds the request the mutation made.
    const rest = await post(invoice, 'gql-42');
    expect(rest.status).toBe(201);
    expect(rest.replayed).toBe('true');
    expect(rest.location).toBe(`${PATH}/${(first.body.data as { createPaymentRequest: { id: string } }).createPaymentRequest.id}`);

    const changed = await gql(h.service.url, mutation, auth(), { input: { ...input, amount: '1' }, key: 'gql-42' });
    expect(changed.body).toEqual({
      data: { createPaymentRequest: null },
      errors: [expect.objectContaining({ message: REUSED, extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', fields: { 'Idempotency-Key': [REUSED] } }) })],
    });
    expect(await rowsOf(merchant.accountId)).toBe(1);
  });
});
