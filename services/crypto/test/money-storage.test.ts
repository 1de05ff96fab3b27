// AmountType against a real PostgreSQL numeric(78,18) column: exact round-trips, no float on the way.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { defineEntity, p } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createOrm } from '@tributary/kit';
import { createTestDatabase, type TestDatabase } from '@tributary/kit/testing';
import { Amount, AmountType } from '../src/money/index.js';

const AmountProbe = defineEntity({
  name: 'AmountProbe',
  tableName: 'amount_probes',
  properties: {
    id: p.integer().primary().autoincrement(),
    value: p.type(AmountType),
    optional: p.type(AmountType).nullable(),
  },
});

let db: TestDatabase;
let orm: MikroORM;

beforeAll(async () => {
  db = await createTestDatabase('crypto_money');
  orm = (await createOrm({ clientUrl: db.url, entities: [AmountProbe], migrations: [] })) as MikroORM;
  await orm.schema.create();
});
afterAll(async () => {
  await orm?.close(true);
  await db?.drop();
});

const VALUES = ['0', '0.5', '12', '0.00000001', '0.000000000000000001', '1.000000000000000001', `${'9'.repeat(60)}.${'9'.repeat(18)}`];

describe('AmountType in PostgreSQL', () => {
  it('stores numeric(78,18) and reads every value back exactly', async () => {
    const columns = await orm.em.fork().getConnection().execute<Array<{ column_name: string; numeric_precision: number; numeric_scale: number }>>(
      `select column_name, numeric_precision, numeric_scale from information_schema.columns where table_name = 'amount_probes' and data_type = 'numeric' order by column_name`,
    );
    expect(columns).toEqual([
      { column_name: 'optional', numeric_precision: 78, numeric_scale: 18 },
      { column_name: 'value', numeric_precision: 78, numeric_scale: 18 },
    ]);

    const em = orm.em.fork();
    const ids = VALUES.map((value) => {
      const row = em.create(AmountProbe, { value: Amount.parse(value), optional: null });
      return row;
    });
    await em.flush();

    const read = await orm.em.fork().find(AmountProbe, { id: { $in: ids.map((row) => row.id) } }, { orderBy: { id: 'asc' } });
    expect(read.map((row) => row.value!.toString())).toEqual(VALUES);
    expect(read.every((row) => row.value instanceof Amount && row.optional === null)).toBe(true);
    expect(JSON.parse(JSON.stringify(read[1]))).toMatchObject({ value: '0.5', optional: null });
  });

  it('sums in SQL stay exact, and an unchanged value is not rewritten', async () => {
    const em = orm.em.fork();
    const row = em.create(AmountProbe, { value: Amount.parse('0.1'), optional: Amount.parse('0.2') });
    await em.flush();
    const [sum] = await em.getConnection().execute<Array<{ total: string }>>(`select ("value" + "optional")::text as total from amount_probes where id = ?`, [row.id]);
    expect(Amount.fromDecimalString(sum!.total).toString()).toBe('0.3');

    const fresh = orm.em.fork();
    const loaded = await fresh.findOneOrFail(AmountProbe, { id: row.id });
    fresh.getUnitOfWork().computeChangeSets();
    expect(fresh.getUnitOfWork().getChangeSets()).toHaveLength(0);
    loaded.value = loaded.value!.plus(Amount.parse('0.000000000000000001'));
    await fresh.flush();
    expect((await orm.em.fork().findOneOrFail(AmountProbe, { id: row.id })).value!.toString()).toBe('0.100000000000000001');
  });
});
