import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { WEBHOOK_SCHEDULES, webhookDeliveryWorkflowId } from '@tributary/workflows';
import { enqueueWebhookDelivery, generateStandardWebhookSecret, redeliverWebhook, verifySignature, verifyStandardWebhook, WebhookDelivery, WorkflowOutboxEntry } from '../../src/index.js';
import { enqueueAndDispatch, gaps, HOUR, loadDelivery, MINUTE, newWorker, outboxOf, startHarness, timeline } from './delivery-harness.js';
import type { Harness } from './delivery-harness.js';

// Wall-clock slack allowed on top of a scheduled delay between two attempts (activity and workflow task run time).
const SLACK_MS = 5_000;

let h: Harness;
beforeAll(async () => {
  h = await startHarness('wf_webhooks');
}, 120_000);
afterAll(async () => {
  await h?.close();
});

function expectGapsToMatch(actual: number[], expected: readonly number[]) {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((gap, i) => {
    expect(gap).toBeGreaterThanOrEqual(expected[i]!);
    expect(gap).toBeLessThan(expected[i]! + SLACK_MS);
  });
}

describe('webhook delivery workflow: schedules end to end', () => {
  it('bnpl: 9 attempts at once then after 1m,5m,15m,30m,1h,2h,4h,8h; identical signed bytes; failed after the 8th retry', async () => {
    expect(WEBHOOK_SCHEDULES.bnpl.delaysMs).toEqual([0, MINUTE, 5 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 4 * HOUR, 8 * HOUR]);
    const run = await enqueueAndDispatch(h, 'bnpl', { respond: () => ({ status: 500 }) });
    expect(run.delivery.workflowId).toBe(`webhook-bnpl-${run.eventId}-1`);
    const worker = await newWorker(h, 'bnpl');
    const result = await worker.runUntil(run.handle.result());
    expect(result).toEqual({ outcome: 'failed', attempts: 9 });

    const t = await timeline(run.handle);
    expect(t.timerDurations).toEqual([MINUTE, 5 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 4 * HOUR, 8 * HOUR]);
    expectGapsToMatch(gaps(t.attemptScheduledAt), WEBHOOK_SCHEDULES.bnpl.delaysMs.slice(1));
    const tail = t.attemptScheduledAt.at(-1)! - t.attemptScheduledAt[0]!;
    expect(tail).toBeGreaterThanOrEqual(15 * HOUR + 51 * MINUTE);
    expect(tail).toBeLessThan(15 * HOUR + 51 * MINUTE + SLACK_MS);

    const requests = h.receiver.requests;
    expect(requests).toHaveLength(9);
    const secret = h.secrets.get(run.secretRef)!;
    for (const request of requests) {
      expect(request.body.equals(run.body)).toBe(true);
      expect(request.headers['x-service-event']).toBe('loan.funded');
      expect(request.headers['x-gateway-signature']).toBeUndefined();
      expect(verifySignature(secret, request.body, String(request.headers['x-service-signature']))).toBe(true);
      expect(request.headers['content-type']).toBe('application/json');
    }

    const { delivery, attempts } = await loadDelivery(h, run.delivery.id);
    expect(delivery.status).toBe('failed');
    expect(delivery.attemptCount).toBe(9);
    expect(delivery.completedAt).toBeInstanceOf(Date);
    expect(delivery.nextAttemptAt).toBeNull();
    expect(attempts.map((a) => [a.attemptNumber, a.outcome, a.statusCode])).toEqual(
      Array.from({ length: 9 }, (_, i) => [i + 1, 'failed', 500]),
    );
    for (const attempt of attempts) {
      expect(attempt.error).toBe('HTTP 500');
      expect(attempt.durationMs).toBeGreaterThanOrEqual(0);
      expect(attempt.attemptedAt).toBeInstanceOf(Date);
    }
  });

  it('crypto: 6 attempts at once then after 1,2,4,8,16 min, X-Gateway headers, permanently failed with every attempt recorded', async () => {
    const run = await enqueueAndDispatch(h, 'crypto', { respond: () => ({ status: 503 }) });
    expect(run.delivery.workflowId).toBe(webhookDeliveryWorkflowId('crypto', run.eventId, 1));
    const worker = await newWorker(h, 'crypto');
    const result = await worker.runUntil(run.handle.result());
    expect(result).toEqual({ outcome: 'failed', attempts: 6 });

    const t = await timeline(run.handle);
    expect(t.timerDurations).toEqual([1, 2, 4, 8, 16].map((m) => m * MINUTE));
    expectGapsToMatch(gaps(t.attemptScheduledAt), [1, 2, 4, 8, 16].map((m) => m * MINUTE));

    const secret = h.secrets.get(run.secretRef)!;
    expect(h.receiver.requests).toHaveLength(6);
    for (const request of h.receiver.requests) {
      expect(request.body.equals(run.body)).toBe(true);
      expect(request.headers['x-gateway-event']).toBe('payment.paid');
      expect(verifySignature(secret, request.body, String(request.headers['x-gateway-signature']))).toBe(true);
    }
    const { delivery, attempts } = await loadDelivery(h, run.delivery.id);
    expect(delivery.status).toBe('failed');
    expect(attempts.map((a) => [a.attemptNumber, a.outcome, a.statusCode])).toEqual(Array.from({ length: 6 }, (_, i) => [i + 1, 'failed', 503]));
  });
});

describe('webhook delivery workflow: Standard Webhooks signatures (photos)', () => {
  it('photos: 8 attempts at once then after 5s,5m,30m,2h,5h,10h,10h; webhook-id is the event id on every attempt; each attempt verifies at its own time', async () => {
    expect(WEBHOOK_SCHEDULES.photos.delaysMs).toEqual([0, 5_000, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR]);
    const secret = generateStandardWebhookSecret();
    const run = await enqueueAndDispatch(h, 'photos', { respond: () => ({ status: 500 }), secret, eventName: 'photo.created' });
    const worker = await newWorker(h, 'photos');
    expect(await worker.runUntil(run.handle.result())).toEqual({ outcome: 'failed', attempts: 8 });
    expect((await timeline(run.handle)).timerDurations).toEqual(WEBHOOK_SCHEDULES.photos.delaysMs.slice(1));

    expect(h.receiver.requests).toHaveLength(8);
    for (const request of h.receiver.requests) {
      expect(request.body.equals(run.body)).toBe(true);
      expect(request.headers['webhook-event']).toBe('photo.created');
      expect(request.headers['webhook-id']).toBe(run.eventId);
      expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      expect(verifyStandardWebhook(secret, request.headers, request.body)).toEqual({ ok: true });
      expect(verifyStandardWebhook(generateStandardWebhookSecret(), request.headers, request.body)).toEqual({ ok: false, reason: 'bad_signature' });
    }
    expect((await loadDelivery(h, run.delivery.id)).delivery.signatureScheme).toBe('standard-webhooks');
  });
});

describe('webhook delivery workflow: outcomes', () => {
  it('a 2xx on a later attempt ends the delivery: no further attempts', async () => {
    let n = 0;
    const run = await enqueueAndDispatch(h, 'crypto', { respond: () => ({ status: ++n < 3 ? 500 : 202 }) });
    const worker = await newWorker(h, 'crypto');
    expect(await worker.runUntil(run.handle.result())).toEqual({ outcome: 'delivered', attempts: 3 });
    const t = await timeline(run.handle);
    expect(t.timerDurations).toEqual([MINUTE, 2 * MINUTE]);
    expect(h.receiver.requests).toHaveLength(3);
    const { delivery, attempts } = await loadDelivery(h, run.delivery.id);
    expect(delivery.status).toBe('delivered');
    expect(delivery.lastStatusCode).toBe(202);
    expect(attempts.map((a) => [a.outcome, a.statusCode])).toEqual([['failed', 500], ['failed', 500], ['delivered', 202]]);
  });

  it('signs each attempt with the secret current at send time (rotation between attempts)', async () => {
    let oldSecret = '';
    const run = await enqueueAndDispatch(h, 'bnpl', {
      secret: 'whsec_old_secret_value',
      respond: (req) => {
        if (req.index === 0) {
          oldSecret = 'whsec_old_secret_value';
          h.secrets.set(`endpoint_${req.path.split('/').pop()}`, 'whsec_new_secret_value');
          return { status: 500 };
        }
        return { status: 200 };
      },
    });
    const worker = await newWorker(h, 'bnpl');
    expect(await worker.runUntil(run.handle.result())).toEqual({ outcome: 'delivered', attempts: 2 });
    const [first, second] = h.receiver.requests;
    expect(oldSecret).toBe('whsec_old_secret_value');
    expect(first!.body.equals(second!.body)).toBe(true);
    const sig1 = String(first!.headers['x-service-signature']);
    const sig2 = String(second!.headers['x-service-signature']);
    expect(sig1).not.toBe(sig2);
    expect(verifySignature('whsec_old_secret_value', first!.body, sig1)).toBe(true);
    expect(verifySignature('whsec_new_secret_value', second!.body, sig2)).toBe(true);
    expect(verifySignature('whsec_old_secret_value', second!.body, sig2)).toBe(false);
  });

  it('renderBody: each attempt signs and sends the body rendered at its send time; the delivery keeps the last bytes sent', async () => {
    let status = 'paid';
    const run = await enqueueAndDispatch(h, 'crypto', {
      respond: (req) => {
        if (req.index > 0) return { status: 200 };
        status = 'overpaid';
        return { status: 500 };
      },
    });
    const render = async (delivery: WebhookDelivery) => JSON.stringify({ ...(JSON.parse(delivery.body) as object), status });
    const worker = await newWorker(h, 'crypto', undefined, render);
    expect(await worker.runUntil(run.handle.result())).toEqual({ outcome: 'delivered', attempts: 2 });
    const [first, second] = h.receiver.requests;
    const secret = h.secrets.get(run.secretRef)!;
    expect(JSON.parse(first!.body.toString('utf8'))).toEqual(JSON.parse(run.body.toString('utf8')));
    expect(JSON.parse(second!.body.toString('utf8'))).toEqual({ ...(JSON.parse(run.body.toString('utf8')) as object), status: 'overpaid' });
    expect(verifySignature(secret, second!.body, String(second!.headers['x-gateway-signature']))).toBe(true);
    expect((await loadDelivery(h, run.delivery.id)).delivery.body).toBe(second!.body.toString('utf8'));
  });

  it('a 3xx is a failed attempt and the redirect is not followed', async () => {
    const run = await enqueueAndDispatch(h, 'crypto', {
      respond: (req) => (req.index === 0 ? { status: 302, headers: { location: `${h.receiver.url}/elsewhere` } } : { status: 200 }),
    });
    const worker = await newWorker(h, 'crypto');
    expect(await worker.runUntil(run.handle.result())).toEqual({ outcome: 'delivered', attempts: 2 });
    expect(h.receiver.requests.map((r) => r.path)).toEqual([`/hooks/${run.eventId}`, `/hooks/${run.eventId}`]);
    const { attempts } = await loadDelivery(h, run.delivery.id);
    expect(attempts[0]).toMatchObject({ outcome: 'failed', statusCode: 302, errorKind: 'redirect' });
    expect(attempts[1]).toMatchObject({ outcome: 'delivered', statusCode: 200 });
  });

  it('a response slower than the per-attempt timeout is a failed attempt', async () => {
    const schedule = { ...WEBHOOK_SCHEDULES.crypto, name: 'crypto-fast-timeout', attemptTimeoutMs: 500 };
    const run = await enqueueAndDispatch(h, 'crypto', {
      schedule,
      respond: (req) => (req.index === 0 ? { status: 200, delayMs: 2_500 } : { status: 200 }),
    });
    const worker = await newWorker(h, 'crypto');
    expect(await worker.runUntil(run.handle.result())).toEqual({ outcome: 'delivered', attempts: 2 });
    const { attempts } = await loadDelivery(h, run.delivery.id);
    expect(attempts[0]).toMatchObject({ outcome: 'failed', statusCode: null, errorKind: 'timeout' });
    expect(attempts[0]!.durationMs).toBeGreaterThanOrEqual(450);
    expect(attempts[0]!.durationMs).toBeLessThan(2_500);
    expect(attempts[1]).toMatchObject({ outcome: 'delivered', statusCode: 200 });
    expect(h.receiver.requests).toHaveLength(2);
  });

  it('an unsafe destination at send time is a failed attempt, never a request', async () => {
    const run = await enqueueAndDispatch(h, 'crypto', { respond: () => ({ status: 200 }) });
    // Repoint the stored endpoint at the receiver by IP literal, which the sender's exemption ('localhost') does not cover.
    await h.orm.em.fork().nativeUpdate(WebhookDelivery, { id: run.delivery.id }, { endpointUrl: `https://127.0.0.1:${h.receiver.port}/hooks` });
    const worker = await newWorker(h, 'crypto');
    expect(await worker.runUntil(run.handle.result())).toEqual({ outcome: 'failed', attempts: 6 });
    expect(h.receiver.requests).toHaveLength(0);
    const { attempts } = await loadDelivery(h, run.delivery.id);
    expect(attempts).toHaveLength(6);
    expect(attempts.every((a) => a.errorKind === 'blocked' && a.statusCode === null)).toBe(true);
  });
});

describe('webhook delivery workflow: durability', () => {
  it('a worker stopped between attempts loses nothing: the delivery resumes on a new worker, without duplicates', async () => {
    const run = await enqueueAndDispatch(h, 'crypto', { respond: (req) => ({ status: req.index === 0 ? 500 : 200 }) });

    // No sticky cache: the Java test server does not move a dead worker's sticky tasks back to the shared queue
    // (a real cluster does after the sticky schedule-to-start timeout).
    const first = await newWorker(h, 'crypto', { maxCachedWorkflows: 0 });
    await first.runUntil(async () => {
      // Run until attempt 1 is recorded and the workflow waits on its durable 1-minute timer.
      for (;;) {
        const t = await timeline(run.handle);
        if (t.timerDurations.length === 1) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
    expect(first.getState()).toBe('STOPPED');
    expect(h.receiver.requests).toHaveLength(1);
    expect((await loadDelivery(h, run.delivery.id)).delivery.status).toBe('delivering');

    // No worker while the timer fires. (Past that point the test server stops skipping time: the workflow task
    // that the fired timer scheduled waits for a worker, so sleep only just past the timer.)
    await h.env.sleep(MINUTE + 2_000);
    const afterTimer = await timeline(run.handle);
    expect(afterTimer.events.some((e) => e.timerFiredEventAttributes)).toBe(true);
    expect(h.receiver.requests).toHaveLength(1);
    expect((await loadDelivery(h, run.delivery.id)).attempts).toHaveLength(1);

    const second = await newWorker(h, 'crypto');
    expect(await second.runUntil(run.handle.result())).toEqual({ outcome: 'delivered', attempts: 2 });
    expect(h.receiver.requests).toHaveLength(2);
    expect(h.receiver.requests[1]!.body.equals(run.body)).toBe(true);
    const { delivery, attempts } = await loadDelivery(h, run.delivery.id);
    expect(delivery.status).toBe('delivered');
    expect(attempts.map((a) => [a.attemptNumber, a.outcome])).toEqual([[1, 'failed'], [2, 'delivered']]);
  });

  it('an infrastructure error while recording retries the activity and records the attempt exactly once', async () => {
    const connection = h.orm.em.getConnection();
    let renamed = false;
    const run = await enqueueAndDispatch(h, 'crypto', {
      respond: (req) => {
        if (req.index === 0) {
          // The database loses the attempts table right after the send: recording fails, the activity throws.
          renamed = true;
          void connection.execute('alter table webhook_delivery_attempts rename to webhook_delivery_attempts_gone').then(() =>
            setTimeout(() => {
              void connection.execute('alter table webhook_delivery_attempts_gone rename to webhook_delivery_attempts');
            }, 300),
          );
        }
        return { status: 200, delayMs: req.index === 0 ? 100 : 0 };
      },
    });
    const worker = await newWorker(h, 'crypto');
    expect(await worker.runUntil(run.handle.result())).toEqual({ outcome: 'delivered', attempts: 1 });
    expect(renamed).toBe(true);
    const t = await timeline(run.handle);
    expect(t.attemptScheduledAt).toHaveLength(1);
    expect(t.activityAttempts[0]).toBeGreaterThan(1);
    // At least once: the retry sent the same bytes again, signed with the same secret.
    expect(h.receiver.requests.length).toBeGreaterThanOrEqual(2);
    for (const request of h.receiver.requests) expect(request.body.equals(run.body)).toBe(true);
    const { delivery, attempts } = await loadDelivery(h, run.delivery.id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ attemptNumber: 1, outcome: 'delivered' });
    expect(delivery.status).toBe('delivered');
  });
});

describe('enqueue, dispatch, sweep and re-send', () => {
  it('a double start is harmless, the outbox sweeper starts deliveries never dispatched, and a re-send is a new delivery of the same event', async () => {
    const service = 'crypto' as const;
    const eventId = `evt_${Date.now().toString(36)}`;
    h.secrets.set('merchant_1', 'whsec_sweeper');
    h.receiver.reset();
    h.receiver.setResponder(() => ({ status: 200 }));
    const body = JSON.stringify({ event: 'payment.expired', id: eventId, timestamp: '2025-01-01T00:00:00.000Z' });
    const outbox = outboxOf(h);

    // Committed, but the process "crashed" before dispatching: only the sweeper can start it.
    const { delivery, outboxEntry } = await h.orm.em.fork().transactional((tx) =>
      enqueueWebhookDelivery(tx, { service, eventId, eventName: 'payment.expired', endpointUrl: `${h.receiver.url}/hooks/sweep`, body, signingSecretRef: 'merchant_1' }),
    );
    expect(delivery).toMatchObject({ deliveryNumber: 1, status: 'queued', workflowId: `webhook-crypto-${eventId}-1` });
    expect((await outbox.sweep({ olderThanMs: 60_000 })).dispatched).toEqual([]); // too young to be swept
    expect((await outbox.sweep({ olderThanMs: 0 })).dispatched).toContain(outboxEntry.id);
    expect((await h.orm.em.fork().findOneOrFail(WorkflowOutboxEntry, { id: outboxEntry.id })).dispatchedAt).toBeInstanceOf(Date);
    // Dispatching again (e.g. the after-commit dispatch racing the sweeper) starts nothing new.
    expect(await outbox.dispatch([outboxEntry.id])).toEqual({ dispatched: [outboxEntry.id], failed: [] });

    const handle = h.env.client.workflow.getHandle(delivery.workflowId);
    const worker = await newWorker(h, service);
    await worker.runUntil(handle.result());
    expect(h.receiver.requests).toHaveLength(1);
    const firstRun = await handle.describe();
    expect(firstRun.status.name).toBe('COMPLETED');
    // The operator's summary in the Temporal UI: event, receiving host (never the path) and delivery number.
    const host = new URL(h.receiver.url).host;
    expect(await firstRun.staticSummary()).toBe(`crypto payment.expired to ${host} (delivery 1)`);
    expect(await firstRun.staticDetails()).toBe(`- delivery: ${delivery.id}\n- event id: ${eventId}\n- endpoint host: ${host}`);

    // Even if the entry lost its "dispatched" mark, starting the same workflow id again is refused by Temporal.
    await h.orm.em.fork().nativeUpdate(WorkflowOutboxEntry, { id: outboxEntry.id }, { dispatchedAt: null });
    expect((await outbox.sweep({ olderThanMs: 0 })).dispatched).toContain(outboxEntry.id);
    expect((await handle.describe()).runId).toBe(firstRun.runId);

    // Manual re-send: delivery number 2 of the same event, its own workflow, same bytes by default.
    const again = await h.orm.em.fork().transactional((tx) => redeliverWebhook(tx, delivery));
    expect(again.delivery).toMatchObject({ eventId, eventName: 'payment.expired', deliveryNumber: 2, redeliveryOf: delivery.id, workflowId: `webhook-crypto-${eventId}-2` });
    expect(await outbox.dispatch([again.outboxEntry.id])).toEqual({ dispatched: [again.outboxEntry.id], failed: [] });
    const second = await newWorker(h, service);
    expect(await second.runUntil(h.env.client.workflow.getHandle(again.delivery.workflowId).result())).toEqual({ outcome: 'delivered', attempts: 1 });
    expect(h.receiver.requests).toHaveLength(2);
    expect(h.receiver.requests[1]!.body.toString('utf8')).toBe(body);
    expect(verifySignature('whsec_sweeper', h.receiver.requests[1]!.body, String(h.receiver.requests[1]!.headers['x-gateway-signature']))).toBe(true);
    expect((await loadDelivery(h, delivery.id)).delivery.status).toBe('delivered');
    expect((await loadDelivery(h, again.delivery.id)).delivery.status).toBe('delivered');
  });
});
