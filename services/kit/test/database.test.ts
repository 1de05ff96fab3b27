import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { MikroORM } from '@mikro-orm/postgresql';
import request from 'supertest';
import { Migration } from '@mikro-orm/migrations';
import { createOrm, createServiceApp, databaseReadiness, messageErrorFormat, migrateUp, requestEntityManager } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';
import { capturingLogger } from './fixtures/capture-logs.js';
import { CreateNotesTable, Note, noteMigrations } from './fixtures/notes.js';

let database: TestDatabase;
let orm: MikroORM;
const logs = capturingLogger('debug');

beforeAll(async () => {
  database = await createTestDatabase('kit_database');
  orm = await createOrm({ clientUrl: database.url, entities: [Note], migrations: noteMigrations, logger: logs.logger, debug: true });
});

afterAll(async () => {
  await orm?.close(true);
  await database?.drop();
});

describe('migrateUp', () => {
  it('applies the checked-in migrations once, in order, and is idempotent', async () => {
    expect(await migrateUp(orm)).toEqual(['20250101000000_create_notes_table', '20250101000001_add_notes_author_index']);
    expect(await migrateUp(orm)).toEqual([]);
    const indexes = await orm.em.getConnection().execute<Array<{ indexname: string }>>(
      `select indexname from pg_indexes where tablename = 'notes' order by indexname`,
    );
    expect(indexes.map((row) => row.indexname)).toEqual(['notes_author_idx', 'notes_pkey']);
  });

  it('a second ORM on the same database finds nothing pending', async () => {
    const other = await createOrm({ clientUrl: database.url, entities: [Note], migrations: noteMigrations });
    try {
      expect(await migrateUp(other)).toEqual([]);
    } finally {
      await other.close(true);
    }
  });
});

describe('a failing migration', () => {
  class BrokenMigration extends Migration {
    override up(): void {
      this.addSql('alter table "notes" add column "author" text');
    }
  }

  it('leaves the database exactly as it was', async () => {
    const fresh = await createTestDatabase('kit_broken_migration');
    const broken = await createOrm({
      clientUrl: fresh.url,
      entities: [Note],
      migrations: [
        { name: '20250101000000_create_notes_table', class: CreateNotesTable },
        { name: '20250101000001_broken', class: BrokenMigration },
      ],
    });
    try {
      await expect(migrateUp(broken)).rejects.toThrow(/already exists/);
      const tables = await broken.em.getConnection().execute<Array<{ tablename: string }>>(
        `select tablename from pg_tables where schemaname = 'public' and tablename = 'notes'`,
      );
      expect(tables).toEqual([]);
      expect(await broken.migrator.getExecuted()).toEqual([]);
    } finally {
      await broken.close(true);
      await fresh.drop();
    }
  });
});

describe('databaseReadiness', () => {
  it('passes while the database answers and fails once it is gone', async () => {
    await expect(databaseReadiness(orm).check()).resolves.toBeUndefined();
    const gone = await createTestDatabase('kit_gone');
    const doomed = await createOrm({ clientUrl: gone.url, entities: [Note], migrations: [] });
    try {
      await gone.drop();
      await expect(databaseReadiness(doomed).check()).rejects.toThrow(/database unreachable/);
    } finally {
      await doomed.close(true);
    }
  });

  it('passes on a freshly opened ORM that has not run a query yet (it connects on first use)', async () => {
    const fresh = await createOrm({ clientUrl: database.url, entities: [Note], migrations: [] });
    try {
      await expect(databaseReadiness(fresh).check()).resolves.toBeUndefined();
    } finally {
      await fresh.close(true);
    }
  });
});

describe('transactions', () => {
  it('roll back every row when the unit of work fails', async () => {
    const em = orm.em.fork();
    const before = await em.count(Note, { author: 'rollback' });
    await expect(
      em.transactional(async (tx) => {
        tx.create(Note, { body: 'first', author: 'rollback' });
        await tx.flush();
        tx.create(Note, { body: 'second', author: 'rollback' });
        await tx.flush();
        throw new Error('refund exceeds principal');
      }),
    ).rejects.toThrow('refund exceeds principal');
    expect(await orm.em.fork().count(Note, { author: 'rollback' })).toBe(before);
  });

  it('commit every row when the unit of work succeeds', async () => {
    await orm.em.fork().transactional(async (tx) => {
      tx.create(Note, { body: 'one', author: 'commit' });
      tx.create(Note, { body: 'two', author: 'commit' });
    });
    expect(await orm.em.fork().count(Note, { author: 'commit' })).toBe(2);
  });
});

describe('request-scoped EntityManager', () => {
  it('gives each concurrent request its own identity map and unit of work', async () => {
    const app = await createServiceApp({
      service: 'kit-test',
      logger: logs.logger,
      errorFormat: messageErrorFormat(),
      readiness: [],
      orm,
      configure(app) {
        app.post('/notes', async (req, res) => {
          const { author, delayMs } = req.body as { author: string; delayMs: number };
          const em = requestEntityManager();
          em.create(Note, { body: `by ${author}`, author });
          // Interleave with the other request before flushing: a shared EM would flush both notes here.
          await new Promise((resolve) => setTimeout(resolve, delayMs));
          const pendingBeforeFlush = em.getUnitOfWork().getPersistStack().size;
          await em.flush();
          const seen = [...em.getUnitOfWork().getIdentityMap().values()].map((entity) => (entity as { author: string }).author);
          res.json({ emId: em.id, pendingBeforeFlush, seen, sameEmLater: requestEntityManager() === em });
        });
      },
    });
    const [a, b] = await Promise.all([
      request(app).post('/notes').send({ author: 'concurrent-a', delayMs: 150 }),
      request(app).post('/notes').send({ author: 'concurrent-b', delayMs: 50 }),
    ]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body.emId).not.toBe(b.body.emId);
    expect(a.body).toMatchObject({ pendingBeforeFlush: 1, seen: ['concurrent-a'], sameEmLater: true });
    expect(b.body).toMatchObject({ pendingBeforeFlush: 1, seen: ['concurrent-b'], sameEmLater: true });
    expect(await orm.em.fork().count(Note, { author: { $in: ['concurrent-a', 'concurrent-b'] } })).toBe(2);
    // Nothing fell back to the global EntityManager, which MikroORM refuses to use for request work.
    expect(() => orm.em.getUnitOfWork()).toThrow(/global EntityManager/);
  });

  it('throws outside a request', () => {
    expect(() => requestEntityManager()).toThrow(/No request-scoped EntityManager/);
  });
});

describe('ORM logging', () => {
  it('logs SQL through pino without parameter values', async () => {
    await orm.em.fork().findOne(Note, { body: 'needle-value-4711' });
    const queryLines = logs.lines().filter((line) => line.orm === 'query');
    expect(queryLines.some((line) => typeof line.sql === 'string' && line.sql.includes('"notes"'))).toBe(true);
    expect(logs.text()).not.toContain('needle-value-4711');
  });
});
