// A create never waits on Temporal: the invoice's expiry workflow start is committed with the invoice (workflow
// outbox) and dispatched in the background. Here the service's Temporal is a server that accepts connections and
// never answers; the create still answers 201 at once, and once a Temporal that answers sweeps the outbox (what the
// worker does when Temporal is back), the workflow is there.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client, Connection } from '@temporalio/client';
import { WorkflowOutboxEntry, createWorkflowOutbox } from '@tributary/kit';
import { testTemporalAddress } from '@tributary/kit/testing';
import { invoiceWorkflowId } from '@tributary/workflows';
import { PaymentRequest } from '../src/modules/payment-requests/index.js';
import { createMerchant, startHarness, type Harness, type TestMerchant } from './helpers.js';

let silent: Server;
const sockets = new Set<Socket>();
let h: Harness;
let merchant: TestMerchant;
let connection: Connection;

beforeAll(async () => {
  silent = createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  h = await startHarness({ env: { TEMPORAL_ADDRESS: `127.0.0.1:${(silent.address() as { port: number }).port}` } });
  merchant = await createMerchant(h, 'Temporal down');
  connection = await Connection.connect({ address: testTemporalAddress() });
});
afterAll(async () => {
  // Stop listening first, so the service's pending dispatch fails (connection refused) instead of waiting again.
  const closed = new Promise((resolve) => silent?.close(resolve));
  for (const socket of sockets) socket.destroy();
  await closed;
  await h?.close();
  await connection?.close();
});

describe('invoice creates while Temporal does not answer', () => {
  it('answer 201 without waiting; the sweep, once Temporal answers, starts the expiry workflow', async () => {
    const res = await fetch(`${h.service.url}/api/merchant/v1/payment-requests`, {
      method: 'POST',
      headers: { authorization: `Bearer ${merchant.key}`, accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ asset_id: 1, title: 'While Temporal is down', amount: '0.01' }),
    });
    expect(res.status).toBe(201);
    const slug = ((await res.json()) as { payment_request: { id: string } }).payment_request.id;
    const request = await h.orm.em.fork().findOneOrFail(PaymentRequest, { slug });
    const workflowId = invoiceWorkflowId(request);
    expect(await h.orm.em.fork().findOneOrFail(WorkflowOutboxEntry, { workflowId, kind: 'start' })).toMatchObject({ dispatchedAt: null });

    const client = new Client({ connection });
    const swept = await createWorkflowOutbox({ em: h.orm.em, client }).sweep({ olderThanMs: 0 });
    expect(swept.failed).toEqual([]);
    const handle = client.workflow.getHandle(workflowId);
    const described = await handle.describe();
    expect(described.type).toBe('invoiceExpiryWorkflow');
    expect(await described.staticSummary()).toMatch(new RegExp(`^Invoice ${request.id}: 0\\.01 BTC, expires `));
    expect(await h.orm.em.fork().findOneOrFail(WorkflowOutboxEntry, { workflowId, kind: 'start' })).toMatchObject({ dispatchedAt: expect.any(Date) });
    // No crypto worker for this test's database polls the dev server: end the workflow here.
    await handle.terminate('test over');
  });
});
