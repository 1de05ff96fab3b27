// Every statement has a deadline: the server cancels a slow one (statement_timeout), the client ends a connection the
// server has gone silent on while it holds it (deadlines.ts), and both are 503s. A server that hangs is a loopback
// proxy that holds every byte (kit startTcpProxy): a warm pooled connection stays open and gets no answer, as with a
// partition or a stopped PostgreSQL.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { MikroORM } from '@mikro-orm/postgresql';
import request from 'supertest';
import {
  DATABASE_DEADLINES,
  DATABASE_KEEPALIVE_DELAY_MS,
  ServiceUnavailableError,
  createOrm,
  createServiceApp,
  databaseUnavailableError,
  envelopeErrorFormat,
  migrateUp,
  requestEntityManager,
  type CreateOrmOptions,
} from '../src/index.js';
import { createTestDatabase, startTcpProxy, type TcpProxy, type TestDatabase } from '../src/testing/index.js';
import { capturingLogger } from './fixtures/capture-logs.js';
import { Note, noteMigrations } from './fixtures/notes.js';

let database: TestDatabase;
let proxy: TcpProxy;
const opened: MikroORM[] = [];

beforeAll(async () => {
  database = await createTestDatabase('kit_deadlines');
  const url = new URL(database.url);
  proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port) });
  const orm = await createOrm({ clientUrl: database.url, entities: [Note], migrations: noteMigrations });
  await migrateUp(orm);
  await orm.close(true);
});

afterEach(async () => {
  proxy.thaw();
  for (const orm of opened.splice(0)) await orm.close(true);
});

afterAll(async () => {
  await proxy?.close();
  await database?.drop();
});

/** The test database, reached directly or through the proxy. */
function databaseUrl(through: 'direct' | 'proxy'): string {
  if (through === 'direct') return database.url;
  const url = new URL(database.url);
  url.host = `127.0.0.1:${proxy.port}`;
  return url.toString();
}

async function open(through: 'direct' | 'proxy', options: Partial<CreateOrmOptions> = {}): Promise<MikroORM> {
  const orm = await createOrm({ clientUrl: databaseUrl(through), entities: [Note], migrations: noteMigrations, ...options });
  opened.push(orm);
  return orm;
}

const sql = <T extends object>(orm: MikroORM, text: string) => orm.em.getConnection().execute<T[]>(text);

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the statement to fail');
    },
    (error: unknown) => error,
  );
}

describe('the pool every service opens', () => {
  it('sets the statement timeout and TCP keepalive on each connection', async () => {
    const orm = await open('direct');
    expect(await sql<{ statement_timeout: string }>(orm, 'show statement_timeout')).toEqual([{ statement_timeout: `${DATABASE_DEADLINES.statementTimeoutMs / 1000}s` }]);
    const pool = (await orm.driver.getConnection().getNativeClient()) as unknown as { options: Record<string, unknown> };
    expect(pool.options).toMatchObject({ keepAlive: true, keepAliveInitialDelayMillis: DATABASE_KEEPALIVE_DELAY_MS });
    expect(DATABASE_DEADLINES.queryTimeoutMs).toBeGreaterThan(DATABASE_DEADLINES.statementTimeoutMs);
  });

  it('has no statement timeout for migrate (deadlines: false)', async () => {
    const orm = await open('direct', { deadlines: false });
    expect(await sql<{ statement_timeout: string }>(orm, 'show statement_timeout')).toEqual([{ statement_timeout: '0' }]);
  });
});

describe('a statement past its deadline', () => {
  it('is cancelled by a live server after statement_timeout, and is a 503', async () => {
    const orm = await open('direct', { deadlines: { statementTimeoutMs: 200, queryTimeoutMs: 5_000 } });
    const started = performance.now();
    const error = await failure(sql(orm, 'select pg_sleep(3)'));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(String(error)).toMatch(/statement timeout/);
    expect(databaseUnavailableError(error)).toBeInstanceOf(ServiceUnavailableError);
    // The connection that ran it is still good.
    expect(await sql(orm, 'select 1 as one')).toEqual([{ one: 1 }]);
  });

  it('is given up by the client (its connection ended) when the server sends nothing on a warm connection for queryTimeoutMs, and is a 503', async () => {
    const orm = await open('proxy', { deadlines: { statementTimeoutMs: 200, queryTimeoutMs: 500 } });
    expect(await sql(orm, 'select 1 as one')).toEqual([{ one: 1 }]);
    proxy.freeze();
    const started = performance.now();
    const error = await failure(sql(orm, 'select 2 as two'));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(databaseUnavailableError(error)).toBeInstanceOf(ServiceUnavailableError);
    // Once the server answers again, so does the pool.
    proxy.thaw();
    expect(await sql(orm, 'select 3 as three')).toEqual([{ three: 3 }]);
  });
});

describe('a connection back in the pool', () => {
  it('is not ended however long it waits there idle', async () => {
    const orm = await open('direct', { deadlines: { statementTimeoutMs: 200, queryTimeoutMs: 300 } });
    const backend = async () => (await sql<{ pid: number }>(orm, 'select pg_backend_pid() as pid'))[0]!.pid;
    const first = await backend();
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect(await backend()).toBe(first);
  });
});

describe('a request on a warm pooled connection to a server that stopped answering', () => {
  it('answers 503 in the service format once the statement is given up', async () => {
    const orm = await open('proxy', { deadlines: { statementTimeoutMs: 200, queryTimeoutMs: 500 } });
    const app = await createServiceApp({
      service: 'kit-test',
      logger: capturingLogger('silent').logger,
      errorFormat: envelopeErrorFormat,
      readiness: [],
      orm,
      configure(express) {
        express.get('/notes', async (_req, res) => {
          res.json(await requestEntityManager().find(Note, {}));
        });
      },
    });
    expect((await request(app).get('/notes')).status).toBe(200);
    proxy.freeze();
    const started = performance.now();
    const res = await request(app).get('/notes');
    expect(performance.now() - started).toBeLessThan(2_000);
    expect({ status: res.status, body: res.body as unknown }).toEqual({ status: 503, body: { error: { code: 'service_unavailable', message: expect.any(String) } } });
  });
});
