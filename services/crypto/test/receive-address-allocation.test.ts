// Per-account receive keys and atomic index allocation, against real PostgreSQL with the checked-in migrations.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { MikroORM } from '@mikro-orm/postgresql';
import { BusinessRuleError, ValidationError, createOrm, migrateUp } from '@tributary/kit';
import { createTestDatabase, type TestDatabase } from '@tributary/kit/testing';
import { migrations } from '../src/migrations/index.js';
import { Account, AccountSchema } from '../src/modules/accounts/account.entity.js';
import { ApiKeySchema } from '../src/modules/accounts/api-key.entity.js';
import {
  AccountXpub,
  MAX_RECEIVE_INDEX,
  accountXpubs,
  allocateReceiveAddress,
  deriveReceiveAddress,
  receiveAddressEntities,
  saveAccountXpubs,
  testMnemonicAccountKeys,
  validateAccountXpubs,
} from '../src/modules/receive-addresses/index.js';

const entities = [AccountSchema, ApiKeySchema, ...receiveAddressEntities];
let db: TestDatabase;
let orm: MikroORM;
/** A second ORM with its own pool: allocations below race across two independent connection pools. */
let otherOrm: MikroORM;
const keys = testMnemonicAccountKeys();

beforeAll(async () => {
  db = await createTestDatabase('crypto_receive_addr');
  orm = (await createOrm({ clientUrl: db.url, entities, migrations, pool: { max: 10 } })) as MikroORM;
  await migrateUp(orm);
  otherOrm = (await createOrm({ clientUrl: db.url, entities, migrations, pool: { max: 10 } })) as MikroORM;
});
afterAll(async () => {
  await otherOrm?.close(true);
  await orm?.close(true);
  await db?.drop();
});

async function createAccount(name: string): Promise<number> {
  const em = orm.em.fork();
  const account = em.create(Account, { name });
  await em.flush();
  return account.id;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('account_xpubs table', () => {
  it('the checked-in migration creates exactly what the AccountXpub entity describes', async () => {
    const sql = await orm.schema.getUpdateSchemaSQL({ wrap: false });
    expect(sql.split('\n').filter((line) => line.includes('account_xpubs'))).toEqual([]);
    const columns = await orm.em.getConnection().execute<Array<{ column_name: string }>>(
      `select column_name from information_schema.columns where table_name = 'account_xpubs' order by ordinal_position`,
    );
    expect(columns.map((c) => c.column_name)).toEqual(['account_id', 'asset', 'xpub', 'next_index', 'created_at', 'updated_at']);
  });
});

describe('saving receive keys', () => {
  it('stores validated keys per asset and lists them', async () => {
    const accountId = await createAccount('keys');
    await saveAccountXpubs(orm.em.fork(), accountId, keys);
    expect(await accountXpubs(orm.em.fork(), accountId)).toEqual({ BTC: keys.BTC, ETH: keys.ETH, LTC: keys.LTC, MATIC: keys.MATIC });
    const rows = await orm.em.fork().find(AccountXpub, { account: accountId });
    expect(rows.map((row) => row.nextIndex)).toEqual([0, 0, 0, 0]);
  });

  it('refuses invalid keys and unknown assets with a ValidationError naming each field; nothing is stored', async () => {
    const accountId = await createAccount('bad keys');
    const attempt = saveAccountXpubs(orm.em.fork(), accountId, { BTC: keys.ETH, ETH: keys.ETH, DOGE: keys.BTC } as never);
    await expect(attempt).rejects.toBeInstanceOf(ValidationError);
    try {
      validateAccountXpubs({ BTC: keys.ETH, ETH: keys.ETH, DOGE: keys.BTC });
      throw new Error('expected a refusal');
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      const fields = (error as ValidationError).fields;
      expect(Object.keys(fields).sort()).toEqual(['xpub.BTC', 'xpub.DOGE']);
      expect(fields['xpub.BTC']![0]).toMatch(/^BTC: xpub keys are not accepted \(mainnet/);
      expect(fields['xpub.DOGE']).toEqual(['Unknown asset "DOGE"; expected one of BTC, ETH, LTC, MATIC.']);
      expect((error as ValidationError).message).toContain('BTC: xpub keys are not accepted');
    }
    expect(await accountXpubs(orm.em.fork(), accountId)).toEqual({});
  });

  it('replacing a key keeps the cursor, so an index is never handed out twice', async () => {
    const accountId = await createAccount('replace');
    await saveAccountXpubs(orm.em.fork(), accountId, { ETH: keys.ETH });
    await allocateReceiveAddress(orm.em.fork(), accountId, 'ETH');
    await allocateReceiveAddress(orm.em.fork(), accountId, 'ETH');
    await saveAccountXpubs(orm.em.fork(), accountId, { ETH: keys.ETH });
    expect((await allocateReceiveAddress(orm.em.fork(), accountId, 'ETH')).index).toBe(2);
  });
});

describe('allocateReceiveAddress', () => {
  it('hands out 0, 1, 2 … per (account, asset) with the derived address', async () => {
    const a = await createAccount('sequential a');
    const b = await createAccount('sequential b');
    await saveAccountXpubs(orm.em.fork(), a, keys);
    await saveAccountXpubs(orm.em.fork(), b, { BTC: keys.BTC });
    expect(await allocateReceiveAddress(orm.em.fork(), a, 'BTC')).toEqual({ asset: 'BTC', index: 0, address: 'tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl' });
    expect(await allocateReceiveAddress(orm.em.fork(), a, 'BTC')).toEqual({ asset: 'BTC', index: 1, address: 'tb1qd7spv5q28348xl4myc8zmh983w5jx32cjhkn97' });
    expect(await allocateReceiveAddress(orm.em.fork(), a, 'ETH')).toEqual({ asset: 'ETH', index: 0, address: '0x9858EfFD232B4033E47d90003D41EC34EcaEda94' });
    expect(await allocateReceiveAddress(orm.em.fork(), a, 'MATIC')).toEqual({ asset: 'MATIC', index: 0, address: '0x9858EfFD232B4033E47d90003D41EC34EcaEda94' });
    expect(await allocateReceiveAddress(orm.em.fork(), a, 'LTC')).toEqual({ asset: 'LTC', index: 0, address: deriveReceiveAddress('LTC', keys.LTC, 0) });
    expect((await allocateReceiveAddress(orm.em.fork(), b, 'BTC')).index).toBe(0);
    expect((await allocateReceiveAddress(orm.em.fork(), a, 'BTC')).index).toBe(2);
  });

  it('refuses an asset without a key for the account (422 business rule naming asset_id)', async () => {
    const accountId = await createAccount('btc only');
    await saveAccountXpubs(orm.em.fork(), accountId, { BTC: keys.BTC });
    const attempt = allocateReceiveAddress(orm.em.fork(), accountId, 'LTC');
    await expect(attempt).rejects.toBeInstanceOf(BusinessRuleError);
    await expect(allocateReceiveAddress(orm.em.fork(), accountId, 'LTC')).rejects.toMatchObject({ fields: { asset_id: ['LTC is not available for this account.'] } });
    await expect(allocateReceiveAddress(orm.em.fork(), 999_999, 'BTC')).rejects.toBeInstanceOf(BusinessRuleError);
  });

  it('inside the caller transaction: a rollback gives the index back, a commit consumes it', async () => {
    const accountId = await createAccount('transactional');
    await saveAccountXpubs(orm.em.fork(), accountId, { BTC: keys.BTC });
    await expect(
      orm.em.fork().transactional(async (tx) => {
        expect((await allocateReceiveAddress(tx, accountId, 'BTC')).index).toBe(0);
        throw new Error('payment request insert failed');
      }),
    ).rejects.toThrow('payment request insert failed');
    const committed = await orm.em.fork().transactional((tx) => allocateReceiveAddress(tx, accountId, 'BTC'));
    expect(committed.index).toBe(0);
    expect((await allocateReceiveAddress(orm.em.fork(), accountId, 'BTC')).index).toBe(1);
  });

  it('50 concurrent allocations on separate EntityManagers and connections never share an index', async () => {
    const accountId = await createAccount('concurrent');
    await saveAccountXpubs(orm.em.fork(), accountId, { ETH: keys.ETH, BTC: keys.BTC });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        // Each allocation in its own transaction on its own pooled connection, across two ORMs, holding the row
        // lock a little while (as a payment-request insert would) so the others really queue on it.
        (i % 2 === 0 ? orm : otherOrm).em.fork().transactional(async (tx) => {
          const allocated = await allocateReceiveAddress(tx, accountId, 'ETH');
          await sleep(i % 5);
          return allocated;
        }),
      ),
    );
    const indices = results.map((r) => r.index).sort((x, y) => x - y);
    expect(indices).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(new Set(results.map((r) => r.address)).size).toBe(50);
    for (const r of results) expect(r.address).toBe(deriveReceiveAddress('ETH', keys.ETH, r.index));
    const row = await orm.em.fork().findOneOrFail(AccountXpub, { account: accountId, asset: 'ETH' });
    expect(row.nextIndex).toBe(50);
    // The other asset's cursor is untouched.
    expect((await allocateReceiveAddress(orm.em.fork(), accountId, 'BTC')).index).toBe(0);
  });

  it('50 concurrent autocommit allocations (no caller transaction) are distinct too', async () => {
    const accountId = await createAccount('concurrent autocommit');
    await saveAccountXpubs(orm.em.fork(), accountId, { LTC: keys.LTC });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => allocateReceiveAddress((i % 2 === 0 ? orm : otherOrm).em.fork(), accountId, 'LTC')),
    );
    expect(results.map((r) => r.index).sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('stops at the last non-hardened index instead of deriving a hardened one', async () => {
    const accountId = await createAccount('exhausted');
    await saveAccountXpubs(orm.em.fork(), accountId, { BTC: keys.BTC });
    await orm.em.fork().nativeUpdate(AccountXpub, { account: accountId, asset: 'BTC' }, { nextIndex: MAX_RECEIVE_INDEX });
    expect((await allocateReceiveAddress(orm.em.fork(), accountId, 'BTC')).index).toBe(MAX_RECEIVE_INDEX);
    await expect(allocateReceiveAddress(orm.em.fork(), accountId, 'BTC')).rejects.toBeInstanceOf(BusinessRuleError);
  });

  it('deleting the account deletes its keys', async () => {
    const accountId = await createAccount('deleted');
    await saveAccountXpubs(orm.em.fork(), accountId, keys);
    await orm.em.fork().nativeDelete(Account, { id: accountId });
    expect(await orm.em.fork().count(AccountXpub, { account: accountId })).toBe(0);
  });
});
