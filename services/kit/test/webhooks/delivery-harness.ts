// Set-up of the webhook delivery workflow tests (the kit's engine end to end): a real PostgreSQL database (the service's tables created by the
// kit's migration), a real HTTPS receiver, the time-skipping Temporal test server and the real kit activities.
import { randomUUID } from 'node:crypto';
import { tsToMs } from '@temporalio/common/lib/time.js';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { startTimeSkippingEnvironment } from '@tributary/workflows/testing';
import {
  createOrm,
  createWebhookDeliveryActivities,
  createWebhookSender,
  createWorkflowOutbox,
  enqueueWebhookDelivery,
  kitEntities,
  kitMigrations,
  migrateUp,
  WebhookDelivery,
  WebhookDeliveryAttempt,
  type WebhookDeliveryActivityDeps,
} from '../../src/index.js';
import { createTestDatabase, startHttpsReceiver } from '../../src/testing/index.js';
import type { HttpsReceiver, ReceiverResponse, ReceivedRequest, TestDatabase } from '../../src/testing/index.js';
import type { ServiceName, WebhookSchedule } from '@tributary/workflows';
import { createServiceWorker } from '@tributary/workflows/worker';
import type { CreateServiceWorkerOptions } from '@tributary/workflows/worker';

type MikroORM = Awaited<ReturnType<typeof createOrm>>;

export interface Harness {
  env: TestWorkflowEnvironment;
  orm: MikroORM;
  db: TestDatabase;
  receiver: HttpsReceiver;
  /** Signing secrets by reference: what the service's secret store would hold. Tests rotate them. */
  secrets: Map<string, string>;
  close(): Promise<void>;
}

export async function startHarness(name: string): Promise<Harness> {
  const db = await createTestDatabase(name);
  const orm = await createOrm({ clientUrl: db.url, entities: kitEntities, migrations: kitMigrations });
  await migrateUp(orm);
  const receiver = await startHttpsReceiver();
  const env = await startTimeSkippingEnvironment();
  const secrets = new Map<string, string>();
  return {
    env,
    orm,
    db,
    receiver,
    secrets,
    async close() {
      await env.teardown();
      await receiver.close();
      await orm.close(true);
      await db.drop();
    },
  };
}


export function newWorker(
  h: Harness,
  service: ServiceName,
  workerOptions?: CreateServiceWorkerOptions['workerOptions'],
  renderBody?: WebhookDeliveryActivityDeps['renderBody'],
) {
  const activities = createWebhookDeliveryActivities({
    em: h.orm.em,
    // The receiver listens on localhost: the operator exemption a test deployment would set.
    sender: createWebhookSender({ allowPrivateHosts: ['localhost'] }),
    resolveSigningSecret: async (ref) => h.secrets.get(ref) ?? null,
    ...(renderBody ? { renderBody } : {}),
  });
  return createServiceWorker({ service, connection: h.env.nativeConnection, namespace: h.env.namespace ?? 'default', activities, workerOptions });
}

/** The workflow outbox on the harness's database and time-skipping Temporal, as a service's process has one. */
export function outboxOf(h: Harness) {
  return createWorkflowOutbox({ em: h.orm.em, client: h.env.client });
}

export interface Enqueued {
  delivery: WebhookDelivery;
  body: Buffer;
  eventId: string;
  secretRef: string;
  handle: WorkflowHandle;
}

/** Enqueues one delivery in a committed transaction and dispatches it, as a service does. */
export async function enqueueAndDispatch(
  h: Harness,
  service: ServiceName,
  opts: { respond: (req: ReceivedRequest) => ReceiverResponse; schedule?: WebhookSchedule; secret?: string; eventName?: string },
): Promise<Enqueued> {
  const eventId = `evt_${randomUUID().slice(0, 8)}`;
  const secretRef = `endpoint_${eventId}`;
  h.secrets.set(secretRef, opts.secret ?? `whsec_${randomUUID().replace(/-/g, '')}`);
  h.receiver.reset();
  h.receiver.setResponder(opts.respond);
  const eventName = opts.eventName ?? (service === 'bnpl' ? 'loan.funded' : 'payment.paid');
  const bodyText = JSON.stringify({ event: eventName, id: eventId, status: 'paid', amount_paid: '0.015', timestamp: new Date().toISOString(), note: 'ünïcode ✓' });
  const { delivery, outboxEntry } = await h.orm.em.fork().transactional((tx) =>
    enqueueWebhookDelivery(tx, {
      service,
      eventId,
      eventName,
      endpointUrl: `${h.receiver.url}/hooks/${eventId}`,
      body: bodyText,
      signingSecretRef: secretRef,
      ...(opts.schedule ? { schedule: opts.schedule } : {}),
    }),
  );
  const dispatched = await outboxOf(h).dispatch([outboxEntry.id]);
  if (dispatched.dispatched.length !== 1) throw new Error(`dispatch failed: ${JSON.stringify(dispatched)}`);
  return { delivery, body: Buffer.from(bodyText, 'utf8'), eventId, secretRef, handle: h.env.client.workflow.getHandle(delivery.workflowId) };
}

export async function loadDelivery(h: Harness, id: string) {
  const em = h.orm.em.fork();
  const delivery = await em.findOneOrFail(WebhookDelivery, { id });
  const attempts = await em.find(WebhookDeliveryAttempt, { deliveryId: id }, { orderBy: { attemptNumber: 'asc' } });
  return { delivery, attempts };
}

type HistoryEvent = NonNullable<Awaited<ReturnType<WorkflowHandle['fetchHistory']>>['events']>[number];

export interface Timeline {
  /** Server time at which each delivery attempt (activity) was scheduled. */
  attemptScheduledAt: number[];
  /** Durations of the durable timers the workflow started, in order. */
  timerDurations: number[];
  /** Highest activity attempt number seen per activity completion (retries of one activity). */
  activityAttempts: number[];
  events: HistoryEvent[];
}

export async function timeline(handle: WorkflowHandle): Promise<Timeline> {
  const history = await handle.fetchHistory();
  const events = history.events ?? [];
  return {
    attemptScheduledAt: events
      .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'deliverWebhookAttempt')
      .map((e) => tsToMs(e.eventTime)),
    timerDurations: events.filter((e) => e.timerStartedEventAttributes).map((e) => tsToMs(e.timerStartedEventAttributes!.startToFireTimeout)),
    activityAttempts: events.filter((e) => e.activityTaskStartedEventAttributes).map((e) => e.activityTaskStartedEventAttributes!.attempt ?? 1),
    events,
  };
}

export function gaps(times: number[]): number[] {
  return times.slice(1).map((t, i) => t - times[i]!);
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
