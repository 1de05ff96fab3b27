// bnpl's webhooks end to end: a loan booked through the entities, its event queued by the loan webhook sink inside a
// transaction (transactionWithAfterCommit, dispatched after the commit through the workflow outbox), bnpl's own worker
// (startWorker: the kit's delivery workflow with bnpl's signing-secret resolver) on a real time-skipping Temporal
// server, and a real local HTTPS receiver. Then the deliveries as the merchant sees them in GraphQL, and re-sends.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import {
  WebhookDelivery,
  WebhookDeliveryAttempt,
  WorkflowOutboxEntry,
  createLogger,
  createWorkflowOutbox,
  generateSecretBoxKey,
  transactionWithAfterCommit,
  verifySignature,
  type WorkflowOutbox,
} from '@tributary/kit';
import { startHttpsReceiver, waitFor, type HttpsReceiver, type ReceivedRequest } from '@tributary/kit/testing';
import { WEBHOOK_SCHEDULES, type WebhookDeliveryWorkflowInput } from '@tributary/workflows';
import { startTimeSkippingEnvironment } from '@tributary/workflows/testing';
import { ApiKey, generateKeyPair, hashSecretKey } from '../src/modules/api-keys/index.js';
import { BOOKED_LOAN_STATUS, Loan, generateLoanNumber, type LoanEventName } from '../src/modules/loans/index.js';
import { Merchant } from '../src/modules/merchants/index.js';
import { WEBHOOK_SIGNATURE_VERIFICATION_SNIPPET, WebhookEndpoint } from '../src/modules/webhook-endpoints/index.js';
import { WidgetSession, generateSessionToken } from '../src/modules/widget-sessions/index.js';
import {
  EMITTED_WEBHOOK_EVENTS,
  RESERVED_WEBHOOK_EVENTS,
  WEBHOOK_EVENT_NAMES,
  WebhookDeliveryService,
  createLoanWebhookSink,
  createMerchantWebhookEmitter,
  webhookEventId,
  type EmittedWebhookEvent,
} from '../src/modules/webhooks/index.js';
import { startWorker, type RunningWorker } from '../src/worker.js';
import { createMerchant, gql, startHarness, type Harness, type TestMerchant } from './helpers.js';

type TimeSkippingEnvironment = Awaited<ReturnType<typeof startTimeSkippingEnvironment>>;

const KEY = generateSecretBoxKey();
const PRIVATE_HOSTS = ['localhost', '127.0.0.1'];
const LOAN_DATA_KEYS = ['loan_id', 'loan_number', 'merchant_id', 'principal_cents', 'total_cents', 'currency', 'status', 'purchase_reference', 'disbursed_at'];
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let env: TimeSkippingEnvironment;
let h: Harness;
let receiver: HttpsReceiver;
let worker: RunningWorker;
let outbox: WorkflowOutbox;

beforeAll(async () => {
  env = await startTimeSkippingEnvironment();
  // The service's own outbox (re-sends) dispatches to the same server the worker polls.
  h = await startHarness({ env: { WEBHOOK_ALLOW_PRIVATE_HOSTS: PRIVATE_HOSTS.join(','), SECRETS_ENCRYPTION_KEY: KEY, TEMPORAL_ADDRESS: env.address } });
  receiver = await startHttpsReceiver();
  const logger = createLogger({ service: 'bnpl', level: 'silent' });
  worker = await startWorker({
    orm: h.orm,
    logger,
    config: { TEMPORAL_ADDRESS: env.address, TEMPORAL_NAMESPACE: env.namespace ?? 'default', WEBHOOK_ALLOW_PRIVATE_HOSTS: PRIVATE_HOSTS },
    env: { SECRETS_ENCRYPTION_KEY: KEY },
  });
  outbox = createWorkflowOutbox({ em: h.orm.em, client: env.client, logger });
}, 180_000);

afterAll(async () => {
  await outbox?.idle();
  await worker?.shutdown();
  await env?.teardown();
  await receiver?.close();
  await h?.close();
});

interface Endpoint {
  id: string;
  secret: string;
}

async function registerEndpoint(merchant: TestMerchant, path: string, events: readonly string[], isActive = true): Promise<Endpoint> {
  const res = await fetch(`${h.service.url}/api/v1/merchant/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${merchant.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${receiver.url}${path}`, events, is_active: isActive }),
  });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { id: string; secret: string };
  return { id: body.id, secret: body.secret };
}

/** A booked loan as checkout leaves it (its session authorized), made through the entities. */
async function bookLoan(merchant: TestMerchant, orderReference: string): Promise<Loan> {
  const em = h.orm.em.fork();
  const owner = em.getReference(Merchant, merchant.merchant.id);
  const now = new Date();
  const session = em.create(WidgetSession, {
    token: generateSessionToken(),
    merchant: owner,
    livemode: false,
    status: 'authorized',
    amountCents: 12_000,
    currency: 'USD',
    orderReference,
    customerEmail: 'shopper@example.com',
    successUrl: 'https://shop.example.com/ok',
    cancelUrl: 'https://shop.example.com/cancel',
    expiresAt: new Date(now.getTime() + 30 * MINUTE),
    authorizedAt: now,
  });
  const loan = em.create(Loan, {
    loanNumber: generateLoanNumber(),
    merchant: owner,
    session,
    livemode: false,
    status: BOOKED_LOAN_STATUS,
    planId: 'pay_in_4',
    principalCents: 12_000,
    feeCents: 0,
    totalCents: 12_000,
    currency: 'USD',
    purchaseReference: orderReference,
    customerEmail: 'shopper@example.com',
  });
  await em.flush();
  return loan;
}

/** The sink inside the transaction that changed the loan; its deliveries are dispatched after the commit. */
async function emitLoanEvent(loanId: string, event: LoanEventName, options: { dispatch?: boolean } = {}): Promise<WebhookDelivery[]> {
  const sink = createLoanWebhookSink({ outbox: options.dispatch === false ? undefined : outbox });
  await transactionWithAfterCommit(h.orm.em.fork(), async (tx) => {
    const loan = await tx.findOneOrFail(Loan, { id: loanId }, { populate: ['merchant'] });
    return { result: undefined, afterCommit: await sink.emit(tx, loan, event) };
  });
  await outbox.idle();
  return h.orm.em.fork().find(WebhookDelivery, { eventId: webhookEventId(event, loanId) }, { orderBy: { deliveryNumber: 'asc' } });
}

const resultOf = (delivery: WebhookDelivery) => env.client.workflow.getHandle(delivery.workflowId).result();
const forPath = (path: string): ReceivedRequest[] => receiver.requests.filter((r) => r.path === path);
const attemptsOf = (deliveryId: string) => h.orm.em.fork().find(WebhookDeliveryAttempt, { deliveryId }, { orderBy: { attemptNumber: 'asc' } });
const startOf = (delivery: WebhookDelivery) => h.orm.em.fork().findOneOrFail(WorkflowOutboxEntry, { workflowId: delivery.workflowId, kind: 'start' });

/** The receiver's check, written out: HMAC-SHA256 of the RAW bytes with the endpoint's secret, compared in constant time. */
function signatureVerifies(secret: string, request: ReceivedRequest): boolean {
  const given = String(request.headers['x-service-signature'] ?? '');
  if (!/^[0-9a-f]{64}$/.test(given)) return false;
  return timingSafeEqual(createHmac('sha256', secret).update(request.body).digest(), Buffer.from(given, 'hex'));
}

/** Runs WEBHOOK_SIGNATURE_VERIFICATION_SNIPPET as is in a Node process (express from the bnpl package) on a free port. */
async function startSnippetReceiver(secret: string): Promise<{ url: string; stop(): void }> {
  const code = `${WEBHOOK_SIGNATURE_VERIFICATION_SNIPPET}\nconst server = app.listen(0, '127.0.0.1', () => console.log(server.address().port));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: { PATH: process.env.PATH, BNPL_WEBHOOK_SECRET: secret },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString('utf8').trim())));
    child.once('exit', (exitCode) => reject(new Error(`the snippet exited with ${exitCode}`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

function durationMs(value: { seconds?: unknown; nanos?: number | null } | null | undefined): number {
  return Number(value?.seconds ?? 0) * 1000 + Math.round((value?.nanos ?? 0) / 1e6);
}

describe('the loan webhook sink → bnpl worker → HTTPS receiver', () => {
  let shop: TestMerchant;
  let active: Endpoint;
  let loan: Loan;
  let delivered: WebhookDelivery;

  it('delivers loan.authorized exactly once to the one active subscribed endpoint: spec headers, envelope and data, signed over the raw bytes', async () => {
    shop = await createMerchant(h, 'Delivery Shop');
    const neighbour = await createMerchant(h, 'Neighbour Shop');
    active = await registerEndpoint(shop, '/active', ['loan.authorized']);
    const inactive = await registerEndpoint(shop, '/inactive', ['loan.authorized'], false);
    await registerEndpoint(shop, '/unsubscribed', ['loan.funded', 'loan.completed', ...RESERVED_WEBHOOK_EVENTS]);
    await registerEndpoint(neighbour, '/neighbour', [...WEBHOOK_EVENT_NAMES]);
    loan = await bookLoan(shop, 'order-1001');
    receiver.reset();
    receiver.setResponder(() => ({ status: 200 }));

    const deliveries = await emitLoanEvent(loan.id, 'loan.authorized');
    expect(deliveries).toHaveLength(1);
    delivered = deliveries[0]!;
    expect(delivered).toMatchObject({
      service: 'bnpl',
      eventId: `loan.authorized:${loan.id}`,
      eventName: 'loan.authorized',
      deliveryNumber: 1,
      endpointId: active.id,
      endpointUrl: `${receiver.url}/active`,
      ownerId: shop.merchant.id,
      eventHeader: 'X-Service-Event',
      signatureHeader: 'X-Service-Signature',
      signingSecretRef: `webhook_endpoint:${active.id}`,
    });
    // Queued with bnpl's schedule and started after the commit, through the outbox.
    const start = await startOf(delivered);
    expect(start.dispatchedAt).toEqual(expect.any(Date));
    expect((start.args as [WebhookDeliveryWorkflowInput])[0]).toEqual({ service: 'bnpl', deliveryId: delivered.id, schedule: WEBHOOK_SCHEDULES.bnpl });

    await expect(resultOf(delivered)).resolves.toEqual({ outcome: 'delivered', attempts: 1 });
    expect(receiver.requests).toHaveLength(1);
    const [request] = forPath('/active');
    expect(request!.method).toBe('POST');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['x-service-event']).toBe('loan.authorized');
    expect(request!.headers['x-service-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(signatureVerifies(active.secret, request!)).toBe(true);
    expect(verifySignature(active.secret, request!.body, String(request!.headers['x-service-signature']))).toBe(true);
    expect(signatureVerifies(inactive.secret, request!)).toBe(false);
    expect(request!.body.toString('utf8')).toBe(delivered.body);

    const envelope = JSON.parse(request!.body.toString('utf8')) as { event: string; timestamp: string; data: Record<string, unknown> };
    expect(Object.keys(envelope)).toEqual(['event', 'timestamp', 'data']);
    expect(envelope.event).toBe('loan.authorized');
    expect(envelope.timestamp).toMatch(ISO);
    expect(Object.keys(envelope.data)).toEqual(LOAN_DATA_KEYS);
    expect(envelope.data).toEqual({
      loan_id: loan.id,
      loan_number: loan.loanNumber,
      merchant_id: shop.merchant.id,
      principal_cents: 12_000,
      total_cents: 12_000,
      currency: 'USD',
      status: 'approved',
      purchase_reference: 'order-1001',
      disbursed_at: null,
    });

    const attempts = await attemptsOf(delivered.id);
    expect(attempts).toEqual([expect.objectContaining({ attemptNumber: 1, outcome: 'delivered', statusCode: 200 })]);
    expect(await h.orm.em.fork().findOneOrFail(WebhookDelivery, { id: delivered.id })).toMatchObject({ status: 'delivered', attemptCount: 1 });
  }, 60_000);

  it('the documented receiver code (README and /docs) accepts the real delivery and refuses a tampered or unsigned one', async () => {
    const [request] = forPath('/active');
    const snippet = await startSnippetReceiver(active.secret);
    try {
      const post = (body: Buffer, signature?: string) =>
        fetch(`${snippet.url}/hooks/bnpl`, { method: 'POST', headers: { 'content-type': 'application/json', ...(signature ? { 'x-service-signature': signature } : {}) }, body });
      const signature = String(request!.headers['x-service-signature']);
      expect((await post(request!.body, signature)).status).toBe(204);
      const tampered = Buffer.from(request!.body.toString('utf8').replace('"principal_cents":12000', '"principal_cents":12001'));
      expect(tampered.equals(request!.body)).toBe(false);
      expect((await post(tampered, signature)).status).toBe(401);
      expect((await post(request!.body)).status).toBe(401);
      expect((await post(request!.body, signature.toUpperCase())).status).toBe(401);
    } finally {
      snippet.stop();
    }
  });

  it('an inactive endpoint, an endpoint not subscribed to the event and another merchant’s endpoint get no delivery at all', async () => {
    const rows = await h.orm.em.fork().find(WebhookDelivery, {});
    expect(rows.map((row) => row.endpointId)).toEqual([active.id]);
    expect(forPath('/inactive')).toEqual([]);
    expect(forPath('/unsubscribed')).toEqual([]);
    expect(forPath('/neighbour')).toEqual([]);
  });

  it('sends every endpoint subscribed to the event its own delivery of the one event (same id, delivery numbers 1, 2)', async () => {
    const merchant = await createMerchant(h, 'Two Endpoints');
    const first = await registerEndpoint(merchant, '/two-a', ['loan.authorized']);
    const second = await registerEndpoint(merchant, '/two-b', ['loan.completed', 'loan.authorized']);
    const booked = await bookLoan(merchant, 'order-2');
    const deliveries = await emitLoanEvent(booked.id, 'loan.authorized');
    expect(deliveries.map((d) => [d.endpointId, d.deliveryNumber])).toEqual([
      [first.id, 1],
      [second.id, 2],
    ]);
    expect(deliveries[0]!.body).toBe(deliveries[1]!.body);
    for (const d of deliveries) await expect(resultOf(d)).resolves.toEqual({ outcome: 'delivered', attempts: 1 });
    expect(signatureVerifies(first.secret, forPath('/two-a')[0]!)).toBe(true);
    expect(signatureVerifies(second.secret, forPath('/two-b')[0]!)).toBe(true);
    expect(signatureVerifies(first.secret, forPath('/two-b')[0]!)).toBe(false);
  }, 60_000);

  it('queues nothing (and contacts no one) when no active endpoint subscribes', async () => {
    const merchant = await createMerchant(h, 'Quiet Shop');
    await registerEndpoint(merchant, '/quiet', ['installment.paid']);
    const booked = await bookLoan(merchant, 'order-3');
    const sink = createLoanWebhookSink({ outbox });
    const afterCommit = await h.orm.em.fork().transactional(async (tx) => sink.emit(tx, await tx.findOneOrFail(Loan, { id: booked.id }, { populate: ['merchant'] }), 'loan.authorized'));
    expect(afterCommit).toBeUndefined();
    expect(await h.orm.em.fork().count(WebhookDelivery, { ownerId: merchant.merchant.id })).toBe(0);
  });
});

describe('reserved events', () => {
  it('are never emitted: the emitter refuses a reserved name and queues nothing', async () => {
    const merchant = await createMerchant(h, 'Reserved Shop');
    await registerEndpoint(merchant, '/reserved', [...WEBHOOK_EVENT_NAMES]);
    const emitter = createMerchantWebhookEmitter({ outbox });
    for (const name of RESERVED_WEBHOOK_EVENTS) {
      await expect(
        h.orm.em.fork().transactional((tx) => emitter.emitMerchantEvent(tx, merchant.merchant.id, name as unknown as EmittedWebhookEvent, crypto.randomUUID(), {})),
      ).rejects.toThrow(`${name} is not an emitted webhook event`);
    }
    expect(await h.orm.em.fork().count(WebhookDelivery, { ownerId: merchant.merchant.id })).toBe(0);
    const names = await h.orm.em.getConnection().execute<Array<{ event_name: string }>>('select distinct event_name from webhook_deliveries');
    for (const { event_name: name } of names) expect(EMITTED_WEBHOOK_EVENTS).toContain(name);
  });
});

describe('retries', () => {
  it('follow the spec: after 1 m, 5 m, 15 m, 30 m, 1 h, 2 h, 4 h, 8 h, 15 s per attempt (the constants)', () => {
    expect(WEBHOOK_SCHEDULES.bnpl.delaysMs).toEqual([0, 1 * MINUTE, 5 * MINUTE, 15 * MINUTE, 30 * MINUTE, 1 * HOUR, 2 * HOUR, 4 * HOUR, 8 * HOUR]);
    expect(WEBHOOK_SCHEDULES.bnpl.attemptTimeoutMs).toBe(15_000);
  });

  it('a receiver answering 500 gets the first attempt and 8 retries on that schedule, every attempt recorded; then the delivery is failed', async () => {
    const merchant = await createMerchant(h, 'Failing Shop');
    const endpoint = await registerEndpoint(merchant, '/fail', ['loan.funded']);
    const booked = await bookLoan(merchant, 'order-4');
    receiver.setResponder((request) => ({ status: request.path === '/fail' ? 500 : 200 }));
    const [delivery] = await emitLoanEvent(booked.id, 'loan.funded');
    await expect(resultOf(delivery!)).resolves.toEqual({ outcome: 'failed', attempts: 9 });

    const history = await env.client.workflow.getHandle(delivery!.workflowId).fetchHistory();
    const timers = (history.events ?? []).filter((e) => e.timerStartedEventAttributes).map((e) => durationMs(e.timerStartedEventAttributes!.startToFireTimeout));
    expect(timers).toEqual(WEBHOOK_SCHEDULES.bnpl.delaysMs.slice(1));
    const attempts = await attemptsOf(delivery!.id);
    expect(attempts.map((a) => [a.attemptNumber, a.outcome, a.statusCode])).toEqual(Array.from({ length: 9 }, (_, i) => [i + 1, 'failed', 500]));
    expect(await h.orm.em.fork().findOneOrFail(WebhookDelivery, { id: delivery!.id })).toMatchObject({ status: 'failed', attemptCount: 9, lastStatusCode: 500 });
    const received = forPath('/fail');
    expect(received).toHaveLength(9);
    for (const request of received) {
      expect(request.body.toString('utf8')).toBe(delivery!.body);
      expect(signatureVerifies(endpoint.secret, request)).toBe(true);
    }
    receiver.setResponder(() => ({ status: 200 }));
  }, 120_000);

  it('the send-time SSRF check refuses an address that is not public even if a stored URL got past the save-time check', async () => {
    const merchant = await createMerchant(h, 'Private Shop');
    const endpoint = await registerEndpoint(merchant, '/private', ['loan.authorized']);
    await h.orm.em.fork().nativeUpdate(WebhookEndpoint, { id: endpoint.id }, { url: 'https://10.20.30.40/hooks' });
    const booked = await bookLoan(merchant, 'order-7');
    const [delivery] = await emitLoanEvent(booked.id, 'loan.authorized');
    expect(delivery!.endpointUrl).toBe('https://10.20.30.40/hooks');
    await expect(resultOf(delivery!)).resolves.toEqual({ outcome: 'failed', attempts: 9 });
    for (const attempt of await attemptsOf(delivery!.id)) {
      expect(attempt).toMatchObject({ outcome: 'failed', statusCode: null, errorKind: 'blocked', remoteAddress: null });
    }
  }, 120_000);

  it('a deleted endpoint’s queued delivery is never sent unsigned: every attempt is recorded failed and nothing arrives', async () => {
    const merchant = await createMerchant(h, 'Deleting Shop');
    const endpoint = await registerEndpoint(merchant, '/deleted', ['loan.completed']);
    const booked = await bookLoan(merchant, 'order-5');
    // Queued without dispatch, then the endpoint is deleted before the first attempt.
    const [delivery] = await emitLoanEvent(booked.id, 'loan.completed', { dispatch: false });
    const removed = await fetch(`${h.service.url}/api/v1/merchant/webhooks/${endpoint.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${merchant.token}` } });
    expect(removed.status).toBe(204);
    await outbox.dispatch([(await startOf(delivery!)).id]);
    await expect(resultOf(delivery!)).resolves.toEqual({ outcome: 'failed', attempts: 9 });
    const attempts = await attemptsOf(delivery!.id);
    expect(attempts).toHaveLength(9);
    for (const attempt of attempts) expect(attempt).toMatchObject({ outcome: 'failed', statusCode: null, error: 'no signing secret for this endpoint' });
    expect(forPath('/deleted')).toEqual([]);
  }, 120_000);
});

describe('deliveries for the merchant (GraphQL) and operators (WebhookDeliveryService)', () => {
  const DELIVERY = 'id event eventId deliveryNumber redeliveryOf webhookEndpointId endpointUrl status attemptCount lastStatusCode body createdAt completedAt nextAttemptAt attempts { attemptNumber outcome statusCode error attemptedAt durationMs }';
  let shop: TestMerchant;
  let endpoint: Endpoint;
  let original: WebhookDelivery;

  beforeAll(async () => {
    shop = await createMerchant(h, 'Dashboard Shop');
    endpoint = await registerEndpoint(shop, '/dash', ['loan.authorized']);
    const booked = await bookLoan(shop, 'order-6');
    [original] = (await emitLoanEvent(booked.id, 'loan.authorized')) as [WebhookDelivery];
    await resultOf(original);
  }, 60_000);

  const dt = (merchant: TestMerchant) => ({ authorization: `Bearer ${merchant.token}` });
  const redeliver = (merchant: TestMerchant, id: string) =>
    gql(h.service.url, `mutation ($id: ID!) { redeliverBnplWebhookDelivery(id: $id) { ${DELIVERY} } }`, dt(merchant), { id });

  it('bnplMerchant.webhookDeliveries lists the merchant’s own deliveries with their attempts, newest first', async () => {
    const res = await gql(h.service.url, `{ bnplMerchant { webhookDeliveries { ${DELIVERY} } } }`, dt(shop));
    expect(res.body.errors).toBeUndefined();
    const deliveries = (res.body.data!.bnplMerchant as { webhookDeliveries: Array<Record<string, unknown>> }).webhookDeliveries;
    expect(deliveries).toEqual([
      {
        id: original.id,
        event: 'loan.authorized',
        eventId: original.eventId,
        deliveryNumber: 1,
        redeliveryOf: null,
        webhookEndpointId: endpoint.id,
        endpointUrl: `${receiver.url}/dash`,
        status: 'delivered',
        attemptCount: 1,
        lastStatusCode: 200,
        body: original.body,
        createdAt: expect.stringMatching(ISO),
        completedAt: expect.stringMatching(ISO),
        nextAttemptAt: null,
        attempts: [{ attemptNumber: 1, outcome: 'delivered', statusCode: 200, error: null, attemptedAt: expect.stringMatching(ISO), durationMs: expect.any(Number) }],
      },
    ]);
    const limited = await gql(h.service.url, '{ bnplMerchant { webhookDeliveries(limit: 0) { id } } }', dt(shop));
    expect(limited.body.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { limit: ['Must be an integer between 1 and 100.'] } });
  });

  it('re-sends one to the endpoint’s current URL: a new delivery of the same event with the same body bytes, signed with the endpoint’s secret', async () => {
    const moved = await fetch(`${h.service.url}/api/v1/merchant/webhooks/${endpoint.id}`, {
      method: 'PUT',
      headers: { ...dt(shop), 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${receiver.url}/dash-moved`, events: ['loan.authorized'], is_active: true }),
    });
    expect(moved.status).toBe(200);
    const res = await redeliver(shop, original.id);
    expect(res.body.errors).toBeUndefined();
    const again = res.body.data!.redeliverBnplWebhookDelivery as Record<string, unknown>;
    expect(again).toMatchObject({ event: 'loan.authorized', eventId: original.eventId, deliveryNumber: 2, redeliveryOf: original.id, webhookEndpointId: endpoint.id, endpointUrl: `${receiver.url}/dash-moved`, status: 'queued', attemptCount: 0, attempts: [], body: original.body });
    const row = await h.orm.em.fork().findOneOrFail(WebhookDelivery, { id: String(again.id) });
    // Dispatched after the commit by the service's own outbox.
    await waitFor(() => startOf(row), (entry) => entry.dispatchedAt != null, 10_000);
    await expect(resultOf(row)).resolves.toEqual({ outcome: 'delivered', attempts: 1 });
    const [request] = forPath('/dash-moved');
    expect(request!.body.equals(forPath('/dash')[0]!.body)).toBe(true);
    expect(signatureVerifies(endpoint.secret, request!)).toBe(true);
    expect(request!.headers['x-service-event']).toBe('loan.authorized');
  }, 60_000);

  it('another merchant’s or an unknown delivery is NOT_FOUND; an inactive or deleted endpoint cannot be re-sent to; an API key pair is FORBIDDEN', async () => {
    const stranger = await createMerchant(h, 'Stranger');
    const count = await h.orm.em.fork().count(WebhookDelivery, {});
    for (const id of [original.id, crypto.randomUUID(), 'nope']) {
      expect((await redeliver(stranger, id)).body.errors![0]!.extensions).toMatchObject({ code: 'NOT_FOUND' });
    }
    const strangerList = await gql(h.service.url, '{ bnplMerchant { webhookDeliveries { id } } }', dt(stranger));
    expect(strangerList.body.data).toEqual({ bnplMerchant: { webhookDeliveries: [] } });

    const endpointRow = () => h.orm.em.fork().findOneOrFail(WebhookEndpoint, { id: endpoint.id });
    const pause = await fetch(`${h.service.url}/api/v1/merchant/webhooks/${endpoint.id}`, {
      method: 'PUT',
      headers: { ...dt(shop), 'content-type': 'application/json' },
      body: JSON.stringify({ url: (await endpointRow()).url, events: ['loan.authorized'], is_active: false }),
    });
    expect(pause.status).toBe(200);
    const inactive = await redeliver(shop, original.id);
    expect(inactive.body.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'endpoint_inactive' });
    await fetch(`${h.service.url}/api/v1/merchant/webhooks/${endpoint.id}`, { method: 'DELETE', headers: dt(shop) });
    const deleted = await redeliver(shop, original.id);
    expect(deleted.body.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'endpoint_deleted' });

    const em = h.orm.em.fork();
    const pair = generateKeyPair('test');
    em.create(ApiKey, { merchant: em.getReference(Merchant, shop.merchant.id), name: 'server', environment: 'test', publicKey: pair.publicKey, secretKeyHash: await hashSecretKey(pair.secretKey), revokedAt: null });
    await em.flush();
    const keys = { authorization: `Bearer ${pair.secretKey}`, 'x-merchant-public-key': pair.publicKey };
    const viaKeys = await gql(h.service.url, '{ bnplMerchant { webhookDeliveries { id } } }', keys);
    expect(viaKeys.body.errors![0]!.extensions).toMatchObject({ code: 'FORBIDDEN' });
    const resendViaKeys = await gql(h.service.url, 'mutation ($id: ID!) { redeliverBnplWebhookDelivery(id: $id) { id } }', keys, { id: original.id });
    expect(resendViaKeys.body.errors![0]!.extensions).toMatchObject({ code: 'FORBIDDEN' });
    expect(await h.orm.em.fork().count(WebhookDelivery, {})).toBe(count);
  });

  it('operators read every merchant’s deliveries (or one merchant’s), one with its attempts, and re-send under the same rules', async () => {
    const service = new WebhookDeliveryService(h.orm.em.fork(), outbox);
    const all = await service.recent({}, 100);
    const owners = new Set(all.map(({ delivery }) => delivery.ownerId));
    expect(owners.size).toBeGreaterThan(2);
    const mine = await service.recent({ merchantId: shop.merchant.id });
    expect(mine.map(({ delivery }) => delivery.ownerId)).toEqual(mine.map(() => shop.merchant.id));
    expect(mine.map(({ delivery }) => delivery.deliveryNumber)).toEqual([2, 1]);
    await expect(service.recent({}, 101)).rejects.toMatchObject({ fields: { limit: ['Must be an integer between 1 and 100.'] } });
    const one = await service.get(original.id);
    expect(one.attempts.map((a) => a.outcome)).toEqual(['delivered']);
    await expect(service.get(original.id, { merchantId: crypto.randomUUID() })).rejects.toThrow(/No webhook delivery/);
    // Unscoped, the operator finds any merchant's delivery; its endpoint was deleted above, so the same rule refuses it.
    await expect(service.redeliver(original.id)).rejects.toMatchObject({ code: 'endpoint_deleted' });
    await expect(service.redeliver(original.id, { merchantId: crypto.randomUUID() })).rejects.toThrow(/No webhook delivery/);
  });
});
