import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { EntityManager } from '@mikro-orm/postgresql';
import { assertValidWebhookSchedule, TASK_QUEUES, WEBHOOK_SCHEDULES, WORKFLOW_TYPES } from '@tributary/workflows';
import type { ServiceName, WebhookDeliveryWorkflow, WebhookSchedule } from '@tributary/workflows';
import type { Logger } from '../logging/index.js';
import { WebhookDelivery } from './entities.js';
import { redeliverWebhook } from './outbox.js';
import type { RedeliverOptions } from './outbox.js';

export interface WebhookDispatcherOptions {
  service: ServiceName;
  /** Root EntityManager (orm.em); the dispatcher forks its own. */
  em: EntityManager;
  client: Client;
  /** Default: WEBHOOK_SCHEDULES[service]. Required for a service without a schedule there. */
  schedule?: WebhookSchedule;
  logger?: Logger;
}

export interface DispatchResult {
  /** Deliveries whose workflow now exists (started now, or found already started). */
  started: string[];
  /** Deliveries whose start failed (Temporal unreachable...); the sweeper retries them. */
  failed: string[];
}

export interface WebhookDispatcher {
  /** Starts the delivery workflows; call AFTER the transaction that enqueued them committed. Never throws. */
  dispatch(deliveryIds: readonly string[]): Promise<DispatchResult>;
  /** Starts workflows for deliveries enqueued more than `olderThanMs` ago whose workflow was never started. */
  sweep(options?: { olderThanMs?: number; limit?: number }): Promise<DispatchResult>;
  /** Runs `sweep` every `intervalMs` until stopped. */
  startSweeper(options?: { intervalMs?: number; olderThanMs?: number }): { stop(): Promise<void> };
  /** Manual re-fire: a new delivery of the same event, committed and dispatched. */
  redeliver(deliveryId: string, options?: RedeliverOptions): Promise<WebhookDelivery>;
}

/**
 * What an operator sees for a delivery's workflow in the Temporal UI: event, receiving host and delivery number. Only
 * the host of the endpoint: a receiver's path or query may carry its own token.
 */
export function webhookWorkflowMetadata(delivery: Pick<WebhookDelivery, 'id' | 'service' | 'eventName' | 'eventId' | 'endpointUrl' | 'deliveryNumber'>): {
  staticSummary: string;
  staticDetails: string;
} {
  let host = 'unknown host';
  try {
    host = new URL(delivery.endpointUrl).host;
  } catch {
    // A stored URL always parsed when it was saved; keep the summary even if one does not.
  }
  return {
    staticSummary: `${delivery.service} ${delivery.eventName} to ${host} (delivery ${delivery.deliveryNumber})`,
    staticDetails: [`- delivery: ${delivery.id}`, `- event id: ${delivery.eventId}`, `- endpoint host: ${host}`].join('\n'),
  };
}

/**
 * Starts webhook delivery workflows for committed deliveries. Workflow ids come from the delivery row and the
 * reuse policy rejects duplicates, so a double start (dispatch racing the sweeper, a retry) is harmless.
 */
export function createWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const { service, client, logger } = options;
  const schedule = options.schedule ?? (WEBHOOK_SCHEDULES as Partial<Record<ServiceName, WebhookSchedule>>)[service];
  if (!schedule) throw new Error(`createWebhookDispatcher: no webhook schedule for service "${service}"`);
  assertValidWebhookSchedule(schedule);

  const markStarted = async (em: EntityManager, id: string) => {
    await em.nativeUpdate(WebhookDelivery, { id, workflowStartedAt: null }, { workflowStartedAt: new Date() });
  };

  const startOne = async (em: EntityManager, delivery: WebhookDelivery): Promise<boolean> => {
    try {
      await client.workflow.start<WebhookDeliveryWorkflow>(WORKFLOW_TYPES.webhookDelivery, {
        taskQueue: TASK_QUEUES[service],
        workflowId: delivery.workflowId,
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        args: [{ service, deliveryId: delivery.id, schedule }],
        ...webhookWorkflowMetadata(delivery),
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) {
        logger?.warn({ err: error, deliveryId: delivery.id, workflowId: delivery.workflowId }, 'webhook workflow start failed; the sweeper retries');
        return false;
      }
    }
    await markStarted(em, delivery.id);
    return true;
  };

  const startAll = async (deliveries: readonly WebhookDelivery[], em: EntityManager): Promise<DispatchResult> => {
    const result: DispatchResult = { started: [], failed: [] };
    for (const delivery of deliveries) {
      let ok = false;
      try {
        ok = await startOne(em, delivery);
      } catch (error) {
        logger?.warn({ err: error, deliveryId: delivery.id }, 'webhook dispatch failed');
      }
      (ok ? result.started : result.failed).push(delivery.id);
    }
    return result;
  };

  const dispatcher: WebhookDispatcher = {
    async dispatch(deliveryIds) {
      if (deliveryIds.length === 0) return { started: [], failed: [] };
      const em = options.em.fork();
      try {
        const rows = await em.find(WebhookDelivery, { id: { $in: [...deliveryIds] }, service });
        const result = await startAll(rows.filter((row) => !row.workflowStartedAt), em);
        for (const row of rows) if (row.workflowStartedAt) result.started.push(row.id);
        const found = new Set(rows.map((row) => row.id));
        for (const id of deliveryIds) if (!found.has(id)) result.failed.push(id);
        return result;
      } catch (error) {
        logger?.warn({ err: error }, 'webhook dispatch failed; the sweeper retries');
        return { started: [], failed: [...deliveryIds] };
      }
    },

    async sweep({ olderThanMs = 30_000, limit = 100 } = {}) {
      const em = options.em.fork();
      const rows = await em.find(
        WebhookDelivery,
        { service, workflowStartedAt: null, createdAt: { $lte: new Date(Date.now() - olderThanMs) } },
        { orderBy: { createdAt: 'asc' }, limit },
      );
      if (rows.length > 0) logger?.info({ count: rows.length }, 'starting webhook deliveries that were never started');
      return startAll(rows, em);
    },

    startSweeper({ intervalMs = 30_000, olderThanMs = 30_000 } = {}) {
      let running: Promise<unknown> = Promise.resolve();
      let busy = false;
      const timer = setInterval(() => {
        if (busy) return;
        busy = true;
        running = dispatcher
          .sweep({ olderThanMs })
          .catch((error: unknown) => logger?.warn({ err: error }, 'webhook sweep failed'))
          .finally(() => {
            busy = false;
          });
      }, intervalMs);
      timer.unref();
      return {
        async stop() {
          clearInterval(timer);
          await running;
        },
      };
    },

    async redeliver(deliveryId, redeliverOptions) {
      const delivery = await options.em.fork().transactional((tx) => redeliverWebhook(tx, deliveryId, redeliverOptions));
      await dispatcher.dispatch([delivery.id]);
      return delivery;
    },
  };
  return dispatcher;
}
