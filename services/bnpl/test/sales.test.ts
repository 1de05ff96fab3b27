// Sales over HTTP on the real app and database: GET /api/v1/merchant/sales (filters, limit, keyset cursor), the sale
// detail, the CSV export, and GraphQL bnplMerchant.sales. Loans are booked through the loans module's own bookLoan.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '@tributary/kit/testing';
import pg from 'pg';
import { seedLoans } from '../src/bench/sales-seed.js';
import { Installment } from '../src/modules/loans/index.js';
import { SALES_CSV_COLUMNS } from '../src/modules/sales/index.js';
import { salesExportBatchSql } from '../src/modules/sales/sales.queries.js';
import { createApiKey, createFundedLoan, createLoan, createMerchant, gql, startHarness, type Harness, type TestMerchant } from './helpers.js';

let h: Harness;
let url: string;

beforeAll(async () => {
  h = await startHarness();
  url = h.service.url;
});
afterAll(async () => {
  await h?.close();
});

const SALES = '/api/v1/merchant/sales';
const dt = (shop: TestMerchant) => ({ authorization: `Bearer ${shop.token}` });

interface SaleJson {
  loan_id: string;
  status: string;
  purchase_reference: string;
  created_at: string;
  [key: string]: unknown;
}
interface SalesPageJson {
  data: SaleJson[];
  next_cursor: string | null;
}
interface ErrorJson {
  error: { code: string; message: string; fields?: Record<string, string[]> };
}

async function getJson<T>(path: string, shop: TestMerchant): Promise<{ status: number; body: T }> {
  const res = await fetch(`${url}${path}`, { headers: dt(shop) });
  return { status: res.status, body: (await res.json()) as T };
}

async function listSales(shop: TestMerchant, query = ''): Promise<SalesPageJson> {
  const { status, body } = await getJson<SalesPageJson>(`${SALES}${query}`, shop);
  expect(status).toBe(200);
  return body;
}

/** Every page from `query` on, following next_cursor. */
async function allPages(shop: TestMerchant, query: string): Promise<SaleJson[][]> {
  const pages: SaleJson[][] = [];
  let cursor: string | null = null;
  do {
    const page: SalesPageJson = await listSales(shop, `${query}${cursor ? `&page=${encodeURIComponent(cursor)}` : ''}`);
    pages.push(page.data);
    cursor = page.next_cursor;
  } while (cursor);
  return pages;
}

const at = (iso: string) => new Date(iso);

describe('GET /api/v1/merchant/sales', () => {
  let shop: TestMerchant;
  beforeAll(async () => {
    shop = await createMerchant(h, 'Sales List Shop');
    await createLoan(h, shop, { orderReference: 'feb-28-late', bookedAt: at('2026-02-28T23:59:59.999Z'), status: 'approved' });
    await createLoan(h, shop, { orderReference: 'mar-01-first', bookedAt: at('2026-03-01T00:00:00.000Z'), status: 'funded' });
    await createLoan(h, shop, { orderReference: 'mar-01-last', bookedAt: at('2026-03-01T23:59:59.999Z'), status: 'active' });
    await createLoan(h, shop, { orderReference: 'mar-02', bookedAt: at('2026-03-02T00:00:00.000Z'), status: 'paid_off' });
    await createLoan(h, shop, { orderReference: 'mar-03', bookedAt: at('2026-03-03T12:00:00.000Z'), status: 'cancelled' });
    const other = await createMerchant(h, 'Someone Else');
    await createLoan(h, other, { orderReference: 'not-mine', bookedAt: at('2026-03-01T12:00:00.000Z') });
  });

  it('answers {data, next_cursor}: the merchant\'s own sales, newest first, with the spec\'s loan keys', async () => {
    const page = await listSales(shop);
    expect(page.next_cursor).toBeNull();
    expect(page.data.map((s) => s.purchase_reference)).toEqual(['mar-03', 'mar-02', 'mar-01-last', 'mar-01-first', 'feb-28-late']);
    expect(Object.keys(page.data[0]!).sort()).toEqual(
      ['loan_id', 'loan_number', 'merchant_id', 'principal_cents', 'fee_cents', 'total_cents', 'currency', 'status', 'purchase_reference', 'disbursed_at', 'plan_id', 'livemode', 'created_at', 'updated_at'].sort(),
    );
    expect(page.data[0]).toMatchObject({ merchant_id: shop.merchant.id, principal_cents: 12_000, total_cents: 12_000, currency: 'USD', status: 'cancelled', disbursed_at: null, created_at: '2026-03-03T12:00:00.000Z' });
  });

  it('shows each sale as its detail does: the list reads plain rows, the detail the loan, with the same values', async () => {
    const seller = await createMerchant(h, 'Sales Detail Shop');
    await createLoan(h, seller, { orderReference: 'unfunded', bookedAt: at('2026-03-01T10:00:00.000Z') });
    const funded = await createFundedLoan(h, seller, { amountCents: 25_000, disbursedAt: at('2026-03-04T09:30:15.250Z') });
    const sales = (await listSales(seller)).data;
    expect(sales).toHaveLength(2);
    expect(sales.find((s) => s.loan_id === funded.id)).toMatchObject({ disbursed_at: '2026-03-04T09:30:15.250Z', status: 'funded', principal_cents: 25_000 });
    for (const sale of sales) {
      const { body: detail } = await getJson<SaleJson>(`${SALES}/${sale.loan_id}`, seller);
      expect(Object.fromEntries(Object.keys(sale).map((key) => [key, detail[key]]))).toEqual(sale);
    }
  });

  it('filters by status: one, or a comma-separated list (any of them)', async () => {
    expect((await listSales(shop, '?status=funded')).data.map((s) => s.purchase_reference)).toEqual(['mar-01-first']);
    expect((await listSales(shop, '?status=paid_off,approved,paid_off')).data.map((s) => s.purchase_reference)).toEqual(['mar-02', 'feb-28-late']);
    expect((await listSales(shop, '?status=defaulted')).data).toEqual([]);
  });

  it('filters from and to on created_at as UTC calendar days, both inclusive', async () => {
    expect((await listSales(shop, '?from=2026-03-01&to=2026-03-01')).data.map((s) => s.purchase_reference)).toEqual(['mar-01-last', 'mar-01-first']);
    expect((await listSales(shop, '?from=2026-03-02')).data.map((s) => s.purchase_reference)).toEqual(['mar-03', 'mar-02']);
    expect((await listSales(shop, '?to=2026-02-28')).data.map((s) => s.purchase_reference)).toEqual(['feb-28-late']);
    expect((await listSales(shop, '?from=2026-03-01&to=2026-03-02&status=active,paid_off')).data.map((s) => s.purchase_reference)).toEqual(['mar-02', 'mar-01-last']);
  });

  it('refuses an unknown status, a bad date, to before from, a bad limit or cursor with one 422 naming each parameter', async () => {
    const unknown = await getJson<ErrorJson>(`${SALES}?status=approved,shipped`, shop);
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.code).toBe('validation_failed');
    expect(unknown.body.error.fields).toEqual({ status: [expect.stringContaining('Unknown loan status "shipped"')] });
    for (const bad of ['status=', 'status=APPROVED', 'status=approved,']) {
      expect((await getJson<ErrorJson>(`${SALES}?${bad}`, shop)).body.error.fields).toHaveProperty('status');
    }
    const dates = await getJson<ErrorJson>(`${SALES}?from=2026-02-30&to=2026-3-1`, shop);
    expect(dates.status).toBe(422);
    expect(dates.body.error.fields).toEqual({ from: ['Must be a calendar date YYYY-MM-DD.'], to: ['Must be a calendar date YYYY-MM-DD.'] });
    const reversed = await getJson<ErrorJson>(`${SALES}?from=2026-03-02&to=2026-03-01`, shop);
    expect(reversed.body.error.fields).toEqual({ to: ['Must not be before from.'] });
    for (const limit of ['0', '101', 'ten', '1.5']) {
      const res = await getJson<ErrorJson>(`${SALES}?limit=${limit}`, shop);
      expect([res.status, res.body.error.fields]).toEqual([422, { limit: ['Must be an integer between 1 and 100.'] }]);
    }
    for (const page of ['not-a-cursor', Buffer.from('s1|2026-03-01T00:00:00.000000Z|nope').toString('base64url'), 'x'.repeat(500)]) {
      const res = await getJson<ErrorJson>(`${SALES}?page=${page}`, shop);
      expect([res.status, res.body.error.fields]).toEqual([422, { page: ['Must be a next_cursor returned by this list.'] }]);
    }
    const twice = await getJson<ErrorJson>(`${SALES}?status=approved&status=funded`, shop);
    expect(twice.status).toBe(422);
  });

  it('pages with limit and next_cursor, the filters applying on every page', async () => {
    const pages = await allPages(shop, '?limit=2');
    expect(pages.map((p) => p.map((s) => s.purchase_reference))).toEqual([['mar-03', 'mar-02'], ['mar-01-last', 'mar-01-first'], ['feb-28-late']]);
    const filtered = await allPages(shop, '?limit=1&status=approved,active');
    expect(filtered.map((p) => p.map((s) => s.purchase_reference))).toEqual([['mar-01-last'], ['feb-28-late']]);
  });

  it('shows 25 sales by default and at most 100', async () => {
    const many = await createMerchant(h, 'Busy Shop');
    for (let i = 0; i < 26; i += 1) await createLoan(h, many, { orderReference: `busy-${i}`, bookedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)) });
    const first = await listSales(many);
    expect(first.data).toHaveLength(25);
    expect(first.next_cursor).not.toBeNull();
    expect((await listSales(many, `?page=${first.next_cursor!}`)).data.map((s) => s.purchase_reference)).toEqual(['busy-0']);
    expect((await listSales(many, '?limit=100')).data).toHaveLength(26);
  });

  it('keeps its cursor stable while new sales arrive: no row duplicated or skipped', async () => {
    const busy = await createMerchant(h, 'Stable Cursor Shop');
    // Two sales share one instant: the cursor breaks the tie on loan_id.
    const booked = ['2026-04-01T10:00:00.000Z', '2026-04-01T11:00:00.000Z', '2026-04-01T11:00:00.000Z', '2026-04-01T12:00:00.000Z', '2026-04-01T13:00:00.000Z'];
    for (const [i, time] of booked.entries()) await createLoan(h, busy, { orderReference: `before-${i}`, bookedAt: at(time) });
    const before = (await listSales(busy, '?limit=100')).data.map((s) => s.loan_id);

    const seen: string[] = [];
    let page = await listSales(busy, '?limit=2');
    seen.push(...page.data.map((s) => s.loan_id));
    let arrivals = 0;
    while (page.next_cursor) {
      // New sales land between every two page reads: newer than everything, and one at the very same instant as
      // the page's last row (a concurrent checkout).
      await createLoan(h, busy, { orderReference: `new-${arrivals++}` });
      await createLoan(h, busy, { orderReference: `new-${arrivals++}`, bookedAt: at(page.data.at(-1)!.created_at) });
      page = await listSales(busy, `?limit=2&page=${page.next_cursor}`);
      seen.push(...page.data.map((s) => s.loan_id));
    }
    const startedWith = new Set(before);
    const oldSeen = seen.filter((id) => startedWith.has(id));
    expect(oldSeen).toEqual(before);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('needs the dashboard token', async () => {
    expect((await fetch(`${url}${SALES}`)).status).toBe(401);
    const keys = await createApiKey(h, shop, 'test');
    expect((await fetch(`${url}${SALES}`, { headers: keys.keys })).status).toBe(401);
  });
});

describe('GET /api/v1/merchant/sales/{loan_id}', () => {
  it('answers the full loan plus installments[] (with their status), plan and customer', async () => {
    const shop = await createMerchant(h, 'Sale Detail Shop');
    const bookedAt = new Date(Date.now() - 20 * 86_400_000);
    const loan = await createLoan(h, shop, { amountCents: 10_003, orderReference: 'detail-1', bookedAt, customerEmail: 'jo@example.com' });
    const em = h.orm.em.fork();
    const first = await em.findOneOrFail(Installment, { loan: loan.id, installmentNumber: 1 });
    first.paidAt = bookedAt;
    first.status = 'paid';
    (await em.findOneOrFail(Installment, { loan: loan.id, installmentNumber: 2 })).status = 'missed';
    await em.flush();

    const { status, body } = await getJson<Record<string, unknown> & { installments: Array<Record<string, unknown>> }>(`${SALES}/${loan.id}`, shop);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      loan_id: loan.id,
      loan_number: loan.loanNumber,
      merchant_id: shop.merchant.id,
      principal_cents: 10_003,
      fee_cents: 0,
      total_cents: 10_003,
      status: 'approved',
      purchase_reference: 'detail-1',
      plan_id: 'pay_in_4',
      plan: { plan: 'pay_in_4', name: 'Pay in 4', installment_count: 4, interval: 'day', interval_count: 14, fee_bps: 0 },
      customer: { email: 'jo@example.com', phone: '+14155550123' },
    });
    // The stored status, as the loan lifecycle keeps it.
    expect(body.installments.map((i) => [i.installment_number, i.amount_cents, i.status])).toEqual([
      [1, 2_503, 'paid'],
      [2, 2_500, 'missed'],
      [3, 2_500, 'pending'],
      [4, 2_500, 'pending'],
    ]);
    expect(Object.keys(body.installments[0]!).sort()).toEqual(['amount_cents', 'due_date', 'installment_id', 'installment_number', 'paid_at', 'status']);
    expect(body.installments[0]).toMatchObject({ installment_id: first.id, paid_at: bookedAt.toISOString(), due_date: bookedAt.toISOString().slice(0, 10) });
  });

  it("answers 404 for another merchant's loan, an unknown id and a malformed id", async () => {
    const shop = await createMerchant(h, 'Nosy Shop');
    const other = await createMerchant(h, 'Private Shop');
    const theirs = await createLoan(h, other);
    for (const id of [theirs.id, crypto.randomUUID(), 'not-a-uuid', '%F0%9F%98%80', "1' or '1'='1"]) {
      const res = await getJson<ErrorJson>(`${SALES}/${encodeURIComponent(decodeURIComponent(id))}`, shop);
      expect([id, res.status, res.body.error.code]).toEqual([id, 404, 'not_found']);
    }
  });
});

/** The CSV's records (RFC 4180: CRLF between records, quoted fields may hold CR, LF, commas and doubled quotes). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    record.push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') endField();
    else if (c === '\r' && text[i + 1] === '\n') {
      endField();
      records.push(record);
      record = [];
      i += 1;
    } else field += c;
  }
  expect(field).toBe('');
  expect(record).toEqual([]);
  return records;
}

describe('GET /api/v1/merchant/sales/export.csv', () => {
  it('streams every sale of the merchant as an RFC 4180 attachment with the documented columns', async () => {
    const shop = await createMerchant(h, 'Export Shop');
    const other = await createMerchant(h, 'Export Neighbour');
    await createLoan(h, other, { orderReference: 'not-mine' });
    const tricky = 'Order "7", shelf A,\r\nline 2';
    const plain = await createLoan(h, shop, { orderReference: 'plain-1', bookedAt: at('2026-05-01T08:00:00.000Z'), customerPhone: null });
    await createLoan(h, shop, { orderReference: tricky, bookedAt: at('2026-05-02T08:00:00.000Z'), status: 'funded' });
    await createLoan(h, shop, { orderReference: 'line feed\nalone', bookedAt: at('2026-04-30T08:00:00.000Z') });

    const res = await fetch(`${url}${SALES}/export.csv`, { headers: dt(shop) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="sales.csv"');
    const text = await res.text();
    expect(text.endsWith('\r\n')).toBe(true);
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual([...SALES_CSV_COLUMNS]);
    expect(rows.map((r) => r[8])).toEqual([tricky, 'plain-1', 'line feed\nalone']);
    expect(text).toContain('"Order ""7"", shelf A,\r\nline 2"');
    expect(text).toContain('"line feed\nalone"');
    const byColumn = Object.fromEntries(SALES_CSV_COLUMNS.map((column, i) => [column, rows[1]![i]]));
    expect(byColumn).toEqual({
      loan_id: plain.id,
      loan_number: plain.loanNumber,
      status: 'approved',
      plan_id: 'pay_in_4',
      principal_cents: '12000',
      fee_cents: '0',
      total_cents: '12000',
      currency: 'USD',
      purchase_reference: 'plain-1',
      customer_email: 'shopper@example.com',
      customer_phone: '',
      livemode: 'false',
      disbursed_at: '',
      created_at: '2026-05-01T08:00:00.000Z',
    });
    expect(rows[0]![2]).toBe('funded');
  });

  it('neutralises cells a spreadsheet would run as a formula', async () => {
    const shop = await createMerchant(h, 'Formula Shop');
    const references = ['=HYPERLINK("http://evil.example","x")', '+1+2', '-3+4', '@SUM(A1)', '\tTAB', '\rCR', '\uFF1DSUM(A1)', 'safe=1'];
    for (const [i, reference] of references.entries()) await createLoan(h, shop, { orderReference: reference, bookedAt: new Date(Date.UTC(2026, 5, 1, 0, 0, i)) });
    const text = await (await fetch(`${url}${SALES}/export.csv`, { headers: dt(shop) })).text();
    const [, ...rows] = parseCsv(text);
    expect(rows.map((r) => r[8]).reverse()).toEqual([`'=HYPERLINK("http://evil.example","x")`, "'+1+2", "'-3+4", "'@SUM(A1)", "'\tTAB", "'\rCR", "'\uFF1DSUM(A1)", 'safe=1']);
    // Numbers are never prefixed; a cell that needed neutralising and quoting is both.
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(rows.every((r) => /^\d+$/.test(r[4]!))).toBe(true);
    // E.164 phones start with +, so they are neutralised too.
    expect(rows.every((r) => r[10] === "'+14155550123")).toBe(true);
  });

  it('takes the list\'s filters (status, from, to) and refuses bad ones with a 422 before streaming', async () => {
    const shop = await createMerchant(h, 'Filtered Export Shop');
    await createLoan(h, shop, { orderReference: 'e-1', bookedAt: at('2026-07-01T12:00:00.000Z'), status: 'approved' });
    await createLoan(h, shop, { orderReference: 'e-2', bookedAt: at('2026-07-02T12:00:00.000Z'), status: 'defaulted' });
    await createLoan(h, shop, { orderReference: 'e-3', bookedAt: at('2026-07-03T12:00:00.000Z'), status: 'approved' });
    const csv = async (query: string) => parseCsv(await (await fetch(`${url}${SALES}/export.csv${query}`, { headers: dt(shop) })).text()).slice(1).map((r) => r[8]);
    expect(await csv('?status=approved')).toEqual(['e-3', 'e-1']);
    expect(await csv('?from=2026-07-02&to=2026-07-02')).toEqual(['e-2']);
    expect(await csv('?status=approved&from=2026-07-02')).toEqual(['e-3']);
    const empty = await fetch(`${url}${SALES}/export.csv?status=written_off`, { headers: dt(shop) });
    expect([empty.status, await empty.text()]).toEqual([200, `${SALES_CSV_COLUMNS.join(',')}\r\n`]);
    const bad = await fetch(`${url}${SALES}/export.csv?status=lost&from=yesterday`, { headers: dt(shop) });
    expect(bad.status).toBe(422);
    expect(bad.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(((await bad.json()) as ErrorJson).error.fields ?? {}).sort()).toEqual(['from', 'status']);
    expect((await fetch(`${url}${SALES}/export.csv`)).status).toBe(401);
  });
});

describe('export.csv streaming', () => {
  it('holds no database connection once the client goes away mid-download (more times than the pool has connections)', async () => {
    const shop = await createMerchant(h, 'Big Export Shop');
    const client = new pg.Client({ connectionString: h.db.url });
    await client.connect();
    try {
      await seedLoans(client, shop.merchant.id, 20_000);
      for (let i = 0; i < 12; i += 1) {
        const abort = new AbortController();
        // A download the client left gives the merchant's export slot back as soon as the server notices.
        const res = await waitFor(
          () => fetch(`${url}${SALES}/export.csv`, { headers: dt(shop), signal: abort.signal }),
          (response) => response.status !== 429 || (void response.body?.cancel(), false),
        );
        expect(res.status).toBe(200);
        const reader = res.body!.getReader();
        expect((await reader.read()).done).toBe(false);
        abort.abort();
        await reader.read().catch(() => undefined);
      }
      // No backend is left running the export's SELECT...
      const busy = await waitFor(
        async () => (await client.query<{ n: string }>(`select count(*) as n from pg_stat_activity where state <> 'idle' and query like '%"loan_id", "loan_number"%' and pid <> pg_backend_pid()`)).rows[0]!.n,
        (n) => n === '0',
      );
      expect(busy).toBe('0');
      // ...and the pool still serves requests (12 held connections would have exhausted its 10).
      expect((await listSales(shop, '?limit=1')).data).toHaveLength(1);
      const whole = await (await fetch(`${url}${SALES}/export.csv`, { headers: dt(shop) })).text();
      expect(parseCsv(whole)).toHaveLength(20_001);
    } finally {
      await client.end();
    }
  });
});

describe('export.csv batches', () => {
  it('read each batch through the (merchant_id, created_at) index, however deep into the export', async () => {
    const shop = await createMerchant(h, 'Deep Export Shop');
    const client = new pg.Client({ connectionString: h.db.url });
    await client.connect();
    try {
      await seedLoans(client, shop.merchant.id, 20_000, 1_000_001);
      const [middle] = (await client.query<{ id: string }>(`select "id" from "loans" where "merchant_id" = $1 order by "created_at" desc, "id" desc offset 10000 limit 1`, [shop.merchant.id])).rows;
      const { sql, params } = salesExportBatchSql(shop.merchant.id, { statuses: [] }, middle!.id);
      let n = 0;
      const plan = (await client.query<{ 'QUERY PLAN': string }>(`explain ${sql.replace(/\?/g, () => `$${++n}`)}`, params)).rows.map((row) => row['QUERY PLAN']).join('\n');
      expect(plan).toContain('Index Scan Backward using loans_merchant_id_created_at_index on loans');
      expect(plan).not.toMatch(/Seq Scan|Sort Key: \(to_char/);
    } finally {
      await client.end();
    }
  });
});

const SALES_QUERY = `query($status: [BnplLoanStatus!], $from: String, $to: String, $page: String, $limit: Int) {
  bnplMerchant { sales(status: $status, from: $from, to: $to, page: $page, limit: $limit) {
    nodes { id purchaseReference status createdAt installments { installmentNumber amountCents } } nextCursor } } }`;

interface GqlSalesPage {
  nodes: Array<{ id: string; purchaseReference: string; status: string; installments: unknown[] }>;
  nextCursor: string | null;
}

describe('bnplMerchant.sales (GraphQL)', () => {
  it('takes the same filters and cursor as REST', async () => {
    const shop = await createMerchant(h, 'GraphQL Sales Shop');
    await createLoan(h, shop, { orderReference: 'g-1', bookedAt: at('2026-08-01T12:00:00.000Z'), status: 'approved' });
    await createLoan(h, shop, { orderReference: 'g-2', bookedAt: at('2026-08-02T12:00:00.000Z'), status: 'in_arrears' });
    await createLoan(h, shop, { orderReference: 'g-3', bookedAt: at('2026-08-03T12:00:00.000Z'), status: 'approved' });
    const sales = async (variables: object): Promise<GqlSalesPage> => {
      const { body } = await gql(url, SALES_QUERY, dt(shop), variables);
      expect(body.errors).toBeUndefined();
      return (body.data!.bnplMerchant as { sales: GqlSalesPage }).sales;
    };
    const first = await sales({ limit: 2 });
    expect(first.nodes.map((n) => n.purchaseReference)).toEqual(['g-3', 'g-2']);
    expect(first.nodes[0]!.installments).toHaveLength(4);
    expect((await sales({ limit: 2, page: first.nextCursor })).nodes.map((n) => n.purchaseReference)).toEqual(['g-1']);
    // A REST cursor works in GraphQL and back: one cursor format.
    const rest = await listSales(shop, '?limit=1');
    expect((await sales({ limit: 1, page: rest.next_cursor })).nodes.map((n) => n.purchaseReference)).toEqual(['g-2']);
    expect((await sales({ status: ['APPROVED'] })).nodes.map((n) => n.purchaseReference)).toEqual(['g-3', 'g-1']);
    expect((await sales({ status: ['IN_ARREARS'], from: '2026-08-02', to: '2026-08-02' })).nodes.map((n) => [n.purchaseReference, n.status])).toEqual([['g-2', 'IN_ARREARS']]);
  });

  it('answers BAD_USER_INPUT for a bad date, cursor or limit, and FORBIDDEN to an API key pair', async () => {
    const shop = await createMerchant(h, 'GraphQL Refusals Shop');
    for (const variables of [{ from: '2026-13-01' }, { page: 'nope' }, { limit: 0 }]) {
      const { body } = await gql(url, SALES_QUERY, dt(shop), variables);
      expect(body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
    const unknownEnum = await gql(url, SALES_QUERY, dt(shop), { status: ['SHIPPED'] });
    expect(unknownEnum.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const keys = await createApiKey(h, shop, 'test');
    const forbidden = await gql(url, SALES_QUERY, keys.keys);
    expect(forbidden.body.errors?.[0]).toMatchObject({ message: 'Sales are managed with a dashboard token.', extensions: { code: 'FORBIDDEN' } });
  });
});
