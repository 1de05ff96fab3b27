// The crypto service's Temporal worker: runs the shared webhook delivery workflow on the `crypto` task queue with
// activities that read and record deliveries in the crypto database.
import type { MikroORM } from '@mikro-orm/postgresql';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { createWebhookDeliveryActivities, createWebhookSender, type Logger } from '@tributary/kit';
import { createServiceWorker } from '@tributary/workflows/worker';
import type { CryptoConfig } from './service.js';

export interface RunningWorker {
  worker: Worker;
  /** Resolves when the worker has stopped (after shutdown()). */
  done: Promise<void>;
  shutdown(): Promise<void>;
}

export async function startWorker(opts: { orm: MikroORM; logger: Logger; config: Pick<CryptoConfig, 'TEMPORAL_ADDRESS' | 'TEMPORAL_NAMESPACE' | 'WEBHOOK_ALLOW_PRIVATE_HOSTS'> }): Promise<RunningWorker> {
  const { config, logger } = opts;
  const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  const worker = await createServiceWorker({
    service: 'crypto',
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    activities: createWebhookDeliveryActivities({
      em: opts.orm.em,
      sender: createWebhookSender({ allowPrivateHosts: config.WEBHOOK_ALLOW_PRIVATE_HOSTS }),
      resolveSigningSecret,
      logger,
    }),
  });
  const done = worker.run().finally(() => connection.close());
  logger.info({ taskQueue: 'crypto', address: config.TEMPORAL_ADDRESS }, 'worker started');
  return {
    worker,
    done,
    shutdown: async () => {
      worker.shutdown();
      await done;
    },
  };
}

/**
 * Signing secrets are resolved at send time so a rotated secret applies to the next attempt. This slice has no
 * webhook endpoints or signing secrets yet (they arrive with the service's webhook issue), so there is nothing to
 * resolve: an attempt for an unknown reference is recorded as failed rather than sent unsigned.
 */
async function resolveSigningSecret(_ref: string): Promise<string | null> {
  return null;
}
