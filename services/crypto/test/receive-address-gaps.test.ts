// Gap-limit telemetry against the real app: requests created and payments recorded through the domain services, the
// one SQL statement over a real database, CryptoAccount.receiveAddressGaps over HTTP and `admin crypto account gaps`
// through the real entry point.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { AccountAdminService } from '../src/modules/accounts/index.js';
import { PaymentRequestService, type PaymentRequest } from '../src/modules/payment-requests/index.js';
import { PaymentService } from '../src/modules/payments/index.js';
import { AccountXpub, ReceiveAddressGapService, XPUB_VERSIONS, testMnemonicAccountKeys, type ReceiveAddressGap } from '../src/modules/receive-addresses/index.js';
import { RECEIVE_ADDRESS_GAPS_SQL } from '../src/modules/receive-addresses/receive-address-gap.service.js';
import { secretBoxFor } from '@tributary/kit';
import { withVersion } from './extended-keys.js';
import { createMerchant, createRequest, gql, startHarness, type Harness, type TestMerchant } from './helpers.js';

const dispatcher = fileURLToPath(new URL('../../stack/bin/admin.mjs', import.meta.url));
let h: Harness;
let shop: TestMerchant;
let other: TestMerchant;
const btc: PaymentRequest[] = [];
let txCounter = 0;

const gaps = (accountId: number) => new ReceiveAddressGapService(h.orm.em.fork(), 20).forAccount(accountId);
const btcGap = async (accountId: number): Promise<ReceiveAddressGap> => (await gaps(accountId)).find((gap) => gap.asset === 'BTC')!;
const requests = () => new PaymentRequestService(h.orm.em.fork());
const invoice = (accountId: number) => createRequest(requests(), { accountId, apiKeyId: 0 }, { asset_id: 1, title: 'order', amount: '0.01' });
/** A payment recorded as a watcher would, below the threshold (not counted): the address is used all the same. */
const pay = (request: PaymentRequest, confirmations = 0) =>
  new PaymentService(h.orm.em.fork()).record({ chain: 'bitcoin', txid: `gap${(txCounter += 1).toString(16).padStart(8, '0')}`, index: 0, amount: '0.01', confirmations, to: { slug: request.slug } });

function admin(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [dispatcher, 'crypto', ...args], { env: { ...process.env, DATABASE_URL: h.db.url, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

const GAPS_QUERY = '{ cryptoAccount { id receiveAddressGaps { asset highestDerivedIndex highestUsedIndex unusedRun gapLimit exceedsGapLimit warning } } }';
const gapsOverHttp = (key: string) => gql(h.service.url, GAPS_QUERY, { authorization: `Bearer ${key}` });

beforeAll(async () => {
  h = await startHarness();
  shop = await createMerchant(h, 'Gap Shop');
  other = await createMerchant(h, 'Other Shop');
  for (let i = 0; i < 25; i += 1) btc.push(await invoice(shop.accountId));
}, 60_000);
afterAll(async () => {
  await h?.close();
});

describe('gap-limit telemetry', () => {
  it('25 BTC requests, index 3 paid (not counted yet): highest 24, 21 unused in a row, a warning; other assets empty', async () => {
    expect(btc.map((request) => request.addressIndex)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(await btcGap(shop.accountId)).toMatchObject({ highestDerivedIndex: 24, highestUsedIndex: null, unusedRun: 25, exceedsGapLimit: true });
    const recorded = await pay(btc[3]!);
    expect(recorded.payment.counted).toBe(false);
    const all = await gaps(shop.accountId);
    expect(all.map((gap) => gap.asset)).toEqual(['BTC', 'ETH', 'LTC', 'MATIC']);
    expect(all[0]).toMatchObject({ asset: 'BTC', highestDerivedIndex: 24, highestUsedIndex: 3, unusedRun: 21, gapLimit: 20, exceedsGapLimit: true });
    expect(all[0]!.warning).toContain('wallet.change_gap_limit(21)');
    for (const gap of all.slice(1)) expect(gap).toEqual({ asset: gap.asset, highestDerivedIndex: null, highestUsedIndex: null, unusedRun: 0, gapLimit: 20, exceedsGapLimit: false, warning: null });
  });

  it('GraphQL: the caller sees its own account only; the other merchant sees its own empty keys', async () => {
    const own = await gapsOverHttp(shop.key);
    expect(own.status).toBe(200);
    const account = (own.body.data as { cryptoAccount: { id: string; receiveAddressGaps: Array<Record<string, unknown>> } }).cryptoAccount;
    expect(account.id).toBe(String(shop.accountId));
    expect(account.receiveAddressGaps[0]).toMatchObject({ asset: 'BTC', highestDerivedIndex: 24, highestUsedIndex: 3, unusedRun: 21, gapLimit: 20, exceedsGapLimit: true });
    expect(account.receiveAddressGaps[0]!['warning']).toContain('Sparrow');
    const theirs = await gapsOverHttp(other.key);
    const otherAccount = (theirs.body.data as { cryptoAccount: { id: string; receiveAddressGaps: Array<Record<string, unknown>> } }).cryptoAccount;
    expect(otherAccount.id).toBe(String(other.accountId));
    expect(otherAccount.receiveAddressGaps.map((gap) => [gap['asset'], gap['highestDerivedIndex'], gap['unusedRun'], gap['warning']])).toEqual([
      ['BTC', null, 0, null],
      ['ETH', null, 0, null],
      ['LTC', null, 0, null],
      ['MATIC', null, 0, null],
    ]);
    const anonymous = await gql(h.service.url, GAPS_QUERY);
    expect(anonymous.body.errors?.[0]?.extensions?.['code']).toBe('UNAUTHENTICATED');
  });

  it('admin account gaps: a WARNING line past the limit, none with CRYPTO_GAP_LIMIT above the run; --json; exit 2 and 1', async () => {
    const text = await admin({}, 'account', 'gaps', String(shop.accountId));
    expect(text.code).toBe(0);
    const lines = text.stdout.trim().split('\n');
    expect(lines[0]).toBe('BTC   highest index 24, last paid 3, unused run 21 (gap limit 20)');
    expect(lines[1]).toMatch(/^WARNING BTC: 21 receive addresses in a row are unused/);
    expect(lines.slice(2)).toEqual(['ETH   highest index -, last paid -, unused run 0 (gap limit 20)', 'LTC   highest index -, last paid -, unused run 0 (gap limit 20)', 'MATIC highest index -, last paid -, unused run 0 (gap limit 20)']);
    const json = await admin({ CRYPTO_GAP_LIMIT: '21' }, 'account', 'gaps', String(shop.accountId), '--json');
    expect(json.code).toBe(0);
    const body = JSON.parse(json.stdout) as { account_id: number; gaps: Array<Record<string, unknown>> };
    expect(body.account_id).toBe(shop.accountId);
    expect(body.gaps[0]).toEqual({ asset: 'BTC', highest_derived_index: 24, highest_used_index: 3, unused_run: 21, gap_limit: 21, exceeds_gap_limit: false, warning: null });
    expect(await admin({}, 'account', 'gaps', 'abc')).toMatchObject({ code: 2 });
    expect(await admin({ CRYPTO_GAP_LIMIT: '0' }, 'account', 'gaps', String(shop.accountId))).toMatchObject({ code: 1 });
    const unknown = await admin({}, 'account', 'gaps', '999999', '--json');
    expect({ code: unknown.code, body: JSON.parse(unknown.stdout) as unknown }).toEqual({ code: 1, body: { error: { code: 'not_found', message: 'No account with id 999999.' } } });
  }, 60_000);

  it('paying the newest address (index 24) ends the run', async () => {
    await pay(btc[24]!, 2);
    expect(await btcGap(shop.accountId)).toMatchObject({ highestDerivedIndex: 24, highestUsedIndex: 24, unusedRun: 0, exceedsGapLimit: false, warning: null });
  });

  it('a replaced key counts only its own requests; the same key again under another prefix keeps its start', async () => {
    const merchant = await createMerchant(h, 'Key Changer');
    const old: PaymentRequest[] = [];
    for (let i = 0; i < 5; i += 1) old.push(await invoice(merchant.accountId));
    await pay(old[4]!);
    expect(await btcGap(merchant.accountId)).toMatchObject({ highestDerivedIndex: 4, highestUsedIndex: 4, unusedRun: 0 });
    const replacement = testMnemonicAccountKeys(1_500_000_000).BTC;
    const operator = new AccountAdminService(h.orm.em.fork(), secretBoxFor({ NODE_ENV: 'test' }));
    await operator.setReceiveKeys(merchant.accountId, { BTC: replacement });
    // Nothing handed out with the new key yet: the old key's paid index 4 is not the new wallet's.
    expect(await btcGap(merchant.accountId)).toMatchObject({ highestDerivedIndex: null, highestUsedIndex: null, unusedRun: 0 });
    const fresh = [await invoice(merchant.accountId), await invoice(merchant.accountId), await invoice(merchant.accountId)];
    expect(fresh.map((request) => request.addressIndex)).toEqual([5, 6, 7]);
    // The new wallet starts looking at index 0: 0..7 are all unused on its key.
    expect(await btcGap(merchant.accountId)).toMatchObject({ highestDerivedIndex: 7, highestUsedIndex: null, unusedRun: 8 });
    await operator.setReceiveKeys(merchant.accountId, { BTC: withVersion(replacement, XPUB_VERSIONS.tpub) });
    expect((await h.orm.em.fork().findOneOrFail(AccountXpub, { account: merchant.accountId, asset: 'BTC' })).keyFirstIndex).toBe(5);
    await pay(fresh[1]!);
    expect(await btcGap(merchant.accountId)).toMatchObject({ highestDerivedIndex: 7, highestUsedIndex: 6, unusedRun: 1 });
  });

  it('thousands of requests: the right answer from backwards index scans', async () => {
    const merchant = await createMerchant(h, 'Busy Shop');
    const connection = h.orm.em.getConnection();
    // 3000 BTC requests at indices 0..2999 (addresses need not be real here: the query reads indices and payments).
    await connection.execute(
      `insert into "payment_requests" ("slug", "account_id", "asset_id", "type", "status", "title", "chain", "address", "network", "address_index", "amount_requested", "amount_paid", "created_at", "updated_at")
       select 'busy' || lpad(i::text, 20, '0'), ?, 1, 'invoice', 'pending', 'bulk', 'bitcoin', 'busy-address-' || i, 'testnet', i, 1, 0, now(), now() from generate_series(0, 2999) i`,
      [merchant.accountId],
    );
    await connection.execute(`update "account_xpubs" set "next_index" = 3000 where "account_id" = ? and "asset" = 'BTC'`, [merchant.accountId]);
    await connection.execute(
      `insert into "payments" ("payment_request_id", "chain", "txid", "output_index", "address", "amount", "confirmations", "counted", "created_at", "updated_at")
       select "id", 'bitcoin', 'busy-tx', 0, "address", 1, 0, false, now(), now() from "payment_requests" where "account_id" = ? and "address_index" = 2950`,
      [merchant.accountId],
    );
    await connection.execute('analyze "payment_requests"');
    await connection.execute('analyze "payments"');
    expect(await btcGap(merchant.accountId)).toMatchObject({ highestDerivedIndex: 2999, highestUsedIndex: 2950, unusedRun: 49, exceedsGapLimit: true });
    const [plan] = await connection.execute<Array<{ 'QUERY PLAN': unknown }>>(`explain (format json) ${RECEIVE_ADDRESS_GAPS_SQL}`, [merchant.accountId]);
    const planText = JSON.stringify(plan!['QUERY PLAN']);
    expect(planText).toContain('payment_requests_account_id_asset_id_address_index_index');
    expect(planText).toContain('"Scan Direction":"Backward"');
  });
});
