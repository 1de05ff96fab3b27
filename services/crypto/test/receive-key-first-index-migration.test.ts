// Migration20261126000300AddReceiveKeyFirstIndex on data made before it: the migrations before it on a fresh database,
// keys and requests inserted through SQL (some keys replaced after requests were made with the old key), then the
// migration: key_first_index is where each current key's requests start, found by derivation.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createLogger } from '@tributary/kit';
import { createTestDatabase, type TestDatabase } from '@tributary/kit/testing';
import { deriveReceiveAddress, testMnemonicAccountKeys, type ReceiveAsset } from '../src/modules/receive-addresses/index.js';
import { openDatabase } from '../src/service.js';

const BEFORE = 'Migration20261125000200AddChainWatch';
const ASSET_IDS: Record<ReceiveAsset, number> = { BTC: 1, ETH: 2, LTC: 3, MATIC: 4 };
const CHAIN: Record<ReceiveAsset, string> = { BTC: 'bitcoin', ETH: 'ethereum', LTC: 'litecoin', MATIC: 'polygon' };
const OLD = testMnemonicAccountKeys(3_000_001);
const CURRENT = testMnemonicAccountKeys(3_000_002);

let db: TestDatabase;
let orm: MikroORM;
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => orm.em.getConnection().execute<T[]>(text, params, 'all');
let slugCounter = 0;

async function request(asset: ReceiveAsset, xpub: string, index: number): Promise<void> {
  await sql(
    `insert into "payment_requests" ("slug", "account_id", "asset_id", "type", "status", "title", "chain", "address", "network", "address_index", "amount_requested", "amount_paid", "created_at", "updated_at")
     values (?, 1, ?, 'invoice', 'pending', 'before', ?, ?, 'testnet', ?, 1, 0, now(), now())`,
    [`before${String((slugCounter += 1)).padStart(18, '0')}`, ASSET_IDS[asset], CHAIN[asset], deriveReceiveAddress('testnet', asset, xpub, index), index],
  );
}

beforeAll(async () => {
  db = await createTestDatabase('crypto_key_first_index');
  orm = await openDatabase(db.url, createLogger({ service: 'crypto', level: 'silent' }));
  await orm.migrator.up({ to: BEFORE });
  await sql(`insert into "accounts" ("name", "status", "created_at", "updated_at") values ('Shop', 'active', now(), now())`);
  const cursors: Record<ReceiveAsset, number> = { BTC: 8, ETH: 3, LTC: 3, MATIC: 0 };
  for (const asset of ['BTC', 'ETH', 'LTC', 'MATIC'] as const) {
    await sql(`insert into "account_xpubs" ("account_id", "asset", "xpub", "next_index", "created_at", "updated_at") values (1, ?, ?, ?, now(), now())`, [asset, CURRENT[asset], cursors[asset]]);
  }
  // BTC: 0..4 with the old key, then the key was replaced and 5..7 are the current key's.
  for (let i = 0; i < 5; i += 1) await request('BTC', OLD.BTC, i);
  for (let i = 5; i < 8; i += 1) await request('BTC', CURRENT.BTC, i);
  // ETH: every request is the current key's. LTC: replaced after 0..2, nothing made since. MATIC: no requests.
  for (let i = 0; i < 3; i += 1) await request('ETH', CURRENT.ETH, i);
  for (let i = 0; i < 3; i += 1) await request('LTC', OLD.LTC, i);
  await orm.migrator.up();
}, 60_000);
afterAll(async () => {
  await orm?.close(true);
  await db?.drop();
});

describe('Migration20261126000300AddReceiveKeyFirstIndex', () => {
  it("sets key_first_index where each current key's requests start", async () => {
    const rows = await sql<{ asset: string; key_first_index: string }>(`select "asset", "key_first_index" from "account_xpubs" order by "asset"`);
    expect(rows.map((row) => [row.asset, Number(row.key_first_index)])).toEqual([
      ['BTC', 5],
      ['ETH', 0],
      ['LTC', 3],
      ['MATIC', 0],
    ]);
  });

  it('creates the index the telemetry scans', async () => {
    const [index] = await sql<{ indexdef: string }>(`select "indexdef" from "pg_indexes" where "indexname" = 'payment_requests_account_id_asset_id_address_index_index'`);
    expect(index?.indexdef).toContain('(account_id, asset_id, address_index)');
  });
});
