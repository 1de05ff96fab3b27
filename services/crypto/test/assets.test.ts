import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { MikroORM } from '@mikro-orm/postgresql';
import { BusinessRuleError, createOrm, DomainError, migrateUp } from '@tributary/kit';
import { createTestDatabase, type TestDatabase } from '@tributary/kit/testing';
import { migrations } from '../src/migrations/index.js';
import { Amount } from '../src/money/index.js';
import { ASSET_TABLE, Asset, AssetSchema, AssetService, MAX_CONFIRMATIONS } from '../src/modules/assets/index.js';

let db: TestDatabase;
let orm: MikroORM;

beforeAll(async () => {
  db = await createTestDatabase('crypto_assets');
  orm = (await createOrm({ clientUrl: db.url, entities: [AssetSchema], migrations })) as MikroORM;
  await migrateUp(orm);
});
afterAll(async () => {
  await orm?.close(true);
  await db?.drop();
});

const service = () => new AssetService(orm.em.fork());
const views = async () => (await service().list()).map((asset) => asset.toView());

const SPEC_TABLE = [
  { id: 1, code: 'BTC', chain: 'bitcoin', decimals: 8, confirmations: 2 },
  { id: 2, code: 'ETH', chain: 'ethereum', decimals: 18, confirmations: 12 },
  { id: 3, code: 'LTC', chain: 'litecoin', decimals: 8, confirmations: 6 },
  { id: 4, code: 'MATIC', chain: 'polygon', decimals: 18, confirmations: 30 },
];

describe('asset table', () => {
  it('the migration inserts the spec table with stable ids 1..4 and default confirmations', async () => {
    expect(await views()).toEqual(SPEC_TABLE);
    expect(ASSET_TABLE.map(({ defaultConfirmations, ...rest }) => ({ ...rest, confirmations: defaultConfirmations }))).toEqual(SPEC_TABLE);
  });

  it('the checked-in migration creates exactly the schema the entity describes', async () => {
    const diff = (await orm.schema.getUpdateSchemaSQL({ wrap: false }))
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.includes('"assets"'));
    expect(diff).toEqual([]);
  });

  it('the migration is idempotent: re-running it keeps the rows and raised thresholds', async () => {
    await service().raiseConfirmations('BTC', 5);
    await orm.em.fork().getConnection().execute(`delete from "mikro_orm_migrations" where "name" = 'Migration20260701000100CreateAssets'`);
    expect(await migrateUp(orm)).toEqual(['Migration20260701000100CreateAssets']);
    expect(await migrateUp(orm)).toEqual([]);
    const btc = (await views())[0]!;
    expect(btc).toEqual({ id: 1, code: 'BTC', chain: 'bitcoin', decimals: 8, confirmations: 5 });
    expect(await orm.em.fork().count(Asset, {})).toBe(4);
    await service().raiseConfirmations('BTC', 2);
  });
});

describe('AssetService', () => {
  it('byId finds the create body asset_id, null for anything else', async () => {
    const s = service();
    expect((await s.byId(2))?.code).toBe('ETH');
    expect((await s.byId(4))?.chain).toBe('polygon');
    for (const id of [0, 5, -1, 1.5, Number.NaN, 2 ** 53]) expect(await s.byId(id)).toBeNull();
    expect((await s.byCode('matic'))?.id).toBe(4);
    expect(await s.byCode('DOGE')).toBeNull();
  });

  it('raiseConfirmations raises a threshold and persists it', async () => {
    const raised = await service().raiseConfirmations('eth', 20);
    expect(raised.toView()).toEqual({ id: 2, code: 'ETH', chain: 'ethereum', decimals: 18, confirmations: 20 });
    expect((await service().byId(2))!.confirmations).toBe(20);
    // Back down to the default is allowed (undoing a raise); below it is not.
    expect((await service().raiseConfirmations('ETH', 12)).confirmations).toBe(12);
  });

  it('refuses going below the spec default with a clear DomainError, leaving the threshold unchanged', async () => {
    for (const [code, floor] of [['BTC', 2], ['ETH', 12], ['LTC', 6], ['MATIC', 30]] as const) {
      const error = await service().raiseConfirmations(code, floor - 1).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BusinessRuleError);
      expect(error).toBeInstanceOf(DomainError);
      expect((error as BusinessRuleError).message).toBe(`${code} confirmations cannot go below the spec default of ${floor} (asked for ${floor - 1}).`);
      expect((error as BusinessRuleError).fields).toEqual({ confirmations: [(error as Error).message] });
      expect((await service().byCode(code))!.confirmations).toBe(floor);
      expect((await service().raiseConfirmations(code, floor)).confirmations).toBe(floor);
    }
  });

  it('refuses unknown assets, fractions and absurd thresholds', async () => {
    await expect(service().raiseConfirmations('DOGE', 10)).rejects.toThrow('Unknown asset "DOGE": expected one of BTC, ETH, LTC, MATIC.');
    await expect(service().raiseConfirmations('BTC', 2.5)).rejects.toThrow(`BTC confirmations must be a whole number from 2 to ${MAX_CONFIRMATIONS} (asked for 2.5).`);
    await expect(service().raiseConfirmations('BTC', MAX_CONFIRMATIONS + 1)).rejects.toThrow(BusinessRuleError);
    await expect(service().raiseConfirmations('BTC', Number.NaN)).rejects.toThrow(BusinessRuleError);
    expect((await service().raiseConfirmations('BTC', MAX_CONFIRMATIONS)).confirmations).toBe(MAX_CONFIRMATIONS);
    await service().raiseConfirmations('BTC', 2);
    expect(await views()).toEqual(SPEC_TABLE);
  });

  it('an asset knows its default, its precision and whether a payment is confirmed', async () => {
    const [btc, eth] = await service().list();
    expect(btc!.defaultConfirmations).toBe(2);
    expect(btc!.fits(Amount.parse('0.00000001'))).toBe(true);
    expect(btc!.fits(Amount.parse('0.000000001'))).toBe(false);
    expect(eth!.fits(Amount.parse('0.000000000000000001'))).toBe(true);
    expect(btc!.isConfirmed(1)).toBe(false);
    expect(btc!.isConfirmed(2)).toBe(true);
  });
});
