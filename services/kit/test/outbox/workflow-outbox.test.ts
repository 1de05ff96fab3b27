// The workflow outbox against a real PostgreSQL database and the real Temporal dev server of the test run: commands
// commit with the transaction that caused them, are dispatched after the commit without the caller waiting, and are
// swept once Temporal answers again.
import { createServer, type Server, type Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { MikroORM } from '@mikro-orm/postgresql';
import { Client, Connection } from '@temporalio/client';
import {
  createOrm,
  createWorkflowOutbox,
  enqueueWorkflowSignal,
  enqueueWorkflowStart,
  insertWithWorkflowStart,
  kitEntities,
  kitMigrations,
  migrateUp,
  transactionWithAfterCommit,
  WorkflowOutboxEntry,
  type WorkflowStartCommand,
} from '../../src/index.js';
import { createTestDatabase, testTemporalAddress, type TestDatabase } from '../../src/testing/index.js';

let db: TestDatabase;
let orm: MikroORM;
let connection: Connection;
let client: Client;
// Nothing polls this queue: the workflows stay running (and are terminated at the end), which is all a start needs.
const taskQueue = `outbox-test-${randomUUID().slice(0, 8)}`;
const started: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase('kit_outbox');
  orm = await createOrm({ clientUrl: db.url, entities: kitEntities, migrations: kitMigrations });
  await migrateUp(orm);
  // A table of our own for insertWithWorkflowStart's row.
  await orm.em.getConnection().execute('create table "outbox_test_rows" ("id" uuid primary key, "name" text not null)');
  connection = await Connection.connect({ address: testTemporalAddress() });
  client = new Client({ connection });
});
afterAll(async () => {
  for (const id of started) await client.workflow.getHandle(id).terminate('test over').catch(() => undefined);
  await connection?.close();
  await orm?.close(true);
  await db?.drop();
});

function startCommand(): WorkflowStartCommand {
  const workflowId = `outbox-test-${randomUUID()}`;
  started.push(workflowId);
  return { workflowType: 'invoiceExpiryWorkflow', workflowId, taskQueue, args: [{ n: 1 }], summary: 'Outbox test', details: '- test' };
}

const entry = (id: string) => orm.em.fork().findOneOrFail(WorkflowOutboxEntry, { id });

/** A client whose Temporal never answers: a TCP server that accepts and then says nothing. */
async function silentTemporal(): Promise<{ client: Client; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const lazy = Connection.lazy({ address: `127.0.0.1:${port}` });
  return {
    client: new Client({ connection: lazy }),
    async close() {
      for (const socket of sockets) socket.destroy();
      await lazy.close().catch(() => undefined);
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('enqueueWorkflowStart / enqueueWorkflowSignal', () => {
  it("commit with the caller's transaction: a rollback leaves no command", async () => {
    const command = startCommand();
    await expect(
      orm.em.fork().transactional(async (tx) => {
        await enqueueWorkflowStart(tx, command);
        await enqueueWorkflowSignal(tx, { workflowId: command.workflowId, signal: 'cancelled' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await orm.em.fork().count(WorkflowOutboxEntry, { workflowId: command.workflowId })).toBe(0);
  });

  it('refuse to run outside a transaction (the command would commit without its change)', async () => {
    await expect(enqueueWorkflowStart(orm.em.fork(), startCommand())).rejects.toThrow(/inside the transaction/);
  });

  it('a start is enqueued once per workflow id: enqueueing it again returns the same entry', async () => {
    const command = startCommand();
    const first = await orm.em.fork().transactional((tx) => enqueueWorkflowStart(tx, command));
    const again = await orm.em.fork().transactional((tx) => enqueueWorkflowStart(tx, { ...command, args: [{ n: 2 }] }));
    // The same entry, without a command of its own: the after-commit dispatch sends the committed row, not these args.
    expect(again).toEqual({ id: first.id });
    expect(first.command).toMatchObject({ kind: 'start', workflowId: command.workflowId, args: [{ n: 1 }] });
    expect(await entry(first.id)).toMatchObject({ kind: 'start', workflowId: command.workflowId, workflowType: command.workflowType, taskQueue, args: [{ n: 1 }], dispatchedAt: null, attempts: 0 });
  });
});

describe('insertWithWorkflowStart', () => {
  const rowInsert = (id: string, name = 'row') => ({ sql: 'insert into "outbox_test_rows" ("id", "name") values (?, ?)', params: [id, name] });
  const rowCount = async (id: string) => Number((await orm.em.getConnection().execute<Array<{ n: string }>>('select count(*) as n from "outbox_test_rows" where "id" = ?', [id]))[0]!.n);
  const queued = (workflowId: string) => orm.em.fork().count(WorkflowOutboxEntry, { workflowId });

  it('writes the row and queues its start in one statement, without a transaction, and returns the command to dispatch', async () => {
    const command = startCommand();
    const id = randomUUID();
    const ref = await insertWithWorkflowStart(orm.em.fork(), rowInsert(id), command);
    expect(await rowCount(id)).toBe(1);
    expect(ref.command).toEqual({ kind: 'start', workflowId: command.workflowId, workflowType: command.workflowType, taskQueue, args: [{ n: 1 }], summary: 'Outbox test', details: '- test' });
    expect(await entry(ref.id)).toMatchObject({ kind: 'start', workflowId: command.workflowId, args: [{ n: 1 }], dispatchedAt: null });
  });

  it('both or neither: a row that cannot be written queues no start, and a start already queued leaves no row', async () => {
    const taken = randomUUID();
    await insertWithWorkflowStart(orm.em.fork(), rowInsert(taken), startCommand());
    const second = startCommand();
    await expect(insertWithWorkflowStart(orm.em.fork(), rowInsert(taken), second)).rejects.toThrow(/duplicate key/);
    expect(await queued(second.workflowId)).toBe(0);

    const command = startCommand();
    await orm.em.fork().transactional((tx) => enqueueWorkflowStart(tx, command));
    const orphan = randomUUID();
    await expect(insertWithWorkflowStart(orm.em.fork(), rowInsert(orphan), command)).rejects.toThrow(/duplicate key/);
    expect(await rowCount(orphan)).toBe(0);
  });

  it("joins the caller's transaction: a rollback leaves neither", async () => {
    const command = startCommand();
    const id = randomUUID();
    await expect(
      orm.em.fork().transactional(async (tx) => {
        await insertWithWorkflowStart(tx, rowInsert(id), command);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect([await rowCount(id), await queued(command.workflowId)]).toEqual([0, 0]);
  });
});

describe('createWorkflowOutbox', () => {
  it('dispatch starts the workflow with its summary; dispatching again is harmless (already started counts as done)', async () => {
    const outbox = createWorkflowOutbox({ em: orm.em, client });
    const command = startCommand();
    const { id } = await orm.em.fork().transactional((tx) => enqueueWorkflowStart(tx, command));
    expect(await outbox.dispatch([id])).toEqual({ dispatched: [id], failed: [] });
    const described = await client.workflow.getHandle(command.workflowId).describe();
    expect(described.type).toBe(command.workflowType);
    expect(described.taskQueue).toBe(taskQueue);
    expect(await described.staticSummary()).toBe('Outbox test');
    expect(await entry(id)).toMatchObject({ attempts: 1, lastError: null, dispatchedAt: expect.any(Date) });

    // The entry lost its mark (a crash after the start): the start is refused by Temporal, the entry counts as done.
    await orm.em.fork().nativeUpdate(WorkflowOutboxEntry, { id }, { dispatchedAt: null });
    expect(await outbox.dispatch([id])).toEqual({ dispatched: [id], failed: [] });
    expect((await client.workflow.getHandle(command.workflowId).describe()).runId).toBe(described.runId);
  });

  it('a signal reaches a running workflow; one for a workflow that does not exist counts as done', async () => {
    const outbox = createWorkflowOutbox({ em: orm.em, client });
    const command = startCommand();
    const ids = await orm.em.fork().transactional(async (tx) => [
      (await enqueueWorkflowStart(tx, command)).id,
      (await enqueueWorkflowSignal(tx, { workflowId: command.workflowId, signal: 'settled' })).id,
      (await enqueueWorkflowSignal(tx, { workflowId: `never-started-${randomUUID()}`, signal: 'settled' })).id,
    ]);
    const result = await outbox.dispatch(ids);
    expect([result.dispatched.toSorted(), result.failed]).toEqual([ids.toSorted(), []]);
    const history = await client.workflow.getHandle(command.workflowId).fetchHistory();
    expect(history.events?.filter((event) => event.workflowExecutionSignaledEventAttributes?.signalName === 'settled')).toHaveLength(1);
  });

  it("sends one workflow's entries in order and stops at its first failure: a signal is not sent, marked or lost after its start failed", async () => {
    const outbox = createWorkflowOutbox({ em: orm.em, client });
    const refused = { ...startCommand(), taskQueue: '' }; // Temporal refuses a start without a task queue
    const other = startCommand();
    const [start, signal, otherStart] = await orm.em.fork().transactional(async (tx) => [
      (await enqueueWorkflowStart(tx, refused)).id,
      (await enqueueWorkflowSignal(tx, { workflowId: refused.workflowId, signal: 'settled' })).id,
      (await enqueueWorkflowStart(tx, other)).id,
    ]);
    const result = await outbox.dispatch([signal, otherStart, start]);
    expect(result.dispatched).toEqual([otherStart]);
    expect(result.failed.toSorted()).toEqual([start, signal].toSorted());
    expect(await entry(start)).toMatchObject({ attempts: 1, dispatchedAt: null });
    expect(await entry(signal)).toMatchObject({ attempts: 0, dispatchedAt: null, lastError: null });
  });

  it('while Temporal is unreachable a dispatch fails and is recorded; the sweep dispatches it once Temporal answers', async () => {
    const down = createWorkflowOutbox({ em: orm.em, client: new Client({ connection: Connection.lazy({ address: '127.0.0.1:1' }) }), rpcTimeoutMs: 5_000 });
    const command = startCommand();
    const { id } = await orm.em.fork().transactional((tx) => enqueueWorkflowStart(tx, command));
    expect(await down.dispatch([id])).toEqual({ dispatched: [], failed: [id] });
    const failed = await entry(id);
    expect(failed).toMatchObject({ attempts: 1, dispatchedAt: null });
    expect(failed.lastError).toEqual(expect.any(String));

    const up = createWorkflowOutbox({ em: orm.em, client });
    expect((await up.sweep({ olderThanMs: 60_000 })).dispatched).not.toContain(id); // its after-commit turn is not over yet
    expect((await up.sweep({ olderThanMs: 0 })).dispatched).toContain(id);
    expect(await entry(id)).toMatchObject({ attempts: 2, lastError: null, dispatchedAt: expect.any(Date) });
    expect((await client.workflow.getHandle(command.workflowId).describe()).status.name).toBe('RUNNING');
  });

  it('drain sweeps batch after batch until the backlog is gone, and stops after one batch while Temporal is away', async () => {
    // 25 queued starts (and any older entry still due) in batches of 10: one call dispatches them all.
    const commands = Array.from({ length: 25 }, () => startCommand());
    const ids = await orm.em.fork().transactional(async (tx) => {
      const refs = [];
      for (const command of commands) refs.push((await enqueueWorkflowStart(tx, command)).id);
      return refs;
    });

    const down = createWorkflowOutbox({ em: orm.em, client: new Client({ connection: Connection.lazy({ address: '127.0.0.1:1' }) }), rpcTimeoutMs: 5_000 });
    // Each refused dispatch waits out its deadline, so a small batch: one, then drain waits for the next interval.
    const refused = await down.drain({ olderThanMs: 0, limit: 2 });
    expect(refused.dispatched).toEqual([]);
    expect(refused.failed).toHaveLength(2);

    const up = createWorkflowOutbox({ em: orm.em, client });
    await up.drain({ olderThanMs: 0, limit: 10 });
    for (const id of ids) expect(await entry(id)).toMatchObject({ dispatchedAt: expect.any(Date) });
    for (const command of commands) expect((await client.workflow.getHandle(command.workflowId).describe()).status.name).toBe('RUNNING');
  });

  it('after-commit dispatch runs in the background: the caller does not wait for a Temporal that never answers', async () => {
    const silent = await silentTemporal();
    try {
      const outbox = createWorkflowOutbox({ em: orm.em, client: silent.client, rpcTimeoutMs: 3_000 });
      const command = startCommand();
      const result = await transactionWithAfterCommit(orm.em.fork(), async (tx) => {
        const queued = await enqueueWorkflowStart(tx, command);
        return { result: queued, afterCommit: outbox.dispatchAfterCommit([queued]) };
      });
      // The transaction has returned while the dispatch is still waiting for an answer that never comes.
      let settled = false;
      const idle = outbox.idle().then(() => {
        settled = true;
      });
      expect(settled).toBe(false);
      await idle;
      expect(await entry(result.id)).toMatchObject({ attempts: 1, dispatchedAt: null });
    } finally {
      await silent.close();
    }
  });

  it('after-commit dispatch sends what the transaction wrote and marks a burst of entries dispatched, each once', async () => {
    const outbox = createWorkflowOutbox({ em: orm.em, client });
    const commands = Array.from({ length: 20 }, startCommand);
    const queued = await Promise.all(
      commands.map((command) =>
        transactionWithAfterCommit(orm.em.fork(), async (tx) => {
          const ref = await enqueueWorkflowStart(tx, command);
          return { result: ref, afterCommit: outbox.dispatchAfterCommit([ref]) };
        }),
      ),
    );
    await outbox.idle();
    for (const ref of queued) expect(await entry(ref.id)).toMatchObject({ attempts: 1, lastError: null, dispatchedAt: expect.any(Date) });
    for (const command of commands) expect((await client.workflow.getHandle(command.workflowId).describe()).status.name).toBe('RUNNING');
  });

  it('a start queued again (no command of its own) is dispatched from the committed row, with its first args', async () => {
    const outbox = createWorkflowOutbox({ em: orm.em, client });
    const command = startCommand();
    await orm.em.fork().transactional((tx) => enqueueWorkflowStart(tx, command));
    await transactionWithAfterCommit(orm.em.fork(), async (tx) => {
      const again = await enqueueWorkflowStart(tx, { ...command, args: [{ n: 2 }] });
      return { result: again, afterCommit: outbox.dispatchAfterCommit([again]) };
    });
    await outbox.idle();
    const history = await client.workflow.getHandle(command.workflowId).fetchHistory();
    const input = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0]?.data;
    expect(JSON.parse(Buffer.from(input!).toString('utf8'))).toEqual({ n: 1 });
  });

  it('a signal dispatched after its commit sends its workflow\'s queued start first, so the workflow exists and receives it', async () => {
    const outbox = createWorkflowOutbox({ em: orm.em, client });
    const command = startCommand();
    // The start is left queued (as bnpl leaves a widget session's expiry start to the sweeper).
    const start = await insertWithWorkflowStart(orm.em.fork(), { sql: 'insert into "outbox_test_rows" ("id", "name") values (?, ?)', params: [randomUUID(), 'left'] }, command);
    const other = startCommand();
    const unrelated = await orm.em.fork().transactional((tx) => enqueueWorkflowStart(tx, other));
    const signal = await transactionWithAfterCommit(orm.em.fork(), async (tx) => {
      const queued = await enqueueWorkflowSignal(tx, { workflowId: command.workflowId, signal: 'cancelled', args: [{ reason: 'test' }] });
      return { result: queued, afterCommit: outbox.dispatchAfterCommit([queued]) };
    });
    await outbox.idle();
    expect(await entry(start.id)).toMatchObject({ attempts: 1, dispatchedAt: expect.any(Date) });
    expect(await entry(signal.id)).toMatchObject({ attempts: 1, dispatchedAt: expect.any(Date) });
    // Only the signalled workflow's entries: another queued start stays for the sweeper.
    expect(await entry(unrelated.id)).toMatchObject({ attempts: 0, dispatchedAt: null });
    const events = (await client.workflow.getHandle(command.workflowId).fetchHistory()).events ?? [];
    const signalled = events.find((e) => e.workflowExecutionSignaledEventAttributes)?.workflowExecutionSignaledEventAttributes;
    expect(signalled?.signalName).toBe('cancelled');
    expect(events[0]?.workflowExecutionStartedEventAttributes).toBeTruthy();
  });

  it('dispatchAfterCommit has nothing to do for no entries', () => {
    expect(createWorkflowOutbox({ em: orm.em, client }).dispatchAfterCommit([undefined])).toBeUndefined();
  });
});

describe('transactionWithAfterCommit', () => {
  it('runs the after-commit work only after the commit, and returns the result', async () => {
    const seen: number[] = [];
    const command = startCommand();
    const result = await transactionWithAfterCommit(orm.em.fork(), async (tx) => {
      const queued = await enqueueWorkflowStart(tx, command);
      return {
        result: queued.id,
        // Another connection sees the row: the transaction has committed by then.
        afterCommit: async () => {
          seen.push(await orm.em.fork().count(WorkflowOutboxEntry, { id: queued.id }));
        },
      };
    });
    expect(seen).toEqual([1]);
    expect(await entry(result)).toMatchObject({ workflowId: command.workflowId });
  });

  it('runs nothing when the transaction does not commit', async () => {
    const command = startCommand();
    await orm.em.fork().transactional((tx) => enqueueWorkflowStart(tx, command));
    let ran = false;
    await expect(
      transactionWithAfterCommit(orm.em.fork(), async (tx) => {
        // Flushed at commit, where it violates the one-start-per-workflow-id index: the commit fails.
        tx.create(WorkflowOutboxEntry, { id: randomUUID(), kind: 'start', workflowId: command.workflowId, workflowType: 'x', taskQueue, args: [] });
        return {
          result: 1,
          afterCommit: async () => {
            ran = true;
          },
        };
      }),
    ).rejects.toThrow();
    expect(ran).toBe(false);
  });
});
