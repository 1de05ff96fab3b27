// executePrepared against a real PostgreSQL: outside a transaction a named statement on the pool, inside one through
// MikroORM; the same row either way, MikroORM's exceptions, and the caller's transaction joined.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createOrm, executePrepared, kitEntities, numberPlaceholders, preparedStatement } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';

let db: TestDatabase;
let orm: MikroORM;

const insert = preparedStatement(
  `insert into "prepared_test_rows" ("id", "label", "pages", "open", "tags", "at", "note") values (?, ?, ?, ?, ?::jsonb, ?, ?) returning "id", 'a?b' as "literal"`,
);
const readRow = preparedStatement(`select "label", "pages", "open", "tags", "at", "note" from "prepared_test_rows" where "id" = ?`);
const row = (id: string, at: Date) => [id, 'Lamp "deluxe" it\'s', 7, true, JSON.stringify({ size: 'L', n: [1, 2] }), at, null];

beforeAll(async () => {
  db = await createTestDatabase('kit_prepared');
  orm = await createOrm({ clientUrl: db.url, entities: kitEntities, migrations: [] });
  await orm.em.getConnection().execute(
    `create table "prepared_test_rows" ("id" uuid primary key, "label" text not null, "pages" int not null, "open" boolean not null, "tags" jsonb not null, "at" timestamptz not null, "note" text null)`,
  );
});
afterAll(async () => {
  await orm?.close(true);
  await db?.drop();
});

describe('numberPlaceholders', () => {
  it('numbers ? as $1…$n outside quoted literals and identifiers', () => {
    expect(numberPlaceholders(`select ?, 'a?b', "c?d", ?::jsonb, 'it''s ?' where x = ?`)).toBe(`select $1, 'a?b', "c?d", $2::jsonb, 'it''s ?' where x = $3`);
  });

  it("refuses MikroORM's identifier placeholder and an unterminated quote", () => {
    expect(() => numberPlaceholders('select ?? from t')).toThrow(/identifier placeholder/);
    expect(() => numberPlaceholders("select 'open")).toThrow(/unterminated/);
  });

  it('names a statement after its text: the same text the same name, another text another', () => {
    expect(preparedStatement('select ?').name).toBe(preparedStatement('select ?').name);
    expect(preparedStatement('select ?').name).not.toBe(preparedStatement('select ?, ?').name);
    expect(preparedStatement('select ?').name).toMatch(/^tributary_[0-9a-f]{24}$/);
  });
});

describe('executePrepared', () => {
  it('outside a transaction runs the named statement on the pool (prepared once on the connection) and returns its rows', async () => {
    const id = randomUUID();
    expect(await executePrepared(orm.em.fork(), insert, row(id, new Date('2026-11-26T10:00:00.123Z')))).toEqual([{ id, literal: 'a?b' }]);
    // The pool hands a lone caller its one idle connection back: the statement is prepared there, by name.
    const prepared = await executePrepared<{ name: string }>(orm.em.fork(), preparedStatement('select "name" from pg_prepared_statements where "name" = ?'), [insert.name]);
    expect(prepared).toEqual([{ name: insert.name }]);
  });

  it('stores the same values as MikroORM does inside a transaction', async () => {
    const at = new Date('2026-11-26T23:59:59.999Z');
    const outside = randomUUID();
    const inside = randomUUID();
    await executePrepared(orm.em.fork(), insert, row(outside, at));
    await orm.em.fork().transactional((tx) => executePrepared(tx, insert, row(inside, at)));
    const [a] = await executePrepared<Record<string, unknown>>(orm.em.fork(), readRow, [outside]);
    const [b] = await executePrepared<Record<string, unknown>>(orm.em.fork(), readRow, [inside]);
    expect(a).toEqual(b);
    // The pool's type parsers (MikroORM's) give timestamps as PostgreSQL's text.
    expect({ ...a, at: new Date(a!.at as string) }).toEqual({ label: 'Lamp "deluxe" it\'s', pages: 7, open: true, tags: { size: 'L', n: [1, 2] }, at, note: null });
  });

  it("joins the caller's transaction: a rollback leaves nothing", async () => {
    const id = randomUUID();
    await expect(
      orm.em.fork().transactional(async (tx) => {
        await executePrepared(tx, insert, row(id, new Date()));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await executePrepared(orm.em.fork(), readRow, [id])).toEqual([]);
  });

  it("fails with MikroORM's exception, both ways", async () => {
    const id = randomUUID();
    await executePrepared(orm.em.fork(), insert, row(id, new Date()));
    await expect(executePrepared(orm.em.fork(), insert, row(id, new Date()))).rejects.toBeInstanceOf(UniqueConstraintViolationException);
    await expect(orm.em.fork().transactional((tx) => executePrepared(tx, insert, row(id, new Date())))).rejects.toBeInstanceOf(UniqueConstraintViolationException);
  });
});
