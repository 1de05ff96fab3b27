// /readyz checks: the service's database and the Temporal frontend its worker and webhook engine depend on.
import type { MikroORM } from '@mikro-orm/postgresql';
import { Connection } from '@temporalio/client';
import type { ReadinessCheck } from '@tributary/kit';

export function databaseReadiness(orm: MikroORM): ReadinessCheck {
  return { name: 'database', check: async () => void (await orm.em.getConnection().execute('select 1')) };
}

/** Temporal reachability over one lazily opened gRPC connection (re-opened after a failed first connect). */
export class TemporalReadiness implements ReadinessCheck {
  readonly name = 'temporal';
  private connection: Promise<Connection> | undefined;

  constructor(private readonly address: string, private readonly namespace: string) {}

  check = async (): Promise<void> => {
    this.connection ??= Connection.connect({ address: this.address, connectTimeout: '2s' });
    let connection: Connection;
    try {
      connection = await this.connection;
    } catch (error) {
      this.connection = undefined;
      throw error;
    }
    await connection.workflowService.describeNamespace({ namespace: this.namespace });
  };

  async close(): Promise<void> {
    const connection = await this.connection?.catch(() => undefined);
    this.connection = undefined;
    await connection?.close();
  }
}
