// The `worker` side of the runtime: the service's Temporal worker running the shared webhook delivery workflow with
// activities on the service's database, plus the dispatcher's sweeper, which starts deliveries that were committed
// but whose workflow was never started (a crash between commit and start).
import type { MikroORM } from '@mikro-orm/postgresql';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { TASK_QUEUES, WEBHOOK_SCHEDULES, type ServiceName, type WebhookSchedule } from '@tributary/workflows';
import { createServiceWorker } from '@tributary/workflows/worker';
import type { ServiceEnv } from '../config/index.js';
import type { Logger } from '../logging/index.js';
import { createWebhookDeliveryActivities, createWebhookDispatcher, createWebhookSender, type WebhookDispatcher } from '../webhooks/index.js';
import type { ServiceDefinition, ServiceWorkerContext } from './definition.js';

export type ServiceWorkerConfig = Pick<ServiceEnv, 'TEMPORAL_ADDRESS' | 'TEMPORAL_NAMESPACE' | 'WEBHOOK_ALLOW_PRIVATE_HOSTS'>;

export interface StartServiceWorkerOptions {
  /** The service's ORM (the caller closes it after shutdown()). */
  orm: MikroORM;
  logger: Logger;
  config: ServiceWorkerConfig;
  /** Environment handed to the service's signing-secret resolver; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Sweeper timing; the dispatcher's defaults (30 s) otherwise. */
  sweeper?: { intervalMs?: number; olderThanMs?: number };
}

export interface RunningWorker {
  worker: Worker;
  /** Resolves when the worker has stopped (after shutdown()) and its sweeper and connections are closed. */
  done: Promise<void>;
  shutdown(): Promise<void>;
}

function webhookScheduleOf(definition: Pick<ServiceDefinition, 'name' | 'worker'>): WebhookSchedule | undefined {
  return definition.worker.webhookSchedule ?? (WEBHOOK_SCHEDULES as Partial<Record<ServiceName, WebhookSchedule>>)[definition.name];
}

export async function startServiceWorker(definition: Pick<ServiceDefinition, 'name' | 'worker'>, options: StartServiceWorkerOptions): Promise<RunningWorker> {
  const { orm, logger, config } = options;
  const service = definition.name;
  const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  const releases: Array<() => Promise<void>> = [() => connection.close()];
  const release = async () => {
    for (const fn of releases.splice(0).reverse()) await fn();
  };
  try {
    // One dispatcher serves both the sweeper and the service's own activities, so deliveries an activity queues
    // (e.g. crypto's payment.expired) start right after their commit instead of waiting for the next sweep.
    const schedule = webhookScheduleOf(definition);
    let webhookDispatcher: WebhookDispatcher | undefined;
    if (schedule) {
      const clientConnection = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
      releases.push(() => clientConnection.close());
      const client = new Client({ connection: clientConnection, namespace: config.TEMPORAL_NAMESPACE });
      webhookDispatcher = createWebhookDispatcher({ service, em: orm.em, client, schedule, logger });
    }
    const context: ServiceWorkerContext = { orm, logger, env: options.env ?? process.env, webhookDispatcher };
    const worker = await createServiceWorker({
      service,
      connection,
      namespace: config.TEMPORAL_NAMESPACE,
      activities: {
        ...definition.worker.activities?.(context),
        ...createWebhookDeliveryActivities({
          em: orm.em,
          sender: createWebhookSender({ allowPrivateHosts: config.WEBHOOK_ALLOW_PRIVATE_HOSTS }),
          resolveSigningSecret: (ref) => definition.worker.resolveSigningSecret(ref, { em: orm.em.fork(), env: context.env }),
          logger,
        }),
      },
    });
    if (webhookDispatcher) {
      const sweeper = webhookDispatcher.startSweeper(options.sweeper);
      releases.push(() => sweeper.stop());
    }
    for (const loop of definition.worker.background?.(context) ?? []) releases.push(() => loop.stop());
    const done = worker.run().finally(release);
    logger.info({ taskQueue: TASK_QUEUES[service], address: config.TEMPORAL_ADDRESS }, 'worker started');
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
