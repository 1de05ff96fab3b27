import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { Connection } from '@temporalio/client';
import { createLogger, migrateUp } from '@tributary/kit';
import { createTestDatabase, type TestDatabase } from '@tributary/kit/testing';
import type { MikroORM } from '@mikro-orm/postgresql';
import { openDatabase } from '../src/service.js';
import { startWorker, type RunningWorker } from '../src/worker.js';
import { installTestRuntime } from '@tributary/workflows/testing';

const address = process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';
let db: TestDatabase;
let orm: MikroORM;
let worker: RunningWorker | undefined;
let connection: Connection;

beforeAll(async () => {
  installTestRuntime();
  db = await createTestDatabase('crypto_worker');
  orm = await openDatabase(db.url);
  await migrateUp(orm);
  connection = await Connection.connect({ address });
});
afterAll(async () => {
  await worker?.shutdown();
  await connection?.close();
  await orm?.close();
  await db?.drop();
});

it('the worker polls the crypto task queue on the real Temporal server, and stops cleanly', async () => {
  worker = await startWorker({
    orm,
    logger: createLogger({ service: 'crypto', level: 'silent' }),
    config: { TEMPORAL_ADDRESS: address, TEMPORAL_NAMESPACE: 'default', WEBHOOK_ALLOW_PRIVATE_HOSTS: [] },
  });
  const identity = worker.worker.options.identity;
  let pollers: string[] = [];
  for (let i = 0; i < 50 && !pollers.includes(identity); i += 1) {
    const res = await connection.workflowService.describeTaskQueue({ namespace: 'default', taskQueue: { name: 'crypto' }, taskQueueType: 1 });
    pollers = (res.pollers ?? []).map((p) => p.identity ?? '');
    if (!pollers.includes(identity)) await new Promise((r) => setTimeout(r, 200));
  }
  expect(pollers).toContain(identity);
  await worker.shutdown();
  expect(worker.worker.getState()).toBe('STOPPED');
  worker = undefined;
}, 120_000);
