// Sales as the dashboard reads them in GraphQL (bnplMerchant.loans): loans booked by a real checkout over HTTP.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEMO_PUBLIC_KEY, DEMO_SECRET_KEY, seedDemoData } from '../src/seed.js';
import { checkoutLoan, createMerchant, gql, startHarness, type Harness, type TestMerchant } from './helpers.js';

let h: Harness;
let url: string;

beforeAll(async () => {
  h = await startHarness();
  url = h.service.url;
});
afterAll(async () => {
  await h?.close();
});

async function checkout(shop: TestMerchant, amountCents: number, planId: string): Promise<void> {
  await checkoutLoan(h, shop, { amountCents, planId, orderReference: `ord-${amountCents}` });
}

const LOANS = `query($first: Int) { bnplMerchant { loans(first: $first) {
  id loanNumber status planId principalCents feeCents totalCents currency purchaseReference customerEmail customerPhone livemode disbursedAt createdAt
  installments { id installmentNumber amountCents dueDate paidAt } } } }`;

interface LoanView {
  loanNumber: string;
  status: string;
  totalCents: number;
  purchaseReference: string;
  installments: Array<{ installmentNumber: number; amountCents: number; dueDate: string; paidAt: string | null }>;
}

describe('bnplMerchant.loans', () => {
  it('lists the merchant\'s loans newest first with their installments, which add up to the total', async () => {
    const shop = await createMerchant(h, 'Loans Shop');
    await checkout(shop, 10_003, 'pay_in_4');
    await checkout(shop, 30_000, 'pay_in_4');
    const { body } = await gql(url, LOANS, { authorization: `Bearer ${shop.token}` });
    expect(body.errors).toBeUndefined();
    const loans = (body.data!.bnplMerchant as { loans: LoanView[] }).loans;
    expect(loans.map((l) => l.purchaseReference)).toEqual(['ord-30000', 'ord-10003']);
    const older = loans[1]!;
    expect(older).toMatchObject({ status: 'APPROVED', planId: 'pay_in_4', principalCents: 10_003, feeCents: 0, totalCents: 10_003, currency: 'USD', customerEmail: 'jo@example.com', customerPhone: null, livemode: false, disbursedAt: null });
    expect(older.loanNumber).toMatch(/^LN-[0-9A-Z]{5}-[0-9A-Z]{5}$/);
    expect(older.installments.map((i) => [i.installmentNumber, i.amountCents, i.paidAt])).toEqual([[1, 2_503, null], [2, 2_500, null], [3, 2_500, null], [4, 2_500, null]]);
    expect(older.installments.every((i) => /^\d{4}-\d\d-\d\d$/.test(i.dueDate))).toBe(true);

    const one = await gql(url, LOANS, { authorization: `Bearer ${shop.token}` }, { first: 1 });
    expect((one.body.data!.bnplMerchant as { loans: LoanView[] }).loans.map((l) => l.purchaseReference)).toEqual(['ord-30000']);
  });

  it('shows a merchant only its own loans, refuses an out-of-range first, and needs the dashboard token', async () => {
    const other = await createMerchant(h, 'Empty Shop');
    const empty = await gql(url, LOANS, { authorization: `Bearer ${other.token}` });
    expect(empty.body.data!.bnplMerchant).toEqual({ loans: [] });
    const bad = await gql(url, LOANS, { authorization: `Bearer ${other.token}` }, { first: 101 });
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    await seedDemoData(h.orm.em.fork());
    const keys = await gql(url, LOANS, { authorization: `Bearer ${DEMO_SECRET_KEY}`, 'x-merchant-public-key': DEMO_PUBLIC_KEY });
    expect(keys.body.errors?.[0]).toMatchObject({ message: 'Sales are managed with a dashboard token.', extensions: { code: 'FORBIDDEN' } });
  });
});
