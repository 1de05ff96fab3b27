// What the comments module announces (the webhooks module delivers it): a port, so comments need not know about
// webhook endpoints. `data` is the REST resource (presentComment), queued in the transaction that made the change.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AfterCommit } from '@tributary/kit';

export type CommentEvent = 'comment.created';

export interface CommentEventSink {
  /** Queues `event` in `tx`; returns the work to run after the commit (undefined when nobody listens). */
  emit(tx: EntityManager, teamId: number, event: CommentEvent, data: object): Promise<AfterCommit | undefined>;
}
