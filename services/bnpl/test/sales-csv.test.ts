// The sales export's cell and record encoding on its own: RFC 4180 quoting and the formula neutralising rule, on the
// values a loan row holds (text, numbers, booleans, null). test/sales.test.ts checks the same over HTTP.
import { describe, expect, it } from '@jest/globals';
import { SALES_CSV_COLUMNS, csvCell, salesCsvChunks } from '../src/modules/sales/sales-csv.js';
import type { SaleExportRow } from '../src/modules/sales/sales.queries.js';

describe('csvCell', () => {
  it('quotes a field holding a comma, a quote, a CR or an LF, doubling its quotes; leaves the rest bare', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell('cr\ronly')).toBe('"cr\ronly"');
    expect(csvCell('')).toBe('');
  });

  it('neutralises text a spreadsheet would evaluate (ASCII and full-width =, +, -, @; tab; CR), never numbers', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20']) expect(csvCell(`${start}SUM(A1)`)).toBe(`'${start}SUM(A1)`);
    expect(csvCell('\rx')).toBe(`"'\rx"`);
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('+14155550123')).toBe("'+14155550123");
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(12_000)).toBe('12000');
  });

  it('writes booleans as true/false and null as an empty cell', () => {
    expect([csvCell(true), csvCell(false), csvCell(null)]).toEqual(['true', 'false', '']);
  });
});

describe('salesCsvChunks', () => {
  const row = (n: number): SaleExportRow => ({
    loan_id: `id-${n}`,
    loan_number: `LN-${n}`,
    status: 'approved',
    plan_id: 'pay_in_4',
    principal_cents: n,
    fee_cents: 0,
    total_cents: n,
    currency: 'USD',
    purchase_reference: `order, ${n}`,
    customer_email: 'jo@example.com',
    customer_phone: null,
    livemode: false,
    disbursed_at: null,
    created_at: '2026-11-25T00:00:00.000Z',
  });
  /** `count` rows in database batches of 150 (the CSV chunks are 200 records: the two do not line up). */
  async function* rows(count: number) {
    for (let start = 1; start <= count; start += 150) yield Array.from({ length: Math.min(150, count - start + 1) }, (_, i) => row(start + i));
  }
  const collect = async (count: number) => {
    const chunks: string[] = [];
    for await (const chunk of salesCsvChunks(rows(count))) chunks.push(chunk);
    return chunks;
  };

  it('no rows: the header alone, CRLF-terminated', async () => {
    expect(await collect(0)).toEqual([`${SALES_CSV_COLUMNS.join(',')}\r\n`]);
  });

  it('header then one CRLF record per row, in column order, 200 records per chunk', async () => {
    const chunks = await collect(401);
    expect(chunks).toHaveLength(3);
    const lines = chunks.join('').split('\r\n');
    expect(lines).toHaveLength(403);
    expect(lines[1]).toBe('id-1,LN-1,approved,pay_in_4,1,0,1,USD,"order, 1",jo@example.com,,false,,2026-11-25T00:00:00.000Z');
    expect(lines.at(-1)).toBe('');
  });
});
