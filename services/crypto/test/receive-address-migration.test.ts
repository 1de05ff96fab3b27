// Migration20260701000800UniqueReceiveAddresses on data made before it: the migrations before it on a fresh database,
// accounts sharing keys and requests sharing addresses inserted through SQL (as the old code left them), then the
// migration, then what it promised: one owner per key, own test keys for the accounts that shared the test mnemonic's,
// legacy shared addresses flagged and kept, the unique index, distinct new addresses, payments attributed or refused.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import type { MikroORM } from '@mikro-orm/postgresql';
import { ConflictError, createLogger } from '@tributary/kit';
import { createTestDatabase, type TestDatabase } from '@tributary/kit/testing';
import { PaymentRequestService } from '../src/modules/payment-requests/index.js';
import { PaymentService } from '../src/modules/payments/index.js';
import { deriveReceiveAddress, parseAccountXpub, receiveKeyIdentity, testMnemonicAccountKeys, type ReceiveAsset } from '../src/modules/receive-addresses/index.js';
import { openDatabase } from '../src/service.js';
import { createRequest } from './helpers.js';

const BEFORE = 'Migration20260701000700AddPaymentRequestReferenceIndex';
const ASSET_IDS: Record<ReceiveAsset, number> = { BTC: 1, ETH: 2, LTC: 3, MATIC: 4 };
/** The key every account without --xpub used to get. */
const SHARED = testMnemonicAccountKeys(0);
/** A real (non test-mnemonic) ETH account key: BIP32 test vector 1, m/0H/1/2H. */
const REAL = 'xpub6D4BDPcP2GT577Vvch3R8wDkScZWzQzMMUm3PWbmWvVJrZwQY4VUNgqFJPMM3No2dFDFGTsxxpG5uJh7n7epu4trkrX7x7DogT5Uv6fcLW5';
/** A key of D's own (any key nobody else holds). */
const D_OWN_BTC = testMnemonicAccountKeys(1_000_000).BTC;
const identity = (asset: ReceiveAsset, xpub: string) => receiveKeyIdentity(parseAccountXpub('testnet', asset, xpub));

let db: TestDatabase;
let orm: MikroORM;
const logLines: string[] = [];
// Account ids 1..6 on the fresh database, in insertion order.
const A = 1, B = 2, C = 3, D = 4, E = 5, F = 6;

const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => orm.em.getConnection().execute<T[]>(text, params, 'all');
let slugCounter = 0;
/** A request as the old code stored it: the address of `index` on the account's key of the time. */
async function legacyRequest(accountId: number, asset: ReceiveAsset, xpub: string, index: number): Promise<string> {
  const slug = `legacy${String((slugCounter += 1)).padStart(18, '0')}`;
  await sql(
    `insert into "payment_requests" ("slug", "account_id", "asset_id", "type", "status", "title", "address", "address_index", "amount_requested", "amount_paid", "expires_at", "created_at", "updated_at")
     values (?, ?, ?, 'invoice', 'pending', 'legacy', ?, ?, 1, 0, now() + interval '1 day', now(), now())`,
    [slug, accountId, ASSET_IDS[asset], deriveReceiveAddress('testnet', asset, xpub, index), index],
  );
  return slug;
}
const keyRow = (accountId: number, asset: ReceiveAsset, xpub: string, nextIndex: number) =>
  sql(`insert into "account_xpubs" ("account_id", "asset", "xpub", "next_index", "created_at", "updated_at") values (?, ?, ?, ?, now(), now())`, [accountId, asset, xpub, nextIndex]);

const slugs: Record<string, string> = {};

beforeAll(async () => {
  db = await createTestDatabase('crypto_addr_migration');
  const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => void (logLines.push(chunk.toString()), done()) });
  orm = await openDatabase(db.url, createLogger({ service: 'crypto', level: 'warn', destination: sink }));
  await orm.migrator.up({ to: BEFORE });

  for (const name of ['A demo', 'B test keys', 'C real key', 'D shares C real key', 'E real key for MATIC', 'F test key, own key taken']) {
    await sql(`insert into "accounts" ("name", "status", "created_at", "updated_at") values (?, 'active', now(), now())`, [name]);
  }
  // A and B: the test mnemonic's account-0 keys for every asset (what `account create` used to give).
  for (const [accountId, cursors] of [[A, { BTC: 3, ETH: 2, LTC: 1, MATIC: 0 }], [B, { BTC: 5, ETH: 1, LTC: 0, MATIC: 0 }]] as const) {
    for (const asset of ['BTC', 'ETH', 'LTC', 'MATIC'] as const) await keyRow(accountId, asset, SHARED[asset], cursors[asset]);
  }
  // C and D share a real ETH key; E uses it for MATIC. D also has its own BTC key, and holds F's own test key for LTC.
  await keyRow(C, 'ETH', REAL, 2);
  await keyRow(D, 'ETH', REAL, 4);
  await keyRow(D, 'BTC', D_OWN_BTC, 0);
  await keyRow(D, 'LTC', testMnemonicAccountKeys(F).BTC, 0);
  await keyRow(E, 'MATIC', REAL, 1);
  await keyRow(F, 'BTC', SHARED.BTC, 1);

  for (let i = 0; i < 3; i += 1) slugs[`A-BTC-${i}`] = await legacyRequest(A, 'BTC', SHARED.BTC, i);
  for (let i = 0; i < 5; i += 1) slugs[`B-BTC-${i}`] = await legacyRequest(B, 'BTC', SHARED.BTC, i);
  for (let i = 0; i < 2; i += 1) slugs[`A-ETH-${i}`] = await legacyRequest(A, 'ETH', SHARED.ETH, i);
  slugs['B-ETH-0'] = await legacyRequest(B, 'ETH', SHARED.ETH, 0);
  slugs['A-LTC-0'] = await legacyRequest(A, 'LTC', SHARED.LTC, 0);
  for (let i = 0; i < 2; i += 1) slugs[`C-ETH-${i}`] = await legacyRequest(C, 'ETH', REAL, i);
  for (let i = 0; i < 4; i += 1) slugs[`D-ETH-${i}`] = await legacyRequest(D, 'ETH', REAL, i);
  // Same string as C-ETH-0 and D-ETH-0, but on polygon: a different chain, so no conflict.
  slugs['E-MATIC-0'] = await legacyRequest(E, 'MATIC', REAL, 0);
  slugs['F-BTC-0'] = await legacyRequest(F, 'BTC', SHARED.BTC, 0);

  await orm.migrator.up();
}, 120_000);
afterAll(async () => {
  await orm?.close(true);
  await db?.drop();
});

const keysOf = async (accountId: number) =>
  Object.fromEntries(
    (await sql<{ asset: string; xpub: string; next_index: string }>(`select "asset", "xpub", "next_index" from "account_xpubs" where "account_id" = ? order by "asset"`, [accountId])).map((row) => [
      row.asset,
      { xpub: row.xpub, next: Number(row.next_index) },
    ]),
  );
const flagged = async () =>
  (await sql<{ slug: string }>(`select "slug" from "payment_requests" where "address_conflict" order by "id"`)).map((row) => Object.keys(slugs).find((name) => slugs[name] === row.slug));

describe('Migration20260701000800UniqueReceiveAddresses on shared keys and addresses', () => {
  it('gives every key one owner: the lowest account id that held it', async () => {
    const owners = Object.fromEntries((await sql<{ key_identity: string; account_id: number }>(`select "key_identity", "account_id" from "receive_key_owners"`)).map((row) => [row.key_identity, row.account_id]));
    expect(owners).toEqual({
      [identity('BTC', SHARED.BTC)]: A,
      [identity('ETH', SHARED.ETH)]: A,
      [identity('BTC', testMnemonicAccountKeys(B).BTC)]: B,
      [identity('ETH', testMnemonicAccountKeys(B).ETH)]: B,
      [identity('ETH', REAL)]: C,
      [identity('BTC', D_OWN_BTC)]: D,
      [identity('BTC', testMnemonicAccountKeys(F).BTC)]: D,
    });
  });

  it('the keeper continues after every index the other holders used; the others get their own test keys or lose a real key', async () => {
    expect(await keysOf(A)).toEqual({
      BTC: { xpub: SHARED.BTC, next: 5 },
      ETH: { xpub: SHARED.ETH, next: 2 },
      LTC: { xpub: SHARED.LTC, next: 1 },
      MATIC: { xpub: SHARED.MATIC, next: 0 },
    });
    const own = testMnemonicAccountKeys(B);
    expect(await keysOf(B)).toEqual({ BTC: { xpub: own.BTC, next: 0 }, ETH: { xpub: own.ETH, next: 0 }, LTC: { xpub: own.LTC, next: 0 }, MATIC: { xpub: own.MATIC, next: 0 } });
    expect(await keysOf(C)).toEqual({ ETH: { xpub: REAL, next: 4 } });
    expect(await keysOf(D)).toEqual({ BTC: { xpub: D_OWN_BTC, next: 0 }, LTC: { xpub: testMnemonicAccountKeys(F).BTC, next: 0 } });
    expect(await keysOf(E)).toEqual({});
    // F's own test key is D's (registered by hand), so F is left without a BTC key rather than sharing one.
    expect(await keysOf(F)).toEqual({});
    const warnings = logLines.map((line) => JSON.parse(line) as { orm?: string; msg: string }).filter((entry) => entry.orm === 'migrator').map((entry) => entry.msg);
    expect(warnings).toEqual([
      `Account ${D} shared its ETH receive key with account ${C}, which keeps it; the key was removed from account ${D}, so it cannot be paid in ETH until its own key is registered.`,
      `Account ${E} shared its MATIC receive key with account ${C}, which keeps it; the key was removed from account ${E}, so it cannot be paid in MATIC until its own key is registered.`,
      `Account ${F} shared its BTC receive key with account ${A}, which keeps it; the key was removed from account ${F}, so it cannot be paid in BTC until its own key is registered.`,
    ]);
  });

  it('fills chain and flags exactly the requests whose (chain, address) another request has; they keep their address', async () => {
    expect(await flagged()).toEqual(['A-BTC-0', 'A-BTC-1', 'A-BTC-2', 'B-BTC-0', 'B-BTC-1', 'B-BTC-2', 'A-ETH-0', 'B-ETH-0', 'F-BTC-0', 'C-ETH-0', 'C-ETH-1', 'D-ETH-0', 'D-ETH-1'].sort((x, y) => Object.keys(slugs).indexOf(x) - Object.keys(slugs).indexOf(y)));
    const rows = await sql<{ slug: string; chain: string; address: string }>(`select "slug", "chain", "address" from "payment_requests"`);
    expect(rows).toHaveLength(Object.keys(slugs).length);
    const bySlug = new Map(rows.map((row) => [row.slug, row]));
    expect(bySlug.get(slugs['B-BTC-4']!)).toMatchObject({ chain: 'bitcoin', address: deriveReceiveAddress('testnet', 'BTC', SHARED.BTC, 4) });
    expect(bySlug.get(slugs['E-MATIC-0']!)).toMatchObject({ chain: 'polygon', address: bySlug.get(slugs['C-ETH-0']!)!.address });
    expect(bySlug.get(slugs['A-LTC-0']!)!.chain).toBe('litecoin');
  });

  it('the unique index on (chain, address) refuses a second unflagged request', async () => {
    const [index] = await sql<{ indexdef: string }>(`select "indexdef" from "pg_indexes" where "indexname" = 'payment_requests_chain_address_unique'`);
    expect(index!.indexdef).toMatch(/CREATE UNIQUE INDEX .* \(chain, address\) WHERE \(address_conflict = false\)/);
    const duplicate = sql(
      `insert into "payment_requests" ("slug", "account_id", "asset_id", "type", "status", "title", "chain", "network", "address", "address_index", "amount_paid", "created_at", "updated_at")
       values ('duplicate000000000000000', ?, 1, 'donation', 'pending', 'dup', 'bitcoin', 'testnet', ?, 4, 0, now(), now())`,
      [A, deriveReceiveAddress('testnet', 'BTC', SHARED.BTC, 4)],
    );
    await expect(duplicate).rejects.toMatchObject({ code: '23505' });
  });

  it('new requests of every account get addresses no other request has on their chain', async () => {
    const service = new PaymentRequestService(orm.em.fork());
    const made = [];
    for (const accountId of [A, B, C, D]) {
      for (const asset of ['BTC', 'ETH', 'LTC', 'MATIC'] as const) {
        for (let i = 0; i < 3; i += 1) {
          try {
            made.push(await createRequest(service, { accountId, apiKeyId: 0 }, { asset_id: ASSET_IDS[asset], title: `new ${asset}`, type: 'donation' }));
          } catch (error) {
            // An asset the account has no key for (D: ETH, MATIC; C: all but ETH) is a 422, as before.
            expect((error as { fields?: unknown }).fields).toEqual({ asset_id: [`${asset} is not available for this account.`] });
          }
        }
      }
    }
    expect(made).toHaveLength(3 * (4 + 4 + 1 + 2));
    expect(made.find((r) => r.account.id === A && r.chain === 'bitcoin')!.addressIndex).toBe(5);
    const all = await sql<{ chain: string; address: string; address_conflict: boolean }>(`select "chain", "address", "address_conflict" from "payment_requests"`);
    const unflagged = all.filter((row) => !row.address_conflict).map((row) => `${row.chain}:${row.address}`);
    expect(new Set(unflagged).size).toBe(unflagged.length);
    const legacyShared = new Set(all.filter((row) => row.address_conflict).map((row) => `${row.chain}:${row.address}`));
    for (const request of made) expect(legacyShared.has(`${request.chain}:${request.address}`)).toBe(false);
  });

  it('a payment to a legacy shared address is refused by address and recorded by slug; others are attributed by address', async () => {
    const payments = new PaymentService(orm.em.fork());
    const shared = deriveReceiveAddress('testnet', 'BTC', SHARED.BTC, 0);
    await expect(payments.record({ chain: 'bitcoin', txid: 'legacyshared1', index: 0, amount: '0.5', confirmations: 10, to: { address: shared } })).rejects.toBeInstanceOf(ConflictError);
    const bySlug = await payments.record({ chain: 'bitcoin', txid: 'legacyshared1', index: 0, amount: '0.5', confirmations: 10, to: { slug: slugs['B-BTC-0']! } });
    expect({ credited: bySlug.credited, slug: bySlug.paymentRequest.slug, status: bySlug.paymentRequest.status }).toEqual({ credited: true, slug: slugs['B-BTC-0'], status: 'partial' });

    const onlyB = await payments.record({ chain: 'bitcoin', txid: 'legacyown1', index: 0, amount: '1', confirmations: 10, to: { address: deriveReceiveAddress('testnet', 'BTC', SHARED.BTC, 4) } });
    expect(onlyB.paymentRequest.slug).toBe(slugs['B-BTC-4']);
    // The address C and D share on ethereum is E's alone on polygon.
    const polygon = await payments.record({ chain: 'polygon', txid: 'legacypolygon1', index: 0, amount: '1', confirmations: 100, to: { address: deriveReceiveAddress('testnet', 'MATIC', REAL, 0) } });
    expect(polygon.paymentRequest.slug).toBe(slugs['E-MATIC-0']);
    await expect(payments.record({ chain: 'ethereum', txid: 'legacyeth1', index: 0, amount: '1', confirmations: 100, to: { address: deriveReceiveAddress('testnet', 'ETH', REAL, 0) } })).rejects.toBeInstanceOf(ConflictError);
  });

  it('down() removes what up() added, and up() runs again', async () => {
    // Every migration after it is reverted first (in reverse order), then it.
    await orm.migrator.down({ to: BEFORE });
    const columns = await sql<{ column_name: string }>(`select "column_name" from "information_schema"."columns" where "table_name" = 'payment_requests' and "column_name" in ('chain', 'address_conflict')`);
    expect(columns).toEqual([]);
    expect(await sql(`select 1 from "information_schema"."tables" where "table_name" = 'receive_key_owners'`)).toEqual([]);
    await orm.migrator.up();
    expect(await flagged()).toHaveLength(13);
  });
});
