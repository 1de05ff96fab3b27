import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { defineEntity, p, Type } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { compileEntityInsert, createOrm } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';

const Shelf = defineEntity({
  name: 'InsertTestShelf',
  tableName: 'insert_test_shelves',
  properties: {
    id: p.uuid().primary(),
    name: p.string(),
  },
});

const Book = defineEntity({
  name: 'InsertTestBook',
  tableName: 'insert_test_books',
  properties: {
    id: p.uuid().primary(),
    shelf: () => p.manyToOne(Shelf),
    title: p.string().length(200),
    status: p.enum(['draft', 'published']),
    pages: p.integer(),
    subtitle: p.string().nullable(),
    tags: p.json<string[]>(),
    printedAt: p.datetime(),
    withdrawnAt: p.datetime().nullable(),
  },
});

/** A type whose value the database converts in SQL: compileEntityInsert cannot express that with a plain parameter. */
class LowerType extends Type<string, string> {
  override convertToDatabaseValueSQL(key: string): string {
    return `lower(${key})`;
  }
  override getColumnType(): string {
    return 'text';
  }
}

const Label = defineEntity({
  name: 'InsertTestLabel',
  tableName: 'insert_test_labels',
  properties: {
    id: p.uuid().primary(),
    text: p.type(LowerType),
  },
});

let database: TestDatabase;
let orm: MikroORM;
let shelfId: string;

beforeAll(async () => {
  database = await createTestDatabase('kit_entity_insert');
  orm = await createOrm({ clientUrl: database.url, entities: [Shelf, Book, Label], migrations: [] });
  const connection = orm.em.getConnection();
  await connection.execute('create table "insert_test_shelves" ("id" uuid primary key, "name" text not null)');
  await connection.execute(
    `create table "insert_test_books" ("id" uuid primary key, "shelf_id" uuid not null references "insert_test_shelves", "title" varchar(200) not null,
      "status" text not null, "pages" int not null, "subtitle" text, "tags" jsonb not null, "printed_at" timestamptz not null, "withdrawn_at" timestamptz)`,
  );
  shelfId = randomUUID();
  await connection.execute('insert into "insert_test_shelves" ("id", "name") values (?, ?)', [shelfId, 'fiction']);
});

afterAll(async () => {
  await orm?.close(true);
  await database?.drop();
});

function bookRow(em = orm.em.fork()) {
  return {
    id: randomUUID(),
    shelf: em.getReference(Shelf, shelfId),
    title: "O'Brien's \"book\"",
    status: 'draft' as const,
    pages: 320,
    subtitle: null,
    tags: ['a', 'b'],
    printedAt: new Date('2026-01-02T03:04:05.678Z'),
    withdrawnAt: null,
  };
}

describe('compileEntityInsert', () => {
  it("renders the query builder's own INSERT: the same SQL and the same converted parameters", () => {
    const em = orm.em.fork();
    const row = bookRow(em);
    const fromBuilder = em.createQueryBuilder(Book).insert(row).toQuery();
    const compiled = compileEntityInsert(em, Book)(row);
    expect(compiled.sql).toBe(fromBuilder.sql);
    expect(compiled.params).toEqual(fromBuilder.params);
    // A many-to-one given as its key converts like the reference.
    expect(compileEntityInsert(em, Book)({ ...row, shelf: shelfId }).params).toEqual(fromBuilder.params);
  });

  it('writes a row the ORM reads back as it was given', async () => {
    const row = bookRow();
    const insert = compileEntityInsert(orm.em, Book)(row);
    await orm.em.getConnection().execute(insert.sql, [...insert.params]);
    const stored = await orm.em.fork().findOneOrFail(Book, { id: row.id });
    expect({ ...stored, shelf: stored.shelf.id }).toEqual({ ...row, shelf: shelfId });
  });

  it('refuses a row without a value for a column, rather than storing NULL', () => {
    const { subtitle: _omitted, ...row } = bookRow();
    expect(() => compileEntityInsert(orm.em, Book)(row)).toThrow('compileEntityInsert(InsertTestBook): the row has no subtitle');
  });

  it('refuses, when compiled, a property whose value the database converts in SQL', () => {
    expect(() => compileEntityInsert(orm.em, Label)).toThrow(/InsertTestLabel\): text/);
  });
});
