// The Temporal client of a service's workflow outbox (HTTP process and worker alike): connects on first use (a service
// starts and serves while Temporal is down; /readyz reports it) and is closed with the process's other resources.
import { Client, Connection } from '@temporalio/client';
// The client part only: the package's index also loads its worker interceptors.
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client/index.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ServiceEnv } from '../config/index.js';
import type { Logger } from '../logging/index.js';
import { createWorkflowOutbox, type WorkflowOutbox } from './workflow-outbox.js';

export interface OpenedWorkflowOutbox {
  outbox: WorkflowOutbox;
  /** The outbox's Temporal client (lazy connection), for what else the process asks of Temporal (e.g. schedules). */
  client: Client;
  /** Waits for background dispatches, then closes the Temporal connection. */
  close(): Promise<void>;
}

export function openWorkflowOutbox(options: {
  /** The service whose outbox this is (metrics). */
  service?: string;
  em: EntityManager;
  config: Pick<ServiceEnv, 'TEMPORAL_ADDRESS' | 'TEMPORAL_NAMESPACE'>;
  logger?: Logger;
}): OpenedWorkflowOutbox {
  const connection = Connection.lazy({ address: options.config.TEMPORAL_ADDRESS });
  // StartWorkflow/SignalWorkflow spans in the active trace, their context carried in the workflow's headers.
  const client = new Client({ connection, namespace: options.config.TEMPORAL_NAMESPACE, interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } });
  const outbox = createWorkflowOutbox({ em: options.em, client, ...(options.service ? { service: options.service } : {}), ...(options.logger ? { logger: options.logger } : {}) });
  return {
    outbox,
    client,
    async close() {
      await outbox.idle();
      await connection.close();
    },
  };
}
