// The worker's own HTTP listener (METRICS_PORT): /metrics for Prometheus and the /healthz and /readyz probes, on the
// kit's app, so a worker is scraped and probed exactly like its service's `serve` process. It serves nothing else.
import type { MikroORM } from '@mikro-orm/postgresql';
import type { ServiceEnv } from '../config/index.js';
import { databaseReadiness } from '../database/index.js';
import { envelopeErrorFormat } from '../errors/index.js';
import { createServiceApp, startHttpServer, temporalReadiness, type RunningServer } from '../http/index.js';
import type { Logger } from '../logging/index.js';

export type WorkerListenerConfig = Pick<ServiceEnv, 'HOST' | 'TEMPORAL_ADDRESS' | 'TEMPORAL_NAMESPACE' | 'METRICS_TOKEN' | 'SHUTDOWN_GRACE_MS'> & { METRICS_PORT: number };

export async function startWorkerListener(options: { service: string; orm: MikroORM; logger: Logger; config: WorkerListenerConfig }): Promise<RunningServer> {
  const { service, orm, logger, config } = options;
  const temporal = temporalReadiness({ address: config.TEMPORAL_ADDRESS, namespace: config.TEMPORAL_NAMESPACE });
  try {
    const app = await createServiceApp({
      service,
      logger,
      errorFormat: envelopeErrorFormat,
      readiness: [databaseReadiness(orm), temporal],
      metricsToken: config.METRICS_TOKEN,
      configure: () => {},
    });
    return await startHttpServer(app, { port: config.METRICS_PORT, host: config.HOST, logger, graceMs: config.SHUTDOWN_GRACE_MS, onClose: [() => temporal.close()] });
  } catch (error) {
    await temporal.close();
    throw error;
  }
}
