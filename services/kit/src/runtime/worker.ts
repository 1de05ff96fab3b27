// The `worker` side of the runtime: the service's Temporal worker running the shared webhook delivery workflow with
// activities on the service's database, the service's own workflows' activities, and the workflow outbox's sweeper,
// which dispatches the starts and signals that were committed but not dispatched after their commit (Temporal
// unreachable then, or a crash between commit and dispatch).
import { RequestContext } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { TASK_QUEUES } from '@tributary/workflows';
import { createServiceWorker } from '@tributary/workflows/worker';
import type { ServiceEnv } from '../config/index.js';
import type { Logger } from '../logging/index.js';
import { openWorkflowOutbox, type OpenedWorkflowOutbox, type SweepOptions } from '../outbox/index.js';
import { createWebhookDeliveryActivities, createWebhookSender } from '../webhooks/index.js';
import type { ServiceDefinition, ServiceWorkerContext } from './definition.js';

export type ServiceWorkerConfig = Pick<ServiceEnv, 'TEMPORAL_ADDRESS' | 'TEMPORAL_NAMESPACE' | 'WEBHOOK_ALLOW_PRIVATE_HOSTS'> & Partial<Pick<ServiceEnv, 'TEMPORAL_MAX_CACHED_WORKFLOWS'>>;

/**
 * Workflows a worker keeps in memory between their tasks (Temporal's sticky cache) unless
 * TEMPORAL_MAX_CACHED_WORKFLOWS says otherwise. The SDK's default grows with the heap limit (about 2,300 workflows
 * with a 4 GiB heap, 200–300 KiB each here), and ours mostly wait on long timers (a session's or invoice's expiry, a
 * loan's next due date) whose next task comes minutes to months later: cached, they only held memory (the soak
 * benchmark saw workers grow by 350–530 MiB in ten minutes). An evicted workflow's next task replays its short history.
 */
export const DEFAULT_MAX_CACHED_WORKFLOWS = 100;

export interface StartServiceWorkerOptions {
  /** The service's ORM (the caller closes it after shutdown()). */
  orm: MikroORM;
  logger: Logger;
  config: ServiceWorkerConfig;
  /** Environment handed to the service's signing-secret resolver; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Outbox sweeper timing; the outbox's defaults (every 5 s, entries older than 10 s) otherwise. */
  sweeper?: SweepOptions & { intervalMs?: number };
}

export interface RunningWorker {
  worker: Worker;
  /** Resolves when the worker has stopped (after shutdown()) and its sweepers and connections are closed. */
  done: Promise<void>;
  shutdown(): Promise<void>;
}

export async function startServiceWorker(definition: Pick<ServiceDefinition, 'name' | 'worker'>, options: StartServiceWorkerOptions): Promise<RunningWorker> {
  const { orm, logger, config } = options;
  const releases: Array<() => Promise<void>> = [];
  const release = async () => {
    for (const fn of releases.splice(0).reverse()) await fn();
  };
  try {
    const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
    releases.push(() => connection.close());
    const { outbox, client } = openOutbox(definition, options, releases);
    const context: ServiceWorkerContext = { orm, logger, env: options.env ?? process.env, outbox, temporal: client };
    const worker = await createServiceWorker({
      service: definition.name,
      connection,
      namespace: config.TEMPORAL_NAMESPACE,
      // Each activity runs in its own MikroORM context, as each HTTP request does, so the service's domain services
      // (built once on orm.em) use a fresh EntityManager per execution.
      workerOptions: {
        maxCachedWorkflows: config.TEMPORAL_MAX_CACHED_WORKFLOWS ?? DEFAULT_MAX_CACHED_WORKFLOWS,
        interceptors: { activity: [() => ({ inbound: { execute: (input, next) => RequestContext.create(orm.em, () => next(input)) } })] },
      },
      activities: serviceActivities(definition, context, config),
    });
    const sweeper = outbox.startSweeper(options.sweeper);
    releases.push(() => sweeper.stop());
    for (const loop of definition.worker.background?.(context) ?? []) releases.push(() => loop.stop());
    const done = worker.run().finally(release);
    logger.info({ taskQueue: TASK_QUEUES[definition.name], address: config.TEMPORAL_ADDRESS }, 'worker started');
    return {
      worker,
      done,
      shutdown: async () => {
        worker.shutdown();
        await done;
      },
    };
  } catch (error) {
    await release();
    throw error;
  }
}

/**
 * One outbox serves the sweeper and the service's activities, so what an activity's transaction enqueues (e.g.
 * crypto's payment.expired delivery) is dispatched right after its commit instead of on the next sweep.
 */
function openOutbox(definition: Pick<ServiceDefinition, 'name'>, { orm, logger, config }: StartServiceWorkerOptions, releases: Array<() => Promise<void>>): OpenedWorkflowOutbox {
  const opened = openWorkflowOutbox({ service: definition.name, em: orm.em, config, logger });
  releases.push(opened.close);
  return opened;
}

/** The service's own activities and the shared webhook delivery activities on the service's database. */
function serviceActivities(definition: Pick<ServiceDefinition, 'name' | 'worker'>, context: ServiceWorkerContext, config: ServiceWorkerConfig) {
  const { orm, logger } = context;
  const renderWebhookBody = definition.worker.renderWebhookBody?.bind(definition.worker);
  return {
    ...definition.worker.activities?.(context),
    ...createWebhookDeliveryActivities({
      service: definition.name,
      em: orm.em,
      sender: createWebhookSender({ allowPrivateHosts: config.WEBHOOK_ALLOW_PRIVATE_HOSTS }),
      resolveSigningSecret: (ref) => definition.worker.resolveSigningSecret(ref, { em: orm.em.fork(), env: context.env }),
      ...(renderWebhookBody ? { renderBody: (delivery, attemptedAt) => renderWebhookBody(delivery, attemptedAt, { em: orm.em.fork(), env: context.env }) } : {}),
      logger,
    }),
  };
}
