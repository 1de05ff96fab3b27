// What the customers module announces (the webhooks module delivers it): a port, so customers need not know about
// webhook endpoints. `data` is the REST resource (presentCustomer), queued in the transaction that made the change.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AfterCommit } from '@tributary/kit';

export type CustomerEvent = 'customer.created';

export interface CustomerEventSink {
  /** Queues `event` in `tx`; returns the work to run after the commit (undefined when nobody listens). */
  emit(tx: EntityManager, teamId: number, event: CustomerEvent, data: object): Promise<AfterCommit | undefined>;
}
