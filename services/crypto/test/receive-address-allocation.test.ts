// Per-account receive keys (each key owned by one account) and atomic index allocation, against real PostgreSQL with
// the checked-in migrations.
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
  ReceiveKeyOwner,
  XPUB_VERSIONS,
  accountXpubs,
  allocateReceiveAddress,
  deriveReceiveAddress,
  keyOwnedByAnotherAccountMessage,
  receiveAddressEntities,
  saveAccountXpubs,
  testMnemonicAccountKeys,
  validateAccountXpubs,
} from '../src/modules/receive-addresses/index.js';
import { withVersion } from './extended-keys.js';

const entities = [AccountSchema, ApiKeySchema, ...receiveAddressEntities];
let db: TestDatabase;
let orm: MikroORM;
/** A second ORM with its own pool: allocations below race across two independent connection pools. */
let otherOrm: MikroORM;
/** The test mnemonic's account 0' (the published vector): one account of this database registers it, like an operator would. */
const keys = testMnemonicAccountKeys(0);
/** An account's own keys: the test mnemonic's account n' for account id n (what `account create` gives). */
const ownKeys = (accountId: number) => testMnemonicAccountKeys(accountId);

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
    expect(columns.map((c) => c.column_name)).toEqual(['account_id', 'asset', 'xpub', 'next_index', 'created_at', 'updated_at', 'key_first_index']);
  });

  it('receive_key_owners is what the ReceiveKeyOwner entity describes', async () => {
    const sql = await orm.schema.getUpdateSchemaSQL({ wrap: false });
    expect(sql.split('\n').filter((line) => line.includes('receive_key_owners'))).toEqual([]);
  });
});

describe('saving receive keys', () => {
  it('stores validated keys per asset and lists them', async () => {
    const accountId = await createAccount('keys');
    const mine = ownKeys(accountId);
    await saveAccountXpubs(orm.em.fork(), 'testnet', accountId, mine);
    expect(await accountXpubs(orm.em.fork(), accountId)).toEqual({ BTC: mine.BTC, ETH: mine.ETH, LTC: mine.LTC, MATIC: mine.MATIC });
    const rows = await orm.em.fork().find(AccountXpub, { account: accountId });
    expect(rows.map((row) => row.nextIndex)).toEqual([0, 0, 0, 0]);
  });

  it('refuses invalid keys and unknown assets with a ValidationError naming each field; nothing is stored', async () => {
    const accountId = await createAccount('bad keys');
    const attempt = saveAccountXpubs(orm.em.fork(), 'testnet', accountId, { BTC: keys.ETH, ETH: keys.ETH, DOGE: keys.BTC } as never);
    await expect(attempt).rejects.toBeInstanceOf(ValidationError);
    try {
      validateAccountXpubs('testnet', { BTC: keys.ETH, ETH: keys.ETH, DOGE: keys.BTC });
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
    await saveAccountXpubs(orm.em.fork(), 'testnet', accountId, { ETH: ownKeys(accountId).ETH });
    await allocateReceiveAddress(orm.em.fork(), 'testnet', accountId, 'ETH');
    await allocateReceiveAddress(orm.em.fork(), 'testnet', accountId, 'ETH');
    await saveAccountXpubs(orm.em.fork(), 'testnet', accountId, { ETH: ownKeys(accountId).ETH });
    expect((await allocateReceiveAddress(orm.em.fork(), 'testnet', accountId, 'ETH')).index).toBe(2);
  });
});

describe('allocateReceiveAddress', () => {
  it('hands out 0, 1, 2 … per (account, asset) with the derived address', async () => {
    const a = await createAccount('sequential a');
    const b = await createAccount('sequential b');
    await saveAccountXpubs(orm.em.fork(), 'testnet', a, keys);
    await saveAccountXpubs(orm.em.fork(), 'testnet', b, { BTC: ownKeys(b).BTC });
    expect(await allocateReceiveAddress(orm.em.fork(), 'testnet', a, 'BTC')).toEqual({ asset: 'BTC', index: 0, address: 'tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl' });
    expect(await allocateReceiveAddress(orm.em.fork(), 'testnet', a, 'BTC')).toEqual({ asset: 'BTC', index: 1, address: 'tb1qd7spv5q28348xl4myc8zmh983w5jx32cjhkn97' });
    expect(await allocateReceiveAddress(orm.em.fork(), 'testnet', a, 'ETH')).toEqual({ asset: 'ETH', index: 0, address: '0x9858EfFD232B4033E47d90003D41EC34EcaEda94' });
    expect(await allocateReceiveAddress(orm.em.fork(), 'testnet', a, 'MATIC')).toEqual({ asset: 'MATIC', index: 0, address: '0x9858EfFD232B4033E47d90003D41EC34EcaEda94' });
    expect(await allocateReceiveAddress(orm.em.fork(), 'testnet', a, 'LTC')).toEqual({ asset: 'LTC', index: 0, address: deriveReceiveAddress('testnet', 'LTC', keys.LTC, 0) });
    expect((await allocateReceiveAddress(orm.em.fork(), 'testnet', b, 'BTC')).index).toBe(0);
    expect((await allocateReceiveAddress(orm.em.fork(), 'testnet', a, 'BTC')).index).toBe(2);
  });

  it('refuses an asset without a key for the account (422 business rule naming asset_id)', async () => {
    const accountId = await createAccount('btc only');
    await saveAccountXpubs(orm.em.fork(), 'testnet', accountId, { BTC: ownKeys(accountId).BTC });
    const attempt = allocateReceiveAddress(orm.em.fork(), 'testnet', accountId, 'LTC');
    await expect(attempt).rejects.toBeInstanceOf(BusinessRuleError);
    await expect(allocateReceiveAddress(orm.em.fork(), 'testnet', accountId, 'LTC')).rejects.toMatchObject({ fields: { asset_id: ['LTC is not available for this account.'] } });
    await expect(allocateReceiveAddress(orm.em.fork(), 'testnet', 999_999, 'BTC')).rejects.toBeInstanceOf(BusinessRuleError);
  });

  it('inside the caller transaction: a rollback gives the index back, a commit consumes it', async () => {
    const accountId = await createAccount('transactional');
    await saveAccountXpubs(orm.em.fork(), 'testnet', accountId, { BTC: ownKeys(accountId).BTC });
    await expect(
      orm.em.fork().transactional(async (tx) => {
        expect((await allocateReceiveAddress(tx, 'testnet', accountId, 'BTC')).index).toBe(0);
        throw new Error('payment request insert failed');
      }),
    ).rejects.toThrow('payment request insert failed');
    const committed = await orm.em.fork().transactional((tx) => allocateReceiveAddress(tx, 'testnet', accountId, 'BTC'));
    expect(committed.index).toBe(0);
    expect((await allocateReceiveAddress(orm.em.fork(), 'testnet', accountId, 'BTC')).index).toBe(1);
  });

  it('50 concurrent allocations on separate EntityManagers and connections never share an index', async () => {
    const accountId = await createAccount('concurrent');
    const mine = ownKeys(accountId);
    await saveAccountXpubs(orm.em.fork(), 'testnet', accountId, { ETH: mine.ETH, BTC: mine.BTC });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        // Each allocation in its own transaction on its own pooled connection, across two ORMs, holding the row
        // lock a little while (as a payment-request insert would) so the others really queue on it.
        (i % 2 === 0 ? orm : otherOrm).em.fork().transactional(async (tx) => {
          const allocated = await allocateReceiveAddress(tx, 'testnet', accountId, 'ETH');
          await sleep(i % 5);
          return allocated;
        }),
      ),
    );
    const indices = results.map((r) => r.index).sort((x, y) => x - y);
    expect(indices).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(new Set(results.map((r) => r.address)).size).toBe(50);
    for (const r of results) expect(r.address).toBe(deriveReceiveAddress('testnet', 'ETH', mine.ETH, r.index));
    const row = await orm.em.fork().findOneOrFail(AccountXpub, { account: accountId, asset: 'ETH' });
    expect(row.nextIndex).toBe(50);
    // The other asset's cursor is untouched.
    expect((await allocateReceiveAddress(orm.em.fork(), 'testnet', accountId, 'BTC')).index).toBe(0);
  });

  it('50 concurrent autocommit allocations (no caller transaction) are distinct too', async () => {
    const accountId = await createAccount('concurrent autocommit');
    await saveAccountXpubs(orm.em.fork(), 'testnet', accountId, { LTC: ownKeys(accountId).LTC });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => allocateReceiveAddress((i % 2 === 0 ? orm : otherOrm).em.fork(), 'testnet', accountId, 'LTC')),
    );
    expect(results.map((r) => r.index).sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('stops at the last non-hardened index instead of deriving a hardened one', async () => {
    const accountId = await createAccount('exhausted');
    await saveAccountXpubs(orm.em.fork(), 'testnet', accountId, { BTC: ownKeys(accountId).BTC });
    await orm.em.fork().nativeUpdate(AccountXpub, { account: accountId, asset: 'BTC' }, { nextIndex: MAX_RECEIVE_INDEX });
    expect((await allocateReceiveAddress(orm.em.fork(), 'testnet', accountId, 'BTC')).index).toBe(MAX_RECEIVE_INDEX);
    await expect(allocateReceiveAddress(orm.em.fork(), 'testnet', accountId, 'BTC')).rejects.toBeInstanceOf(BusinessRuleError);
  });

  it('deleting the account deletes its keys', async () => {
    const accountId = await createAccount('deleted');
    await saveAccountXpubs(orm.em.fork(), 'testnet', accountId, ownKeys(accountId));
    await orm.em.fork().nativeDelete(Account, { id: accountId });
    expect(await orm.em.fork().count(AccountXpub, { account: accountId })).toBe(0);
    expect(await orm.em.fork().count(ReceiveKeyOwner, { account: accountId })).toBe(0);
  });

  it('skips an index whose address a request on the chain already has (one made before keys had owners)', async () => {
    const accountId = await createAccount('legacy neighbour');
    const legacyOwner = await createAccount('legacy owner');
    const btc = ownKeys(accountId).BTC;
    await saveAccountXpubs(orm.em.fork(), 'testnet', accountId, { BTC: btc, LTC: btc });
    // A request of another account at index 0 of this key on bitcoin, as two accounts sharing a key used to leave.
    await orm.em.getConnection().execute(
      `insert into "payment_requests" ("slug", "account_id", "asset_id", "type", "status", "title", "chain", "network", "address", "address_index", "amount_paid", "created_at", "updated_at")
       values ('legacyneighbour000000000', ?, 1, 'donation', 'pending', 'legacy', 'bitcoin', 'testnet', ?, 0, 0, now(), now())`,
      [legacyOwner, deriveReceiveAddress('testnet', 'BTC', btc, 0)],
    );
    expect(await allocateReceiveAddress(orm.em.fork(), 'testnet', accountId, 'BTC')).toEqual({ asset: 'BTC', index: 1, address: deriveReceiveAddress('testnet', 'BTC', btc, 1) });
    expect((await allocateReceiveAddress(orm.em.fork(), 'testnet', accountId, 'BTC')).index).toBe(2);
    // Only that chain: litecoin's index 0 is free.
    expect((await allocateReceiveAddress(orm.em.fork(), 'testnet', accountId, 'LTC')).index).toBe(0);
  });
});

describe('key ownership: an extended public key belongs to one account', () => {
  const ownersOf = async (accountId: number) => orm.em.fork().count(ReceiveKeyOwner, { account: accountId });

  it('refuses another account\'s key, also under another prefix or for another asset; nothing is stored', async () => {
    const first = await createAccount('first holder');
    const second = await createAccount('second holder');
    const mine = ownKeys(first);
    await saveAccountXpubs(orm.em.fork(), 'testnet', first, { BTC: mine.BTC, ETH: mine.ETH });
    for (const attempt of [
      { BTC: mine.BTC },
      { BTC: withVersion(mine.BTC, XPUB_VERSIONS.tpub) },
      { LTC: withVersion(mine.BTC, XPUB_VERSIONS.ttub) },
      { MATIC: mine.ETH, ETH: ownKeys(second).ETH },
    ] as Array<Record<string, string>>) {
      const [asset] = Object.keys(attempt).filter((code) => code !== 'ETH');
      try {
        await saveAccountXpubs(orm.em.fork(), 'testnet', second, attempt);
        throw new Error('expected a refusal');
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
        expect((error as ValidationError).fields).toEqual({ [`xpub.${asset!}`]: [keyOwnedByAnotherAccountMessage(asset!)] });
      }
    }
    expect(keyOwnedByAnotherAccountMessage('BTC')).toBe(
      'BTC: this extended public key (under this or another prefix) already belongs to another account; every account needs its own key, e.g. another account of the wallet.',
    );
    expect(await accountXpubs(orm.em.fork(), second)).toEqual({});
    expect(await ownersOf(second)).toBe(0);
  });

  it('one account may use its key for BTC and LTC (BIP84 coin 1) and for ETH and MATIC (coin 60)', async () => {
    const accountId = await createAccount('one key, two assets');
    const mine = ownKeys(accountId);
    await saveAccountXpubs(orm.em.fork(), 'testnet', accountId, { BTC: mine.BTC, LTC: withVersion(mine.BTC, XPUB_VERSIONS.ttub), ETH: mine.ETH, MATIC: mine.ETH });
    expect(await ownersOf(accountId)).toBe(2);
    const btc = await allocateReceiveAddress(orm.em.fork(), 'testnet', accountId, 'BTC');
    const ltc = await allocateReceiveAddress(orm.em.fork(), 'testnet', accountId, 'LTC');
    expect([btc.index, ltc.index]).toEqual([0, 0]);
    expect(btc.address).toMatch(/^tb1q/);
    expect(ltc.address).toMatch(/^tltc1q/);
  });

  it('an account keeps the keys it replaced: nobody else may register them, it may take them back', async () => {
    const accountId = await createAccount('replaced');
    const other = await createAccount('late comer');
    const old = ownKeys(accountId).ETH;
    await saveAccountXpubs(orm.em.fork(), 'testnet', accountId, { ETH: old });
    await allocateReceiveAddress(orm.em.fork(), 'testnet', accountId, 'ETH');
    await saveAccountXpubs(orm.em.fork(), 'testnet', accountId, { ETH: ownKeys(other).ETH });
    await expect(saveAccountXpubs(orm.em.fork(), 'testnet', other, { ETH: old })).rejects.toBeInstanceOf(ValidationError);
    await saveAccountXpubs(orm.em.fork(), 'testnet', accountId, { ETH: old });
    expect(await allocateReceiveAddress(orm.em.fork(), 'testnet', accountId, 'ETH')).toEqual({ asset: 'ETH', index: 1, address: deriveReceiveAddress('testnet', 'ETH', old, 1) });
  });

  it('a refusal inside the caller\'s transaction rolls back with it', async () => {
    const owner = await createAccount('owner');
    await saveAccountXpubs(orm.em.fork(), 'testnet', owner, { BTC: ownKeys(owner).BTC });
    const other = await createAccount('mixed');
    await expect(
      orm.em.fork().transactional((tx) => saveAccountXpubs(tx, 'testnet', other, { ETH: ownKeys(other).ETH, BTC: ownKeys(owner).BTC })),
    ).rejects.toBeInstanceOf(ValidationError);
    expect(await accountXpubs(orm.em.fork(), other)).toEqual({});
    expect(await ownersOf(other)).toBe(0);
  });

  it('two accounts claiming one new key at once: exactly one gets it', async () => {
    const contested = ownKeys(await createAccount('key source')).MATIC;
    const claimants = await Promise.all(Array.from({ length: 6 }, (_, i) => createAccount(`claimant ${i}`)));
    const outcomes = await Promise.allSettled(
      claimants.map((accountId, i) => saveAccountXpubs((i % 2 === 0 ? orm : otherOrm).em.fork(), 'testnet', accountId, { MATIC: contested })),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(ValidationError);
    const winner = claimants[outcomes.findIndex((o) => o.status === 'fulfilled')]!;
    expect(await ownersOf(winner)).toBe(1);
    expect(await orm.em.fork().count(ReceiveKeyOwner, { account: { $in: claimants } })).toBe(1);
  });
});
