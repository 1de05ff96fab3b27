// What the projects module announces (the webhooks module delivers it): a port, so projects need not know about
// webhook endpoints. `data` is the REST resource (presentProject), queued in the transaction that made the change.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AfterCommit } from '@tributary/kit';

export type ProjectEvent = 'project.created';

export interface ProjectEventSink {
  /** Queues `event` in `tx`; returns the work to run after the commit (undefined when nobody listens). */
  emit(tx: EntityManager, teamId: number, event: ProjectEvent, data: object): Promise<AfterCommit | undefined>;
}
