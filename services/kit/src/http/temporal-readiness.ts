// The /readyz check of the Temporal frontend a service's worker and webhook engine depend on (beside databaseReadiness).
import { Connection } from '@temporalio/client';
import type { Duration } from '@temporalio/common';
import type { ReadinessCheck } from './readiness.js';

export interface TemporalReadinessCheck extends ReadinessCheck {
  /** Closes the probe's connection (if one was opened); the next check opens a new one. */
  close(): Promise<void>;
}

/**
 * Temporal reachability: describes `namespace` over one lazily opened gRPC connection, re-opened after a failed
 * connect so the probe recovers once Temporal comes up.
 */
export function temporalReadiness(options: { address: string; namespace: string; connectTimeout?: Duration }): TemporalReadinessCheck {
  let connecting: Promise<Connection> | undefined;
  return {
    name: 'temporal',
    async check() {
      connecting ??= Connection.connect({ address: options.address, connectTimeout: options.connectTimeout ?? '2s' });
      let connection: Connection;
      try {
        connection = await connecting;
      } catch (error) {
        connecting = undefined;
        throw error;
      }
      await connection.workflowService.describeNamespace({ namespace: options.namespace });
    },
    async close() {
      const connection = await connecting?.catch(() => undefined);
      connecting = undefined;
      await connection?.close();
    },
  };
}
